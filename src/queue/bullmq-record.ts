import type { Redis } from 'ioredis';
import { HEARTBEAT_LUA, COMPLETE_LUA, DEFER_LUA, FAIL_LUA, MARK_CANCELLED_LUA, RELEASE_LUA, RESERVE_LUA, SPENT_LUA } from './bullmq-lease-lua.js';
import { ABANDON_LUA, ADMIT_LUA, AUTHORIZE_LUA, AWAITING_LUA, CANCEL_LUA, DUE_LUA, ENQUEUE_LUA, PRUNE_LUA, STRANDED_LUA, SWEEP_LUA } from './bullmq-record-lua.js';

const SCRIPTS = {
  gfEnqueue: ENQUEUE_LUA,
  gfCancel: CANCEL_LUA,
  gfAuthorize: AUTHORIZE_LUA,
  gfAwaiting: AWAITING_LUA,
  gfAdmit: ADMIT_LUA,
  gfSweep: SWEEP_LUA,
  gfAbandon: ABANDON_LUA,
  gfDue: DUE_LUA,
  gfStranded: STRANDED_LUA,
  gfPrune: PRUNE_LUA,
  gfHeartbeat: HEARTBEAT_LUA,
  gfComplete: COMPLETE_LUA,
  gfFail: FAIL_LUA,
  gfRelease: RELEASE_LUA,
  gfDefer: DEFER_LUA,
  gfMarkCancelled: MARK_CANCELLED_LUA,
  gfSpent: SPENT_LUA,
  gfReserve: RESERVE_LUA,
} as const;

export type RecordScript = keyof typeof SCRIPTS;

/** Runs one record script with the prefix, the caller's clock and BullMQ's key base in front. */
export type RunRecord = (name: RecordScript, ...args: (string | number)[]) => Promise<unknown>;

/**
 * Registers the record scripts on a connection (ioredis sends EVALSHA and falls back to EVAL on
 * NOSCRIPT, so a restarted Redis without its script cache still works) and returns a runner.
 */
export function defineRecordScripts(redis: Redis, prefix: string, bullKeyBase: string, now: () => number): RunRecord {
  for (const [name, lua] of Object.entries(SCRIPTS)) redis.defineCommand(name, { numberOfKeys: 1, lua });
  const commands = redis as unknown as Record<RecordScript, (...args: (string | number)[]) => Promise<unknown>>;
  return (name, ...args) => commands[name](`${prefix}:seq`, prefix, now(), bullKeyBase, ...args);
}
