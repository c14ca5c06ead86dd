import { createHash } from 'node:crypto';
import type { ToolCall } from '../model/types.js';
import type { ToolResult } from './tools/types.js';

/**
 * Detects a run going in circles, from the (call, result) pairs alone. Pure: the same pairs in
 * the same order give the same state, so resume rebuilds it by replaying the journal.
 * Rules: the same call with the same result 3 times in a row; `run_tests` failing with the same
 * output 3 times in a row (edits in between did not change anything); two actions alternating
 * A,B,A,B,A,B. The first detection warns and starts counting afresh; the next one stops the run.
 */
export interface StuckState {
  /** Keys (call + result) of the last 6 actions, oldest first. */
  readonly recent: readonly string[];
  /** Normalised outputs of the consecutive failing `run_tests` since the last passing one. */
  readonly testFailures: readonly string[];
  readonly warned: boolean;
}

export type StuckVerdict = { kind: 'ok' } | { kind: 'warn' | 'stuck'; reason: string };

export const initialStuckState: StuckState = { recent: [], testFailures: [], warned: false };

export function observeAction(state: StuckState, call: ToolCall, result: ToolResult): { state: StuckState; verdict: StuckVerdict } {
  const recent = [...state.recent, actionKey(call, result)].slice(-6);
  const testFailures = call.name !== 'run_tests' ? state.testFailures : result.ok ? [] : [...state.testFailures, normaliseTestOutput(result.output)].slice(-3);
  const reason = detect(recent, testFailures, call.name);
  if (!reason) return { state: { recent, testFailures, warned: state.warned }, verdict: { kind: 'ok' } };
  if (state.warned) return { state: { recent, testFailures, warned: true }, verdict: { kind: 'stuck', reason } };
  return { state: { recent: [], testFailures: [], warned: true }, verdict: { kind: 'warn', reason } };
}

function detect(recent: readonly string[], testFailures: readonly string[], name: string): string | null {
  const last3 = recent.slice(-3);
  if (last3.length === 3 && last3.every((k) => k === last3[0])) return `the same ${name} call returned the same result 3 times in a row`;
  if (testFailures.length === 3 && testFailures.every((o) => o === testFailures[0])) return 'run_tests failed with the same output 3 times in a row';
  const [a, b] = recent;
  if (recent.length === 6 && a !== b && recent.every((k, i) => k === (i % 2 === 0 ? a : b))) return 'the same two actions alternated 3 times';
  return null;
}

/** Name + arguments with keys sorted (so `{a,b}` equals `{b,a}`) + the result. */
function actionKey(call: ToolCall, result: ToolResult): string {
  return digest([call.name, normaliseArgs(call.arguments), String(result.ok), result.output]);
}

export function normaliseArgs(raw: string): string {
  try {
    return JSON.stringify(sortKeys(JSON.parse(raw)));
  } catch {
    return raw.trim();
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).sort(([x], [y]) => (x < y ? -1 : 1)).map(([k, v]) => [k, sortKeys(v)]));
}

/** Test runners print durations; two runs of the same failure differ only there. */
function normaliseTestOutput(output: string): string {
  return digest([output.replace(/\d+(\.\d+)?\s*(ms|s|sec|seconds)\b/g, '<time>')]);
}

function digest(parts: string[]): string {
  return createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 32);
}

export function stuckWarning(reason: string): string {
  return `You seem stuck: ${reason}. Change approach (read the error, look elsewhere, try a different fix) or call finish with gave_up: true and say what blocked you.`;
}
