import * as z from 'zod';
import { testEvidenceSchema } from '../verify/test-evidence.js';

/**
 * The records of a run's journal, validated on read: a journal is read back after crashes and by
 * other versions of greenfix, so its shape is checked rather than trusted.
 */

/** `extra` and `reasoning`: what a provider profile sends back with the turn (model/provider-profile.ts). */
const toolCall = z.object({ id: z.string(), name: z.string(), arguments: z.string(), extra: z.record(z.string(), z.unknown()).optional() });

export const chatMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({ role: z.literal('assistant'), content: z.string().nullable(), toolCalls: z.array(toolCall).optional(), reasoning: z.string().optional() }),
  z.object({ role: z.literal('tool'), toolCallId: z.string(), content: z.string() }),
]);

export const verifiedTreeSchema = z.object({
  tree: z.string(),
  command: z.string(),
  exitCode: z.number().int(),
  durationMs: z.number(),
  outputTail: z.string(),
  tests: testEvidenceSchema.optional(),
  /** The clean room the verdict ran in: its setup cost (absent in journals of older versions). */
  cleanRoom: z.object({ materialiseMs: z.number(), restoreMs: z.number(), files: z.number(), staged: z.number().optional(), treeStaged: z.boolean().optional() }).optional(),
});

export const toolResultSchema = z.object({
  output: z.string(),
  ok: z.boolean(),
  verified: verifiedTreeSchema.optional(),
  finish: z.object({ summary: z.string(), gaveUp: z.boolean() }).optional(),
});

const usage = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  cachedPromptTokens: z.number().optional(),
  reasoningTokens: z.number().optional(),
  estimated: z.boolean().optional(),
});
const tokens = z.object({ prompt: z.number(), completion: z.number(), cachedPrompt: z.number().optional(), estimated: z.boolean().optional() });

export const outcomeSchema = z.object({
  status: z.enum(['verified', 'gave_up', 'stuck', 'budget_exhausted', 'model_error']),
  reason: z.string(),
  summary: z.string().optional(),
  verified: verifiedTreeSchema.nullable(),
  steps: z.number(),
  tokens,
  budget: z.enum(['steps', 'tokens', 'wall_time', 'cost']).optional(),
  error: z.object({ kind: z.string(), message: z.string() }).optional(),
});

/** How a call left unanswered by a crash was answered on resume. */
export const repairSchema = z.enum(['not_started', 'outcome_unknown', 're_executed']);
export type RepairKind = z.infer<typeof repairSchema>;

const at = z.number();
export const journalRecordSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('start'),
    at,
    task: z.string(),
    taskMessage: z.string(),
    systemPrompt: z.string(),
    model: z.string(),
    config: z.record(z.string(), z.unknown()),
  }),
  z.object({ type: z.literal('assistant'), at, step: z.number(), message: chatMessageSchema, usage }),
  z.object({ type: z.literal('tool_start'), at, step: z.number(), callId: z.string(), name: z.string(), args: z.string() }),
  z.object({
    type: z.literal('tool_end'),
    at,
    callId: z.string(),
    name: z.string(),
    result: toolResultSchema,
    repair: repairSchema.optional(),
  }),
  z.object({ type: z.literal('verified'), at, tree: verifiedTreeSchema }),
  /** A user message the loop added: a nudge after a reply without tool calls. */
  z.object({ type: z.literal('observation'), at, step: z.number(), text: z.string() }),
  z.object({ type: z.literal('warning'), at, step: z.number(), text: z.string() }),
  /** Not terminal: a resumed run queries the model again (the job layer decides whether to retry). */
  z.object({ type: z.literal('model_error'), at, step: z.number(), kind: z.string(), message: z.string() }),
  /** The user's next request in an interactive session (cli/chat-session.ts): the run goes on. */
  z.object({ type: z.literal('turn'), at, text: z.string() }),
  /**
   * The history was compacted: the model's handoff summary replaces every message between the task
   * and the last `kept` ones (agent/compact.ts); `usage` is the summary call's.
   */
  z.object({ type: z.literal('compaction'), at, step: z.number(), summary: z.string(), kept: z.number().int().nonnegative(), usage }),
  z.object({ type: z.literal('finish'), at, outcome: outcomeSchema }),
]);

export type JournalRecord = z.infer<typeof journalRecordSchema>;
export type JournalRecordType = JournalRecord['type'];
/** A record as the loop writes it; the journal stamps `at`. */
export type JournalEntry = JournalRecord extends infer R ? (R extends JournalRecord ? Omit<R, 'at'> : never) : never;
