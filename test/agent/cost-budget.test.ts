import { runAgent } from '../../src/agent/loop.js';
import { DEFAULT_MAX_REPLY_TOKENS, PROMPT_ESTIMATE_MARGIN } from '../../src/agent/cost-budget.js';
import { readJournal } from '../../src/agent/journal.js';
import { resumeAgent } from '../../src/agent/resume.js';
import { usdOf } from '../../src/model/cost.js';
import { estimateTokens } from '../../src/model/estimate-tokens.js';
import { InlineModel, calls } from './helpers/inline-model.js';
import { echoTool } from './helpers/test-tools.js';
import { tempDir, testDeps } from './helpers/deps.js';

const input = { task: 'Fix it', systemPrompt: 'You fix bugs.' };
// $1 per million prompt tokens, $0.50 cached, $10 per million completion tokens.
const price = { input: 1, cachedInput: 0.5, output: 10 };
// Each call: 100,000 prompt tokens of which 40,000 cached, 1,000 completion: $0.06 + $0.02 + $0.01 = $0.09.
const usage = { promptTokens: 100_000, completionTokens: 1_000, cachedPromptTokens: 40_000 };
const CALL_USD = 0.09;

describe('the cost budget', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => (tmp = tempDir()));
  afterEach(() => tmp.cleanup());

  const echoes = (n: number) => Array.from({ length: n }, (_, i) => calls(['echo', { text: `n${i}` }]));

  it('stops before the call whose worst case would cross max_cost_usd, never over it', async () => {
    const model = new InlineModel(echoes(10), usage);
    // A worst-case call here is ≈ $0.04 (a short prompt with its margin, a full 4096-token reply): after two calls
    // ($0.18) the third fits under $0.30; after three ($0.27) the fourth might not, and really would ($0.36).
    const maxUsd = 0.3;
    const deps = testDeps(tmp, model, [echoTool()], { budget: { maxSteps: 50, maxTokens: 1e9, maxWallMs: 1e9, cost: { maxUsd, price, model: model.name, maxReplyTokens: DEFAULT_MAX_REPLY_TOKENS } } });
    const outcome = await runAgent(deps, input);
    expect(outcome).toMatchObject({ status: 'budget_exhausted', budget: 'cost', steps: 3 });
    expect(outcome.tokens).toEqual({ prompt: 300_000, completion: 3_000, cachedPrompt: 120_000 });
    const spent = usdOf(outcome.tokens, price);
    expect(spent).toBeCloseTo(3 * CALL_USD, 10);
    expect(spent).toBeLessThanOrEqual(maxUsd);
    // The fourth call was not made because its worst case would cross the budget.
    const fitted = model.requests.length;
    expect(fitted).toBe(3);
    expect(outcome.reason).toMatch(/^cost budget reached: \$0\.27 spent of \$0\.30, and the next model call could cost up to \$0\.0\d$/);
    const next = Number(outcome.reason.split('up to $')[1]);
    expect(0.27 + next).toBeGreaterThan(maxUsd);
    // Every call carried max_tokens, the reply part of the worst case.
    expect(model.requests.every((r) => r.maxTokens === DEFAULT_MAX_REPLY_TOKENS)).toBe(true);
    expect(readJournal(deps.journal.path).at(-1)).toMatchObject({ type: 'finish', outcome: { budget: 'cost' } });
  });

  it('counts the next prompt with its margin and the full reply in the worst case', async () => {
    const model = new InlineModel(echoes(1), usage);
    const first = estimateTokens([{ role: 'system', content: input.systemPrompt }, { role: 'user', content: 'x' }]);
    // Just under the first call's worst case: no call at all.
    const worst = usdOf({ prompt: Math.ceil(first * PROMPT_ESTIMATE_MARGIN), completion: DEFAULT_MAX_REPLY_TOKENS }, price);
    const deps = testDeps(tmp, model, [echoTool()], { budget: { maxSteps: 50, maxTokens: 1e9, maxWallMs: 1e9, cost: { maxUsd: worst / 2, price, model: model.name, maxReplyTokens: DEFAULT_MAX_REPLY_TOKENS } } });
    const outcome = await runAgent(deps, input);
    expect(outcome).toMatchObject({ status: 'budget_exhausted', budget: 'cost', steps: 0 });
    expect(model.requests).toHaveLength(0);
  });

  it('without a price the budget cannot be kept: no call is made and the reason says cost unknown', async () => {
    const model = new InlineModel(echoes(3), usage);
    const deps = testDeps(tmp, model, [echoTool()], { budget: { maxSteps: 50, maxTokens: 1e9, maxWallMs: 1e9, cost: { maxUsd: 5, price: null, model: model.name, maxReplyTokens: 4096 } } });
    const outcome = await runAgent(deps, input);
    expect(model.requests).toHaveLength(0);
    expect(outcome).toMatchObject({ status: 'budget_exhausted', budget: 'cost' });
    expect(outcome.reason).toBe('cost budget $5.00 cannot be kept: cost unknown (no price for inline-test)');
  });

  it('a resumed run folds the spend (cached tokens included) from the journal and keeps the budget', async () => {
    const budget = { maxSteps: 50, maxTokens: 1e9, maxWallMs: 1e9, cost: { maxUsd: 0.3, price, model: 'inline-test', maxReplyTokens: DEFAULT_MAX_REPLY_TOKENS } };
    const crashing = new InlineModel([...echoes(2), new Error('process killed')], usage);
    const deps = testDeps(tmp, crashing, [echoTool()], { budget });
    await expect(runAgent(deps, input)).rejects.toThrow('process killed');
    const again = new InlineModel(echoes(10), usage);
    const outcome = await resumeAgent({ ...deps, model: again }, readJournal(deps.journal.path));
    expect(outcome).toMatchObject({ status: 'budget_exhausted', budget: 'cost', steps: 3, tokens: { prompt: 300_000, cachedPrompt: 120_000 } });
    expect(again.requests).toHaveLength(1);
  });
});
