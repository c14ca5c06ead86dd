import { messageChars, tokensFor } from '../model/estimate-tokens.js';
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
  /** Characters every request adds besides its messages: the tool schemas (estimate-tokens.ts's `toolChars`); default 0. */
  fixedChars?: number;
}

/** Messages' estimate (estimateTokens) kept as sums as they are added, removed or replaced. */
export interface SizeTally {
  add(message: ChatMessage): void;
  remove(message: ChatMessage): void;
  replace(from: ChatMessage, to: ChatMessage): void;
  tokens(): number;
}

/**
 * Starts a tally at `messages`. The fitting loops below stub or drop one message at a time and ask
 * after each whether the list fits: with sums that costs the message, not the whole list again
 * (re-estimating every list made a step's fitting quadratic in the history, on the thread that
 * answers webhooks). Same figure as estimateTokens of the same list, to the token.
 */
export function sizeTally(messages: readonly ChatMessage[], options: FitOptions): SizeTally {
  let chars = options.fixedChars ?? 0;
  let count = messages.length;
  for (const m of messages) chars += messageChars(m);
  return {
    add: (m) => ((chars += messageChars(m)), (count += 1)),
    remove: (m) => ((chars -= messageChars(m)), (count -= 1)),
    replace: (from, to) => (chars += messageChars(to) - messageChars(from)),
    tokens: () => tokensFor(chars, count),
  };
}

/**
 * The messages to send, under the token budget. Pure: the stored history (and the journal) keep
 * everything. In order, until it fits: older tool results become one-line stubs (oldest first,
 * the newest `keepLastToolResults` stay whole); then whole oldest steps (an assistant message with
 * its tool results, never one without the other) go after the task; then the kept results are
 * stubbed too. The system prompt and the task are always sent.
 */
export function fitContext(messages: readonly ChatMessage[], options: FitOptions): ChatMessage[] {
  const stubbed = stubOlderResults(messages, options);
  if (stubbed.fits) return stubbed.messages;
  const head = messages.slice(0, headLength(messages));
  const sent = stubbed.messages.slice(head.length);
  const names = toolNames(sent);
  let groups = groupSteps(sent);
  const note = (n: number): ChatMessage[] => (n > 0 ? [{ role: 'user', content: `[${n} earlier messages elided to save context]` }] : []);
  let dropped = 0;
  const build = () => [...head, ...note(dropped), ...groups.flat()];
  // What build() would hold, less the note: the note is counted only while asking.
  const size = sizeTally(stubbed.messages, options);
  const fits = () => {
    const elided = note(dropped);
    for (const m of elided) size.add(m);
    const ok = size.tokens() <= options.maxTokens;
    for (const m of elided) size.remove(m);
    return ok;
  };
  const dropFirst = (n: number) => {
    for (const group of groups.slice(0, n)) {
      dropped += group.length;
      for (const m of group) size.remove(m);
    }
    groups = groups.slice(n);
  };
  let steps = 0;
  while (groups.length > 1 && !fits()) {
    dropFirst(1);
    steps += 1;
  }
  // Whole chunks of steps, as with the stubs: the sent history then only grows until the next round.
  const chunk = Math.max(1, options.stubChunk ?? 1);
  if (steps > 0) dropFirst(Math.min(groups.length - 1, Math.ceil(steps / chunk) * chunk - steps));
  if (fits()) return build();
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
  const size = sizeTally(messages, options);
  const fits = () => size.tokens() <= options.maxTokens;
  if (fits()) return { fits: true, messages: [...messages] };
  const head = messages.slice(0, headLength(messages));
  const sent = messages.slice(head.length);
  const names = toolNames(sent);
  const toolIndexes = sent.flatMap((m, i) => (m.role === 'tool' ? [i] : []));
  const olderResults = toolIndexes.slice(0, Math.max(0, toolIndexes.length - options.keepLastToolResults));
  const stub = (i: number) => {
    const m = sent[i];
    if (m?.role !== 'tool') return;
    const stubbed = { ...m, content: stubText(names.get(m.toolCallId)) };
    size.replace(m, stubbed);
    sent[i] = stubbed;
  };
  const chunk = Math.max(1, options.stubChunk ?? 1);
  for (const [n, i] of olderResults.entries()) {
    stub(i);
    if (fits()) {
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
