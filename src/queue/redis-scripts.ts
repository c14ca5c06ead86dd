import type { Redis } from 'ioredis';
import { CANCEL_LUA, ENQUEUE_LUA } from './redis-lua-enqueue.js';
import { CLAIM_LUA } from './redis-lua-claim.js';
import { ABANDON_LUA, COMPLETE_LUA, FAIL_LUA, HEARTBEAT_LUA, MARK_CANCELLED_LUA, RELEASE_LUA } from './redis-lua-lease.js';

const SCRIPTS = {
  gfEnqueue: ENQUEUE_LUA,
  gfCancel: CANCEL_LUA,
  gfClaim: CLAIM_LUA,
  gfHeartbeat: HEARTBEAT_LUA,
  gfComplete: COMPLETE_LUA,
  gfFail: FAIL_LUA,
  gfRelease: RELEASE_LUA,
  gfMarkCancelled: MARK_CANCELLED_LUA,
  gfAbandon: ABANDON_LUA,
} as const;

export type ScriptName = keyof typeof SCRIPTS;

/** Runs one queue script with the prefix and the caller's clock in front of its own arguments. */
export type RunScript = (name: ScriptName, ...args: (string | number)[]) => Promise<unknown>;

/**
 * Registers the scripts on a connection (ioredis sends EVALSHA and falls back to EVAL on NOSCRIPT,
 * so a restarted Redis without its script cache still works) and returns a runner bound to the
 * prefix and clock.
 */
export function defineScripts(redis: Redis, prefix: string, now: () => number): RunScript {
  for (const [name, lua] of Object.entries(SCRIPTS)) redis.defineCommand(name, { numberOfKeys: 1, lua });
  const commands = redis as unknown as Record<ScriptName, (...args: (string | number)[]) => Promise<unknown>>;
  return (name, ...args) => commands[name](`${prefix}:seq`, prefix, now(), ...args);
}
