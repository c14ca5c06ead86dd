import type { JournalRecord } from '../../src/agent/journal-schema.js';
import { renderRunLogMarkdown } from '../../src/run-log/render-markdown.js';
import { renderRunLogText } from '../../src/run-log/render-text.js';
import { buildRunLog } from '../../src/run-log/run-log.js';

const start: JournalRecord = { type: 'start', at: 1, task: 't', taskMessage: 'Task:\nt', systemPrompt: 's', model: 'gpt-5', config: {} };
const reply = (step: number, usage: Extract<JournalRecord, { type: 'assistant' }>['usage']): JournalRecord => ({
  type: 'assistant',
  at: 1 + step,
  step,
  message: { role: 'assistant', content: null, toolCalls: [{ id: `c${step}`, name: 'read_file', arguments: '{}' }] },
  usage,
});

describe('the run log: the share of the prompt served from the cache, and estimated counts', () => {
  it("shows the cached share of the prompt over every reply in the text and Markdown facts", () => {
    const log = buildRunLog([start, reply(1, { promptTokens: 1_000, completionTokens: 10 }), reply(2, { promptTokens: 3_000, completionTokens: 10, cachedPromptTokens: 2_000 })]);
    expect(log.usage).toEqual({ prompt: 4_000, cachedPrompt: 2_000, estimated: false });
    expect(renderRunLogText(log)).toContain("4,020 tokens (50% of the prompt from the provider's cache)");
    expect(renderRunLogMarkdown(log)).toContain("4,020 tokens (50% of the prompt from the provider's cache)");
  });

  it('says when the counts are estimates, and nothing extra when there is neither', () => {
    expect(renderRunLogText(buildRunLog([start, reply(1, { promptTokens: 100, completionTokens: 5, estimated: true })]))).toContain('105 tokens (estimated: the endpoint reported no usage)');
    expect(renderRunLogText(buildRunLog([start, reply(1, { promptTokens: 100, completionTokens: 5 })]))).toMatch(/105 tokens ·/);
  });
});
