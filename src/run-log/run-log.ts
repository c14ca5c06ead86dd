import type * as z from 'zod';
import type { JournalRecord, RepairKind, verifiedTreeSchema } from '../agent/journal-schema.js';
import { evidenceLines } from '../agent/tools/test-verdict-text.js';
import { redactText } from '../util/redact-text.js';
import { callArguments, exitOf, shortArguments } from './call-summary.js';

/** A test run the agent asked for: what the verify command said, and the tree when it verified one. */
export interface TestRun {
  step: number;
  callId: string;
  /** The exit code; null when the run was killed or its result is unknown. */
  exitCode: number | null;
  durationMs: number | null;
  /** The tree hash recorded as verified (exit 0, sources untouched), else null. */
  tree: string | null;
  output: string;
}

export interface RunCall {
  id: string;
  tool: string;
  /** The arguments as parsed JSON (strings redacted), or the raw string when they do not parse. */
  args: Record<string, unknown> | string;
  short: string;
  /** null: the call has no result yet (running, or a crash lost it). */
  ok: boolean | null;
  output: string | null;
  durationMs: number | null;
  /** How resume answered a call a crash left without a result. */
  repair?: RepairKind;
  edit?: { path: string; old: string; new: string };
  test?: TestRun;
}

export interface RunStep {
  step: number;
  startedAt: number;
  durationMs: number;
  tokens: number;
  /** What the model said alongside its calls. */
  thought: string | null;
  calls: RunCall[];
  /** Warnings, nudges and model errors of this step, in order. */
  notes: Array<{ kind: 'warning' | 'observation' | 'model_error'; text: string }>;
}

export interface RunEnd {
  status: string;
  reason: string;
  summary: string | null;
  steps: number;
  tokens: number;
}

/** One run, from its journal: the one model every rendering (Markdown, JSON, terminal, HTML) reads. */
export interface RunLog {
  task: string;
  model: string;
  startedAt: number | null;
  lastAt: number | null;
  steps: RunStep[];
  tests: TestRun[];
  /** The last verified tree: the evidence. */
  verified: RunVerified | null;
  /** Calls a resume answered (a crash interrupted the run), counted. */
  repaired: number;
  /** null while the run goes on (or when a crash ended the process before its finish record). */
  end: RunEnd | null;
  /** Prompt tokens over every reply, the part the provider served from its cache, and whether some counts were estimated. */
  usage: { prompt: number; cachedPrompt: number; estimated: boolean };
}

export interface RunVerified {
  tree: string;
  command: string;
  /** 0, or under `no_new_failures` the red run's code (`tests` then names what still fails). */
  exitCode: number;
  durationMs: number;
  outputTail: string;
  /** The per-test evidence against the baseline as text lines (test-verdict-text.ts `evidenceLines`); empty without. */
  tests: string[];
}

export interface BuildOptions {
  /** Known secrets to redact besides the shapes of tokens (the API key, the webhook secret, …). */
  secrets?: readonly string[];
}

