import { fitContext, stubText } from '../../src/agent/context.js';
import { estimateTokens } from '../../src/model/estimate-tokens.js';
import type { ChatMessage } from '../../src/model/types.js';

const estimate = (m: readonly ChatMessage[]) => estimateTokens(m);

/** 60 steps of 1–3 tool calls with outputs of deterministic, varied size, and a nudge now and then. */
function syntheticHistory(steps = 60): ChatMessage[] {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'system prompt' },
    { role: 'user', content: 'Task: fix it' },
  ];
  for (let s = 0; s < steps; s++) {
    const n = 1 + (s % 3);
    const toolCalls = Array.from({ length: n }, (_, i) => ({ id: `s${s}c${i}`, name: i % 2 ? 'read_file' : 'run', arguments: JSON.stringify({ path: `f${s}.ts` }) }));
    messages.push({ role: 'assistant', content: s % 4 ? null : `thinking about step ${s}`, toolCalls });
    for (const call of toolCalls) messages.push({ role: 'tool', toolCallId: call.id, content: `${call.name} ${s}:`.padEnd(200 + ((s * 37 + call.id.length * 101) % 1800), '.') });
    if (s % 9 === 8) messages.push({ role: 'user', content: 'You seem stuck: …' });
  }
  return messages;
}

function expectPairsIntact(sent: readonly ChatMessage[]): void {
  const seen = new Set<string>();
  sent.forEach((m, i) => {
    if (m.role === 'tool') expect(seen.has(m.toolCallId)).toBe(true);
    if (m.role === 'assistant' && m.toolCalls) {
      const results = sent.slice(i + 1, i + 1 + m.toolCalls.length);
      expect(results.map((r) => (r.role === 'tool' ? r.toolCallId : null))).toEqual(m.toolCalls.map((c) => c.id));
      for (const c of m.toolCalls) seen.add(c.id);
    }
  });
}

describe('fitContext', () => {
  const history = syntheticHistory();
  const full = estimate(history);

  it('sends everything unchanged while it fits', () => {
    expect(fitContext(history, { maxTokens: full, keepLastToolResults: 3, estimate })).toEqual(history);
  });

  it.each([0.8, 0.5, 0.25, 0.1, 0.05, 0.02])('at %p of the full size: fits, keeps pairs, system and task, and leaves the history alone', (share) => {
    const before = structuredClone(history);
    const maxTokens = Math.floor(full * share);
    const sent = fitContext(history, { maxTokens, keepLastToolResults: 4, estimate });
    expect(estimate(sent)).toBeLessThanOrEqual(maxTokens);
    expectPairsIntact(sent);
    expect(sent.slice(0, 2)).toEqual(history.slice(0, 2));
    expect(history).toEqual(before);
    // the newest step is always there (at the very least as stubs)
    expect(sent.at(-1)).toMatchObject({ role: 'tool', toolCallId: (history.at(-1) as { toolCallId: string }).toolCallId });
  });

  it('stubs older results first, oldest first, keeping the last ones whole', () => {
    const sent = fitContext(history, { maxTokens: Math.floor(full * 0.6), keepLastToolResults: 4, estimate });
    expect(sent).toHaveLength(history.length); // nothing dropped yet
    const tools = sent.filter((m) => m.role === 'tool');
    const originals = history.filter((m) => m.role === 'tool');
    expect(tools.slice(-4)).toEqual(originals.slice(-4));
    expect(tools[0]?.content).toBe(stubText('run'));
    expect(tools[2]?.content).toBe(stubText('read_file')); // step 1 called run, then read_file
    const firstWhole = tools.findIndex((m, i) => m.content === originals[i]?.content);
    expect(tools.slice(firstWhole).every((m, i) => m.content === originals[firstWhole + i]?.content)).toBe(true);
  });

  it('drops whole oldest steps after the task once stubs are not enough, and says so', () => {
    const sent = fitContext(history, { maxTokens: Math.floor(full * 0.05), keepLastToolResults: 4, estimate });
    expect(sent.length).toBeLessThan(history.length);
    expect(sent[2]).toMatchObject({ role: 'user', content: expect.stringMatching(/^\[\d+ earlier messages elided/) });
    expect(sent[3]?.role).not.toBe('tool');
  });

  it('stub text names the tool', () => {
    expect(stubText('read_file')).toBe('[output of read_file elided to save context; re-run the tool if you need it]');
  });
});

describe('fitContext in chunks (stubChunk)', () => {
  it('between two rounds the history sent only grows at its end: a provider can cache what came before', () => {
    const history = syntheticHistory(40);
    const maxTokens = Math.floor(estimate(history) * 0.4);
    // What the loop sends before each step: the history up to the next reply, every call answered.
    const ends = history.flatMap((m, i) => (m.role === 'assistant' && i > 60 ? [i] : []));
    const sentAt = (n: number, stubChunk: number) => fitContext(history.slice(0, n), { maxTokens, keepLastToolResults: 4, stubChunk, estimate });
    const appendOnly = (stubChunk: number) =>
      ends.slice(1).filter((n, i) => {
        const before = sentAt(ends[i]!, stubChunk);
        return JSON.stringify(sentAt(n, stubChunk).slice(0, before.length)) === JSON.stringify(before);
      }).length;
    expect(appendOnly(4)).toBeGreaterThan(appendOnly(1));
    for (const n of ends) {
      const sent = sentAt(n, 4);
      expect(estimate(sent)).toBeLessThanOrEqual(maxTokens);
      expectPairsIntact(sent);
    }
  });
});
