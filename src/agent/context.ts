import type { ChatMessage } from '../model/types.js';

export interface ContextLimits {
  /** Estimated tokens the sent messages may take (leave room for tool schemas and the reply). */
  maxTokens: number;
  /** How many of the newest tool results are always sent whole. */
  keepLastToolResults: number;
  /**
   * When stubs alone cannot bring the history under `maxTokens`, have the model write a handoff
   * summary of the older turns (agent/compact.ts) instead of dropping them. Off: stubs and drops only.
   */
  handoffSummary?: boolean;
  /**
   * Older results are stubbed, and oldest steps dropped, this many at a time (default 1: just
   * enough). Between two rounds
   * the history sent only grows at its end, so a provider's prompt cache serves everything before
   * (`npm run bench`: the stable-prefix share).
   */
  stubChunk?: number;
}

export interface FitOptions extends ContextLimits {
  estimate: (messages: readonly ChatMessage[]) => number;
}

/**
 * The messages to send, under the token budget. Pure: the stored history (and the journal) keep
 * everything. In order, until it fits: older tool results become one-line stubs (oldest first,
 * the newest `keepLastToolResults` stay whole); then whole oldest steps (an assistant message with
 * its tool results, never one without the other) go after the task; then the kept results are
 * stubbed too. The system prompt and the task are always sent.
 */
export function fitContext(messages: readonly ChatMessage[], options: FitOptions): ChatMessage[] {
  const fits = (list: readonly ChatMessage[]) => options.estimate(list) <= options.maxTokens;
  const stubbed = stubOlderResults(messages, options);
  if (stubbed.fits) return stubbed.messages;
  const head = messages.slice(0, headLength(messages));
  const sent = stubbed.messages.slice(head.length);
  const names = toolNames(sent);
  let groups = groupSteps(sent);
  const note = (n: number): ChatMessage[] => (n > 0 ? [{ role: 'user', content: `[${n} earlier messages elided to save context]` }] : []);
  let dropped = 0;
  const build = () => [...head, ...note(dropped), ...groups.flat()];
  const dropFirst = (n: number) => {
    for (const group of groups.slice(0, n)) dropped += group.length;
    groups = groups.slice(n);
  };
  let steps = 0;
  while (groups.length > 1 && !fits(build())) {
    dropFirst(1);
    steps += 1;
  }
  // Whole chunks of steps, as with the stubs: the sent history then only grows until the next round.
  const chunk = Math.max(1, options.stubChunk ?? 1);
  if (steps > 0) dropFirst(Math.min(groups.length - 1, Math.ceil(steps / chunk) * chunk - steps));
  if (fits(build())) return build();
  groups = groups.map((group) => group.map((m) => (m.role === 'tool' ? { ...m, content: stubText(names.get(m.toolCallId)) } : m)));
  return build();
}

/** The system prompt and the task: the messages up to the first user message, always sent. */
export function headLength(messages: readonly ChatMessage[]): number {
  return messages.findIndex((m) => m.role === 'user') + 1;
}

/**
 * The first stage of fitContext: older tool results become stubs, oldest first, until the list
 * fits. `fits` false means stubs alone are not enough (then a handoff summary may help).
 */
export function stubOlderResults(messages: readonly ChatMessage[], options: FitOptions): { fits: boolean; messages: ChatMessage[] } {
  const fits = (list: readonly ChatMessage[]) => options.estimate(list) <= options.maxTokens;
  if (fits(messages)) return { fits: true, messages: [...messages] };
  const head = messages.slice(0, headLength(messages));
  const sent = messages.slice(head.length);
  const names = toolNames(sent);
  const toolIndexes = sent.flatMap((m, i) => (m.role === 'tool' ? [i] : []));
  const olderResults = toolIndexes.slice(0, Math.max(0, toolIndexes.length - options.keepLastToolResults));
  const stub = (i: number) => {
    const m = sent[i];
    if (m?.role === 'tool') sent[i] = { ...m, content: stubText(names.get(m.toolCallId)) };
  };
  const chunk = Math.max(1, options.stubChunk ?? 1);
  for (const [n, i] of olderResults.entries()) {
    stub(i);
    if (fits([...head, ...sent])) {
      // Round up to whole chunks: the next steps then stub nothing new until a chunk is used up.
      const upTo = Math.min(olderResults.length, Math.ceil((n + 1) / chunk) * chunk);
      for (const j of olderResults.slice(n + 1, upTo)) stub(j);
      return { fits: true, messages: [...head, ...sent] };
    }
  }
  return { fits: false, messages: [...head, ...sent] };
}

export function stubText(toolName: string | undefined): string {
  return `[output of ${toolName ?? 'a tool'} elided to save context; re-run the tool if you need it]`;
}

function toolNames(messages: readonly ChatMessage[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const m of messages) if (m.role === 'assistant') for (const call of m.toolCalls ?? []) names.set(call.id, call.name);
  return names;
}

/** Consecutive runs that must travel together: an assistant message and the tool results after it. */
export function groupSteps(messages: readonly ChatMessage[]): ChatMessage[][] {
  const groups: ChatMessage[][] = [];
  for (const m of messages) {
    const last = groups.at(-1);
    if (m.role === 'tool' && last) last.push(m);
    else groups.push([m]);
  }
  return groups;
}
