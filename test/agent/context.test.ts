import { fitContext, groupSteps, sizeTally, stubText } from '../../src/agent/context.js';
import { estimateTokens, toolChars } from '../../src/model/estimate-tokens.js';
import type { ChatMessage, ToolSpec } from '../../src/model/types.js';

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
    expect(fitContext(history, { maxTokens: full, keepLastToolResults: 3 })).toEqual(history);
  });

  it.each([0.8, 0.5, 0.25, 0.1, 0.05, 0.02])('at %p of the full size: fits, keeps pairs, system and task, and leaves the history alone', (share) => {
    const before = structuredClone(history);
    const maxTokens = Math.floor(full * share);
    const sent = fitContext(history, { maxTokens, keepLastToolResults: 4 });
    expect(estimate(sent)).toBeLessThanOrEqual(maxTokens);
    expectPairsIntact(sent);
    expect(sent.slice(0, 2)).toEqual(history.slice(0, 2));
    expect(history).toEqual(before);
    // the newest step is always there (at the very least as stubs)
    expect(sent.at(-1)).toMatchObject({ role: 'tool', toolCallId: (history.at(-1) as { toolCallId: string }).toolCallId });
  });

  it('stubs older results first, oldest first, keeping the last ones whole', () => {
    const sent = fitContext(history, { maxTokens: Math.floor(full * 0.6), keepLastToolResults: 4 });
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
    const sent = fitContext(history, { maxTokens: Math.floor(full * 0.05), keepLastToolResults: 4 });
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
    const sentAt = (n: number, stubChunk: number) => fitContext(history.slice(0, n), { maxTokens, keepLastToolResults: 4, stubChunk });
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

/**
 * The fitting as it was before the estimate was kept as sums: every question re-estimates the
 * whole list. Slow (quadratic in the history) but plainly right; the sums must decide the same.
 */
function wholeListFit(messages: readonly ChatMessage[], o: { maxTokens: number; keepLastToolResults: number; stubChunk?: number; tools: readonly ToolSpec[] }): ChatMessage[] {
  const fits = (list: readonly ChatMessage[]) => estimateTokens(list, o.tools) <= o.maxTokens;
  const chunk = Math.max(1, o.stubChunk ?? 1);
  const head = messages.slice(0, messages.findIndex((m) => m.role === 'user') + 1);
  const names = new Map(messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => [c.id, c.name] as const) : [])));
  const stubOf = (m: ChatMessage): ChatMessage => (m.role === 'tool' ? { ...m, content: stubText(names.get(m.toolCallId)) } : m);
  if (fits(messages)) return [...messages];
  const sent = messages.slice(head.length);
  const tools = sent.flatMap((m, i) => (m.role === 'tool' ? [i] : []));
  const older = tools.slice(0, Math.max(0, tools.length - o.keepLastToolResults));
  for (const [n, i] of older.entries()) {
    sent[i] = stubOf(sent[i]!);
    if (fits([...head, ...sent])) {
      for (const j of older.slice(n + 1, Math.min(older.length, Math.ceil((n + 1) / chunk) * chunk))) sent[j] = stubOf(sent[j]!);
      return [...head, ...sent];
    }
  }
  let groups = groupSteps(sent);
  let dropped = 0;
  const build = () => [...head, ...(dropped > 0 ? [{ role: 'user' as const, content: `[${dropped} earlier messages elided to save context]` }] : []), ...groups.flat()];
  const dropFirst = (n: number) => {
    for (const group of groups.slice(0, n)) dropped += group.length;
    groups = groups.slice(n);
  };
  let steps = 0;
  while (groups.length > 1 && !fits(build())) {
    dropFirst(1);
    steps += 1;
  }
  if (steps > 0) dropFirst(Math.min(groups.length - 1, Math.ceil(steps / chunk) * chunk - steps));
  if (fits(build())) return build();
  groups = groups.map((group) => group.map(stubOf));
  return build();
}

describe('fitContext keeps its estimate as sums', () => {
  const history = syntheticHistory(80);
  const tools: ToolSpec[] = [{ name: 'run', description: 'Runs a command. '.repeat(60), parameters: { type: 'object', properties: { command: { type: 'string' } } } }];
  const full = estimateTokens(history, tools);

  it.each([1, 4])('sends exactly what re-estimating every list sent, at every budget (stubChunk %p)', (stubChunk) => {
    for (const share of [1, 0.9, 0.7, 0.5, 0.33, 0.2, 0.12, 0.08, 0.05, 0.03, 0.01]) {
      for (const keepLastToolResults of [0, 2, 6]) {
        for (const n of [10, 57, 120, history.length]) {
          const list = history.slice(0, n);
          const maxTokens = Math.floor(full * share);
          const sent = fitContext(list, { maxTokens, keepLastToolResults, stubChunk, fixedChars: toolChars(tools) });
          expect(sent).toEqual(wholeListFit(list, { maxTokens, keepLastToolResults, stubChunk, tools }));
        }
      }
    }
  });

  it('its tally is estimateTokens of the same list, through adds, removals and replacements', () => {
    const tally = sizeTally(history.slice(0, 20), { maxTokens: 0, keepLastToolResults: 0, fixedChars: toolChars(tools) });
    const list = history.slice(0, 20);
    for (const m of history.slice(20, 40)) {
      tally.add(m);
      list.push(m);
    }
    for (const m of list.splice(3, 5)) tally.remove(m);
    const stub = { ...list[4]!, content: 'short' } as ChatMessage;
    tally.replace(list[4]!, stub);
    list[4] = stub;
    expect(tally.tokens()).toBe(estimateTokens(list, tools));
  });
});
