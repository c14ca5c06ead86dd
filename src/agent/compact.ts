import { ModelError } from '../model/errors.js';
import type { ChatMessage, ToolSpec } from '../model/types.js';
import { clipHeadTail } from '../util/clip.js';
import { groupSteps, headLength, sizeTally, type FitOptions } from './context.js';
import { capSummary, HANDOFF_WORDS } from './handoff-message.js';
import { record, type AgentState } from './state.js';
import type { AgentDeps } from './types.js';

export const HANDOFF_PROMPT = `You are handing an unfinished coding task over to a colleague who will see only the task, your note and the most recent turns. Write a handoff summary of at most ${HANDOFF_WORDS} words, plain text, with four short parts:
1. What the user wants.
2. Files changed so far (paths and what changed).
3. What is verified (which test runs passed or failed, on which change), or "nothing yet".
4. What is left to do, and what was tried and did not work.
Only facts from the transcript. No tool calls.`;

/** Characters of transcript per token of budget left for it (estimates count ~4 characters a token). */
const CHARS_PER_TOKEN = 3;
/** Room for the summary prompt, the reply and the summary message once it replaces the turns. */
const SUMMARY_RESERVE_TOKENS = 1_000;
const CALL_ARGS_CHARS = 300;
const RESULT_CHARS = 800;

export interface CompactionPlan {
  /** The messages the summary replaces (between the task and the kept ones). */
  older: ChatMessage[];
  /** How many of the newest messages stay as they are (whole steps: calls with their results). */
  kept: number;
}

/**
 * The newest whole steps that take at most half the budget stay (at least the last step); the
 * steps before them are summarised. Null when there is nothing older to summarise.
 */
export function planCompaction(messages: readonly ChatMessage[], options: FitOptions): CompactionPlan | null {
  const head = messages.slice(0, headLength(messages));
  const groups = groupSteps(messages.slice(head.length));
  const room = options.maxTokens / 2;
  let keptGroups = 1;
  const size = sizeTally([...head, ...(groups.at(-1) ?? [])], options);
  for (; keptGroups < groups.length; keptGroups++) {
    for (const m of groups[groups.length - keptGroups - 1]!) size.add(m);
    if (size.tokens() > room) break;
  }
  if (keptGroups >= groups.length) return null;
  const older = groups.slice(0, groups.length - keptGroups).flat();
  // Only an earlier summary (and notes) before the kept steps: summarising it again gains nothing.
  if (older.every((m) => m.role === 'user')) return null;
  return { older, kept: groups.slice(-keptGroups).flat().length };
}

/** The older turns as text for the summary call, cut to fit the context budget. */
export function transcriptOf(messages: readonly ChatMessage[], maxTokens: number): string {
  const names = new Map<string, string>();
  const lines = messages.map((m) => {
    switch (m.role) {
      case 'assistant': {
        for (const c of m.toolCalls ?? []) names.set(c.id, c.name);
        const calls = (m.toolCalls ?? []).map((c) => `${c.name} ${clipHeadTail(c.arguments, CALL_ARGS_CHARS)}`);
        return [m.content ? `assistant: ${m.content}` : null, ...calls.map((c) => `assistant called ${c}`)].filter(Boolean).join('\n');
      }
      case 'tool':
        return `result of ${names.get(m.toolCallId) ?? 'a tool'}: ${clipHeadTail(m.content, RESULT_CHARS)}`;
      default:
        return `${m.role}: ${clipHeadTail(m.content, RESULT_CHARS)}`;
    }
  });
  const chars = Math.max(1_000, (maxTokens - SUMMARY_RESERVE_TOKENS) * CHARS_PER_TOKEN);
  return clipHeadTail(lines.join('\n'), chars);
}

/**
 * Asks the model for a handoff summary of the older turns and journals it as a compaction record,
 * which `applyRecord` folds (live and on resume): system prompt + task + summary + recent turns.
 * Returns false, changing nothing, when there is nothing to compact or the summary call failed:
 * the caller falls back to stubs.
 */
export async function compactHistory(deps: AgentDeps, state: AgentState, options: FitOptions): Promise<boolean> {
  const plan = planCompaction(state.messages, options);
  if (!plan) return false;
  const task = state.messages[headLength(state.messages) - 1]?.content ?? '';
  const request = {
    messages: [
      { role: 'system', content: HANDOFF_PROMPT },
      { role: 'user', content: `${task}\n\nTranscript of the turns so far:\n${transcriptOf(plan.older, options.maxTokens)}` },
    ] satisfies ChatMessage[],
    tools: [] as ToolSpec[],
    turn: state.steps,
    purpose: 'handoff' as const,
    ...(deps.toolContext.signal ? { signal: deps.toolContext.signal } : {}),
  };
  let summary: string;
  let usage;
  try {
    const reply = await deps.model.complete(request);
    summary = capSummary(reply.message.content ?? '');
    usage = reply.usage;
  } catch (err) {
    if (err instanceof ModelError) return fallBack(deps, state, `the handoff summary call failed (${err.kind}); older results stay stubs`);
    throw err;
  }
  if (summary === '') return fallBack(deps, state, 'the handoff summary came back empty; older results stay stubs');
  await record(deps.journal, state, { type: 'compaction', step: state.steps, summary, kept: plan.kept, usage });
  deps.onEvent?.({ type: 'compaction', step: state.steps, replaced: plan.older.length, words: summary.split(/\s+/).length });
  return true;
}

function fallBack(deps: AgentDeps, state: AgentState, why: string): false {
  deps.onEvent?.({ type: 'warning', step: state.steps, text: why });
  return false;
}

