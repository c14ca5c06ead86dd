import { readJournal, type Journal } from '../../src/agent/journal.js';
import { runAgent } from '../../src/agent/loop.js';
import { resumeAgent } from '../../src/agent/resume.js';
import { toolSpecs } from '../../src/agent/tools/registry.js';
import { ModelError } from '../../src/model/errors.js';
import { estimateTokens } from '../../src/model/estimate-tokens.js';
import type { AssistantMessage, ChatMessage, ChatModel, ChatRequest, ChatResponse } from '../../src/model/types.js';
import { tempFixture, testDeps, type TempFixture, type TestDeps } from './helpers/deps.js';
import { calls } from './helpers/inline-model.js';
import { bigTool, echoTool } from './helpers/test-tools.js';

const SUMMARY = 'The user wants the context filled. Files changed: none. Verified: nothing yet. Left: keep calling big and echo.';
const MAX_TOKENS = 4_000;
const STEPS = 60;

/**
 * A scripted model for a long session: step `turn` calls big + echo; a handoff request (purpose
 * 'handoff') gets SUMMARY, or `summaryError` when set. Keeps every request.
 */
class SessionModel implements ChatModel {
  readonly name = 'session-test';
  readonly requests: ChatRequest[] = [];
  readonly steps = Array.from({ length: STEPS }, (_, i) => calls(['big', { chars: 1500 + ((i * 997) % 1500) }], ['echo', { text: `step ${i}` }]));
  constructor(private readonly summaryError: ModelError | null = null) {}

  async complete(request: ChatRequest): Promise<ChatResponse> {
    this.requests.push({ ...request, messages: [...request.messages] });
    const usage = { promptTokens: 100, completionTokens: 10 };
    if (request.purpose === 'handoff') {
      if (this.summaryError) throw this.summaryError;
      return { message: { role: 'assistant', content: SUMMARY }, usage };
    }
    const message: AssistantMessage = this.steps[request.turn ?? 0] ?? calls(['echo', { text: 'more' }]);
    return { message, usage };
  }

  get handoffs(): ChatRequest[] {
    return this.requests.filter((r) => r.purpose === 'handoff');
  }
  get stepRequests(): ChatRequest[] {
    return this.requests.filter((r) => r.purpose === undefined);
  }
}

function expectPaired(messages: readonly ChatMessage[]): void {
  const answered = messages.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : []));
  const asked = messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : []));
  expect(new Set(answered)).toEqual(new Set(asked));
}

