import { LUA_PRELUDE } from './redis-lua-prelude.js';

/**
 * What the lease holder does with a running job; each checks id + token + running first and
 * returns 0 when the lease is no longer held. Mirrors sqlite-lease.ts. ARGV: prefix, now, id, token, ...
 */
const HELD = `${LUA_PRELUDE}
local id, token = ARGV[3], ARGV[4]
local isHeld = held(id, token)
`;

/**
 * Renews even a lapsed lease if nobody claimed the job since (the token still matches).
 * ARGV[5] = leaseMs. Returns { held (0|1), cancel_reason or nil }.
 */
export const HEARTBEAT_LUA = `${HELD}
local reason = get(id, 'cancel_reason')
if not isHeld then return { 0, reason } end
local untilMs = NOW + tonumber(ARGV[5])
redis.call('HSET', jk(id), 'lease_until', untilMs, 'updated_at', NOW)
redis.call('ZADD', P .. ':running', untilMs, id)
return { 1, reason }
`;

/** ARGV[5] = result JSON ('' = null). */
export const COMPLETE_LUA = `${HELD}
if not isHeld then return 0 end
if ARGV[5] == '' then redis.call('HDEL', jk(id), 'result') else redis.call('HSET', jk(id), 'result', ARGV[5]) end
move(id, 'running', 'succeeded')
return 1
`;

/**
 * ARGV[5] = message, ARGV[6] = retryable (0|1), ARGV[7] = attempts the caller read (the backoff
 * was computed from it), ARGV[8] = backoff delay ms. A job flagged for cancellation is not retried.
 * Returns 'queued', 'failed', or 0 when the lease is lost.
 */
export const FAIL_LUA = `${HELD}
if not isHeld or (ARGV[7] ~= '' and get(id, 'attempts') ~= ARGV[7]) then return 0 end
local retry = ARGV[6] == '1' and num(id, 'attempts') < num(id, 'max_attempts') and not get(id, 'cancel_reason')
redis.call('HSET', jk(id), 'error', ARGV[5])
if retry then
  redis.call('HSET', jk(id), 'run_after', NOW + tonumber(ARGV[8]))
  move(id, 'running', 'queued')
  return 'queued'
end
move(id, 'running', 'failed')
return 'failed'
`;

/** Gives the job back without counting the attempt; a flagged job ends cancelled instead. */
export const RELEASE_LUA = `${HELD}
if not isHeld then return 0 end
redis.call('HSET', jk(id), 'attempts', math.max(num(id, 'attempts') - 1, 0))
move(id, 'running', get(id, 'cancel_reason') and 'cancelled' or 'queued')
return 1
`;

export const MARK_CANCELLED_LUA = `${HELD}
if not isHeld then return 0 end
redis.call('HSETNX', jk(id), 'cancel_reason', 'cancelled by the worker')
move(id, 'running', 'cancelled')
return 1
`;

/** abandon(workerId): its leases lapse now. ARGV[3] = workerId. Returns how many. */
export const ABANDON_LUA = `${LUA_PRELUDE}
local n = 0
for _, id in ipairs(redis.call('ZRANGE', P .. ':running', 0, -1)) do
  if get(id, 'lease_owner') == ARGV[3] then
    redis.call('HSET', jk(id), 'lease_until', NOW - 1)
    redis.call('ZADD', P .. ':running', NOW - 1, id)
    n = n + 1
  end
end
return n
`;