/** Folds journal records into the run log; every text goes through redaction here, once. */
export function buildRunLog(records: readonly JournalRecord[], options: BuildOptions = {}): RunLog {
  const r = (text: string): string => redactText(text, options.secrets);
  const log: RunLog = { task: '', model: '', startedAt: null, lastAt: null, steps: [], tests: [], verified: null, repaired: 0, end: null, usage: { prompt: 0, cachedPrompt: 0, estimated: false } };
  const calls = new Map<string, { call: RunCall; step: RunStep; startedAt: number | null }>();
  let previousAt: number | null = null;
  let current: RunStep | null = null;
  for (const rec of records) {
    log.lastAt = rec.at;
    switch (rec.type) {
      case 'start':
        log.task = r(rec.task);
        log.model = rec.model;
        log.startedAt ??= rec.at;
        break;
      case 'assistant': {
        const message = rec.message.role === 'assistant' ? rec.message : null;
        // A resumed run may journal a step again after a crash lost its results: one entry per step.
        const existing = log.steps.find((s) => s.step === rec.step);
        const step: RunStep = existing ?? { step: rec.step, startedAt: previousAt ?? rec.at, durationMs: 0, tokens: 0, thought: null, calls: [], notes: [] };
        if (!existing) log.steps.push(step);
        step.tokens += rec.usage.promptTokens + rec.usage.completionTokens;
        log.usage.prompt += rec.usage.promptTokens;
        log.usage.cachedPrompt += rec.usage.cachedPromptTokens ?? 0;
        log.usage.estimated ||= rec.usage.estimated === true;
        if (message?.content) step.thought = r(message.content);
        for (const tc of message?.toolCalls ?? []) {
          const args = callArguments(tc.arguments, r);
          const call: RunCall = { id: tc.id, tool: tc.name, args, short: shortArguments(tc.name, args), ok: null, output: null, durationMs: null };
          if (tc.name === 'edit_file' && typeof args === 'object') {
            const { path, old, new: replacement } = args;
            if (typeof path === 'string' && typeof old === 'string' && typeof replacement === 'string') call.edit = { path, old, new: replacement };
          }
          step.calls.push(call);
          calls.set(tc.id, { call, step, startedAt: null });
        }
        current = step;
        break;
      }
      case 'tool_start': {
        const entry = calls.get(rec.callId);
        if (entry) entry.startedAt = rec.at;
        break;
      }
      case 'tool_end': {
        const entry = calls.get(rec.callId);
        if (!entry) break;
        const { call, step } = entry;
        call.ok = rec.result.ok;
        call.output = r(rec.result.output);
        call.durationMs = entry.startedAt === null ? null : rec.at - entry.startedAt;
        if (rec.repair) {
          call.repair = rec.repair;
          log.repaired += 1;
        }
        if (call.tool === 'run_tests') {
          const v = rec.result.verified;
          const test: TestRun = {
            step: step.step,
            callId: call.id,
            exitCode: v ? 0 : exitOf(call.output),
            durationMs: v ? v.durationMs : call.durationMs,
            tree: v ? v.tree : null,
            output: v ? r(v.outputTail) : call.output,
          };
          call.test = test;
          log.tests = log.tests.filter((t) => t.callId !== call.id).concat(test);
        }
        if (rec.result.verified) log.verified = verifiedOf(rec.result.verified, r);
        break;
      }
      case 'verified':
        log.verified = verifiedOf(rec.tree, r);
        break;
      case 'observation':
      case 'warning':
        noteOn(log, current, rec.step)?.notes.push({ kind: rec.type, text: r(rec.text) });
        break;
      case 'model_error':
        noteOn(log, current, rec.step)?.notes.push({ kind: 'model_error', text: r(`${rec.kind}: ${rec.message}`) });
        break;
      case 'compaction':
        noteOn(log, current, rec.step)?.notes.push({ kind: 'observation', text: r(`context full: earlier turns became a handoff summary: ${rec.summary}`) });
        break;
      case 'turn':
        // An interactive session's next request (greenfix chat): the run goes on.
        log.end = null;
        noteOn(log, current, current?.step ?? 0)?.notes.push({ kind: 'observation', text: r(`next request: ${rec.text}`) });
        break;
      case 'finish': {
        const o = rec.outcome;
        log.end = { status: o.status, reason: r(o.reason), summary: o.summary === undefined ? null : r(o.summary), steps: o.steps, tokens: o.tokens.prompt + o.tokens.completion };
        if (o.verified) log.verified = verifiedOf(o.verified, r);
        break;
      }
    }
    if (current && rec.type !== 'start') current.durationMs = Math.max(current.durationMs, rec.at - current.startedAt);
    previousAt = rec.at;
  }
  return log;
}

function verifiedOf(v: z.infer<typeof verifiedTreeSchema>, r: (t: string) => string): RunVerified {
  const tests = v.tests ? evidenceLines(v.tests).map(r) : [];
  return { tree: v.tree, command: r(v.command), exitCode: v.exitCode, durationMs: v.durationMs, outputTail: r(v.outputTail), tests };
}

/** A note belongs to its step; one before any step (a model error on the first query) opens step 0's entry. */
function noteOn(log: RunLog, current: RunStep | null, step: number): RunStep | null {
  const found = log.steps.find((s) => s.step === step) ?? current;
  if (found) return found;
  const opened: RunStep = { step, startedAt: log.lastAt ?? 0, durationMs: 0, tokens: 0, thought: null, calls: [], notes: [] };
  log.steps.push(opened);
  return opened;
}
