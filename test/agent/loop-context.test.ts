import { readJournal } from '../../src/agent/journal.js';
import { runAgent } from '../../src/agent/loop.js';
import { toolSpecs } from '../../src/agent/tools/registry.js';
import { estimateTokens } from '../../src/model/estimate-tokens.js';
import type { ChatMessage } from '../../src/model/types.js';
import { tempFixture, testDeps, type TempFixture } from './helpers/deps.js';
import { InlineModel, calls } from './helpers/inline-model.js';
import { bigTool, echoTool } from './helpers/test-tools.js';

describe('runAgent context budget', () => {
  let tmp: TempFixture;
  beforeEach(() => (tmp = tempFixture()));
  afterEach(() => tmp.cleanup());

  it('never sends a request over the budget across 60 steps, and never breaks a call/result pair', async () => {
    const tools = [bigTool(), echoTool()];
    const turns = Array.from({ length: 60 }, (_, i) => calls(['big', { chars: 500 + ((i * 997) % 3000) }], ['echo', { text: `step ${i}` }]));
    const model = new InlineModel(turns);
    const maxTokens = 4_000;
    const deps = testDeps(tmp, model, tools, { budget: { maxSteps: 60, maxTokens: 1e9, maxWallMs: 1e9 }, context: { maxTokens, keepLastToolResults: 4 } });
    const outcome = await runAgent(deps, { task: 'fill the context', systemPrompt: 'sys' });
    expect(outcome).toMatchObject({ status: 'budget_exhausted', budget: 'steps', steps: 60 });
    expect(model.requests).toHaveLength(60);
    const specs = toolSpecs(tools);
    for (const request of model.requests) {
      expect(estimateTokens(request.messages, specs)).toBeLessThanOrEqual(maxTokens);
      expect(request.messages.slice(0, 2).map((m) => m.role)).toEqual(['system', 'user']);
      expectPaired(request.messages);
    }
    // the journal keeps every result whole
    const ends = readJournal(deps.journal.path).filter((r) => r.type === 'tool_end');
    expect(ends).toHaveLength(120);
    expect(ends.some((r) => r.type === 'tool_end' && r.result.output.length >= 3000)).toBe(true);
  });
});

function expectPaired(messages: readonly ChatMessage[]): void {
  const answered = new Set(messages.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])));
  const asked = new Set(messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : [])));
  expect([...answered].every((id) => asked.has(id))).toBe(true);
  expect([...asked].every((id) => answered.has(id))).toBe(true);
}
