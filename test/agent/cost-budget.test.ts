import { runAgent } from '../../src/agent/loop.js';
import { DEFAULT_MAX_REPLY_TOKENS, PROMPT_ESTIMATE_MARGIN } from '../../src/agent/cost-budget.js';
import { readJournal } from '../../src/agent/journal.js';
import { resumeAgent } from '../../src/agent/resume.js';
import { usdOf } from '../../src/model/cost.js';
import { estimateTokens } from '../../src/model/estimate-tokens.js';
import { InlineModel, calls } from './helpers/inline-model.js';
import { echoTool } from './helpers/test-tools.js';
import { tempFixture, testDeps } from './helpers/deps.js';

const input = { task: 'Fix it', systemPrompt: 'You fix bugs.' };
// $1 per million prompt tokens, $0.50 cached, $10 per million completion tokens.
const price = { input: 1, cachedInput: 0.5, output: 10 };
// Each call: 100,000 prompt tokens of which 40,000 cached, 1,000 completion: $0.06 + $0.02 + $0.01 = $0.09.
const usage = { promptTokens: 100_000, completionTokens: 1_000, cachedPromptTokens: 40_000 };
const CALL_USD = 0.09;

describe('the cost budget', () => {
  let tmp: ReturnType<typeof tempFixture>;
  beforeEach(() => (tmp = tempFixture()));
  afterEach(() => tmp.cleanup());

  const echoes = (n: number) => Array.from({ length: n }, (_, i) => calls(['echo', { text: `n${i}` }]));

  it('stops before the call whose worst case would cross max_cost_usd, never over it', async () => {
    const model = new InlineModel(echoes(10), usage);
    // The worst case of a next call: the last reported prompt (100,000) with the 25% margin, uncached ($0.125),
    // plus a full 4096-token reply ($0.041) ≈ $0.17. After one call ($0.09) the second fits under $0.30; after
    // two ($0.18) a third might not.
    const maxUsd = 0.3;
    const deps = testDeps(tmp, model, [echoTool()], { budget: { maxSteps: 50, maxTokens: 1e9, maxWallMs: 1e9, cost: { maxUsd, price, model: model.name, maxReplyTokens: DEFAULT_MAX_REPLY_TOKENS } } });
    const outcome = await runAgent(deps, input);
    expect(outcome).toMatchObject({ status: 'budget_exhausted', budget: 'cost', steps: 2 });
    expect(outcome.tokens).toEqual({ prompt: 200_000, completion: 2_000, cachedPrompt: 80_000 });
    const spent = usdOf(outcome.tokens, price);
    expect(spent).toBeCloseTo(2 * CALL_USD, 10);
    expect(spent).toBeLessThanOrEqual(maxUsd);
    // The third call was not made: its worst case would cross the budget.
    expect(model.requests).toHaveLength(2);
    const worst = usdOf({ prompt: 125_000, completion: DEFAULT_MAX_REPLY_TOKENS }, price);
    expect(outcome.reason).toBe(`cost budget reached: $0.18 spent of $0.30, and the next model call could cost up to $${worst.toFixed(2)}`);
    expect(0.18 + worst).toBeGreaterThan(maxUsd);
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
    const crashing = new InlineModel([...echoes(1), new Error('process killed')], usage);
    const deps = testDeps(tmp, crashing, [echoTool()], { budget });
    await expect(runAgent(deps, input)).rejects.toThrow('process killed');
    const again = new InlineModel(echoes(10), usage);
    const outcome = await resumeAgent({ ...deps, model: again }, readJournal(deps.journal.path));
    expect(outcome).toMatchObject({ status: 'budget_exhausted', budget: 'cost', steps: 2, tokens: { prompt: 200_000, cachedPrompt: 80_000 } });
    expect(again.requests).toHaveLength(1);
  });
});