describe('handoff summaries when the context is full', () => {
  let tmp: TempFixture;
  beforeEach(() => (tmp = tempFixture()));
  afterEach(() => tmp.cleanup());

  const tools = [bigTool(), echoTool()];
  const specs = toolSpecs(tools);
  const deps = (model: ChatModel, over: Partial<TestDeps> = {}): TestDeps =>
    testDeps(tmp, model, tools, {
      budget: { maxSteps: STEPS, maxTokens: 1e9, maxWallMs: 1e9 },
      context: { maxTokens: MAX_TOKENS, keepLastToolResults: 4, handoffSummary: true },
      ...over,
    });

  it('a long session crosses the budget: one summary call, the next request fits with the summary as a hint, pairs intact', async () => {
    const model = new SessionModel();
    const d = deps(model);
    const outcome = await runAgent(d, { task: 'fill the context', systemPrompt: 'sys' });
    expect(outcome).toMatchObject({ status: 'budget_exhausted', steps: STEPS });
    expect(model.stepRequests).toHaveLength(STEPS);
    // Crossed once (about step 41): one summary call, after which stubs suffice again.
    expect(model.handoffs).toHaveLength(1);

    const first = model.handoffs[0]!;
    expect(first.tools).toEqual([]);
    expect(first.messages[0]).toMatchObject({ role: 'system', content: expect.stringMatching(/handoff summary of at most 300 words/) });
    expect(first.messages[1]?.content).toMatch(/fill the context[\s\S]*Transcript of the turns so far:\nassistant called big/);
    expect(estimateTokens(first.messages)).toBeLessThanOrEqual(MAX_TOKENS);

    // The request right after the summary: system + task + summary (marked as a hint) + whole recent steps.
    const at = model.requests.indexOf(first);
    const next = model.requests[at + 1]!;
    expect(next.purpose).toBeUndefined();
    expect(estimateTokens(next.messages, specs)).toBeLessThanOrEqual(MAX_TOKENS);
    expect(next.messages.slice(0, 3).map((m) => m.role)).toEqual(['system', 'user', 'user']);
    expect(next.messages[2]?.content).toMatch(/^\[handoff summary of the earlier turns[^\]]*It is a hint, not the truth[^\]]*\]\n/);
    expect(next.messages[2]?.content).toContain(SUMMARY);
    expect(next.messages[3]?.role).toBe('assistant');
    for (const r of model.stepRequests) {
      expect(estimateTokens(r.messages, specs)).toBeLessThanOrEqual(MAX_TOKENS);
      expectPaired(r.messages);
    }

    const journal = readJournal(d.journal.path);
    const compactions = journal.filter((r) => r.type === 'compaction');
    expect(compactions).toHaveLength(model.handoffs.length);
    expect(compactions[0]).toMatchObject({ summary: SUMMARY, usage: { promptTokens: 100, completionTokens: 10 } });
    // The summary's tokens count against the run's budget.
    expect(outcome.tokens.prompt).toBe(100 * model.requests.length);
    // The journal still keeps every result whole.
    expect(journal.filter((r) => r.type === 'tool_end')).toHaveLength(2 * STEPS);
    expect(d.events.some((e) => e.type === 'compaction')).toBe(true);
  });

  it('a failed summary call falls back to stubs (no compaction record) and the run goes on', async () => {
    const model = new SessionModel(new ModelError('transient', 'HTTP 500 from the endpoint', 500));
    const d = deps(model);
    const outcome = await runAgent(d, { task: 'fill the context', systemPrompt: 'sys' });
    expect(outcome).toMatchObject({ status: 'budget_exhausted', steps: STEPS });
    expect(model.handoffs.length).toBeGreaterThanOrEqual(1);
    // Retried only every few steps, not on every request.
    expect(model.handoffs.length).toBeLessThanOrEqual(Math.ceil(STEPS / 5));
    expect(readJournal(d.journal.path).some((r) => r.type === 'compaction')).toBe(false);
    for (const r of model.stepRequests) {
      expect(estimateTokens(r.messages, specs)).toBeLessThanOrEqual(MAX_TOKENS);
      expectPaired(r.messages);
    }
    expect(d.events).toContainEqual(expect.objectContaining({ type: 'warning', text: expect.stringMatching(/handoff summary call failed \(transient\)/) }));
  });

  it('resume after a crash right after compaction folds the summary and asks for none again', async () => {
    class Killed extends Error {}
    const live = new SessionModel();
    const d = deps(live);
    const crashAfterCompaction: Journal = {
      async append(entry) {
        await d.journal.append(entry);
        if (entry.type === 'compaction') throw new Killed('kill -9 right after the compaction record');
      },
    };
    await expect(runAgent({ ...d, journal: crashAfterCompaction }, { task: 'fill the context', systemPrompt: 'sys' })).rejects.toBeInstanceOf(Killed);
    const records = readJournal(d.journal.path);
    expect(records.at(-1)?.type).toBe('compaction');
    const stepsBefore = live.stepRequests.length;

    const resumed = new SessionModel();
    const outcome = await resumeAgent({ ...d, model: resumed }, records);
    expect(outcome).toMatchObject({ status: 'budget_exhausted', steps: STEPS });
    expect(resumed.stepRequests).toHaveLength(STEPS - stepsBefore);
    // The first resumed request is what the live run would have sent: the summary and the kept steps.
    const first = resumed.requests[0]!;
    expect(first.purpose).toBeUndefined();
    expect(first.turn).toBe(stepsBefore);
    expect(first.messages[2]?.content).toContain(SUMMARY);
    expect(estimateTokens(first.messages, specs)).toBeLessThanOrEqual(MAX_TOKENS);
    expectPaired(first.messages);
    const compaction = records.at(-1);
    if (compaction?.type !== 'compaction') throw new Error('expected a compaction record');
    expect(first.messages.length).toBe(3 + compaction.kept);
  });
});
