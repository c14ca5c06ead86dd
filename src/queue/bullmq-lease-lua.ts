import { RECORD_PRELUDE } from './bullmq-record-prelude.js';

/**
 * What the lease holder does with a running job, on the record; the caller then makes the same
 * move in BullMQ with the token. Each checks id + token + running + lock first and returns 0 when
 * the lease is no longer held. ARGV[4] = id, ARGV[5] = token.
 */
const HELD = `${RECORD_PRELUDE}
local id, token = ARGV[4], ARGV[5]
local isHeld = held(id, token)
-- The job's installation (records from before caps carry it only in the request).
local function installationOf(job)
  local key = get(job, 'installation_key')
  if key then return key end
  local ok, request = pcall(cjson.decode, get(job, 'request') or '')
  if ok and type(request) == 'table' and type(request.installationId) == 'number' then return string.format('%d', request.installationId) end
  return ''
end
-- The job's spend so far (USD as a string, '' = none), all attempts: its total never goes down, so
-- the same total recorded again (a retried call) changes nothing.
local function recordSpend(usd)
  if usd == nil or usd == '' or tonumber(usd) <= 0 then return end
  local old = redis.call('HGET', P .. ':spend:usd', id)
  if old and tonumber(old) >= tonumber(usd) then return end
  redis.call('HSET', P .. ':spend:usd', id, usd)
  redis.call('ZADD', P .. ':spend:' .. get(id, 'repo_key'), NOW, id)
  redis.call('ZADD', P .. ':spend-installation:' .. installationOf(id), NOW, id)
  redis.call('SADD', P .. ':spend:repos', get(id, 'repo_key'))
end
`;

/** Returns { held (0|1), cancel_reason or nil }; the caller extends BullMQ's lock when held. */
export const HEARTBEAT_LUA = `${HELD}
return { isHeld and 1 or 0, get(id, 'cancel_reason') }
`;

/** ARGV[6] = result JSON ('' = null), ARGV[7] = spend USD ('' = none). Returns 1, or 0 when the lease is lost. */
export const COMPLETE_LUA = `${HELD}
if not isHeld then return 0 end
recordSpend(ARGV[7])
if ARGV[6] == '' then redis.call('HDEL', jk(id), 'result') else redis.call('HSET', jk(id), 'result', ARGV[6]) end
move(id, 'running', 'succeeded')
return 1
`;

/**
 * ARGV[6] = message, ARGV[7] = retryable (0|1), ARGV[8] = attempts the caller read (the backoff
 * was computed from it), ARGV[9] = backoff delay ms, ARGV[10] = spend USD ('' = none). A job flagged
 * for cancellation is not retried.
 * Returns { 'queued', run after } or { 'failed', 0 }, or 0 when the lease is lost.
 */
export const FAIL_LUA = `${HELD}
if not isHeld or (ARGV[8] ~= '' and get(id, 'attempts') ~= ARGV[8]) then return 0 end
local retry = ARGV[7] == '1' and num(id, 'attempts') < num(id, 'max_attempts') and not get(id, 'cancel_reason')
recordSpend(ARGV[10])
redis.call('HSET', jk(id), 'error', ARGV[6])
if retry then
  local runAfter = NOW + tonumber(ARGV[9])
  redis.call('HSET', jk(id), 'run_after', runAfter)
  redis.call('ZADD', P .. ':due', runAfter, id)
  move(id, 'running', 'queued')
  return { 'queued', runAfter }
end
move(id, 'running', 'failed')
return { 'failed', 0 }
`;

/** Gives the job back without counting the attempt; a flagged job ends cancelled instead. */
export const RELEASE_LUA = `${HELD}
if not isHeld then return 0 end
redis.call('HSET', jk(id), 'attempts', math.max(num(id, 'attempts') - 1, 0))
move(id, 'running', get(id, 'cancel_reason') and 'cancelled' or 'queued')
return 1
`;

/**
 * Defers the job to ARGV[6] (epoch ms) with reason ARGV[7], ARGV[8] = spend USD ('' = none): like
 * a release, the attempt does not count, and a flagged job ends cancelled instead.
 * Returns the state it is left in ('queued' | 'cancelled'), or 0 when the lease is lost.
 */
export const DEFER_LUA = `${HELD}
if not isHeld then return 0 end
recordSpend(ARGV[8])
redis.call('HSET', jk(id), 'attempts', math.max(num(id, 'attempts') - 1, 0), 'run_after', ARGV[6], 'error', ARGV[7])
local state = get(id, 'cancel_reason') and 'cancelled' or 'queued'
if state == 'queued' then redis.call('ZADD', P .. ':due', tonumber(ARGV[6]), id) end
move(id, 'running', state)
return state
`;

/** ARGV[6] = spend USD ('' = none). */
export const MARK_CANCELLED_LUA = `${HELD}
if not isHeld then return 0 end
recordSpend(ARGV[6])
redis.call('HSETNX', jk(id), 'cancel_reason', 'cancelled by the worker')
move(id, 'running', 'cancelled')
return 1
`;

/** The sum of the spend recorded in zset `set` at or after `since`. */
const SPENT_IN = `
local function spentIn(set, since)
  local total = 0
  for _, member in ipairs(redis.call('ZRANGEBYSCORE', set, since, '+inf')) do total = total + tonumber(redis.call('HGET', P .. ':spend:usd', member) or '0') end
  return total
end
`;

/**
 * spent(ARGV[4] = 'repo' | 'installation', key ARGV[5], since ARGV[6]): the spend recorded for the
 * repository or installation since then, as a string (Lua numbers would come back truncated).
 */
export const SPENT_LUA = `${RECORD_PRELUDE}${SPENT_IN}
local set = ARGV[4] == 'repo' and (P .. ':spend:' .. ARGV[5]) or (P .. ':spend-installation:' .. ARGV[5])
return string.format('%.17g', spentIn(set, ARGV[6]))
`;

/**
 * reserve: ARGV[6] = USD, ARGV[7] = how many caps, then per cap scope, key, limit, since. For each:
 * spend in the window + the key's other running jobs' reservations (lock held) + USD must fit
 * (1e-9 of rounding allowed). Returns { 'ok' } | { 'over', cap index (0-based), spent, reserved }
 * (strings) | { 'mismatch', cap index } (not the job's key), or 0 when the lease is lost.
 */
export const RESERVE_LUA = `${HELD}${SPENT_IN}
if not isHeld then return 0 end
local usd, n = tonumber(ARGV[6]), tonumber(ARGV[7])
for i = 0, n - 1 do
  local scope, key, limit, since = ARGV[8 + i * 4], ARGV[9 + i * 4], tonumber(ARGV[10 + i * 4]), ARGV[11 + i * 4]
  local keyOf = function(job) if scope == 'repo' then return get(job, 'repo_key') else return installationOf(job) end end
  if keyOf(id) ~= key then return { 'mismatch', i } end
  local spent = spentIn(scope == 'repo' and (P .. ':spend:' .. key) or (P .. ':spend-installation:' .. key), since)
  local reserved = 0
  for _, other in ipairs(redis.call('SMEMBERS', P .. ':running')) do
    if other ~= id and locked(other) and keyOf(other) == key then reserved = reserved + tonumber(get(other, 'reserved_usd') or '0') end
  end
  if spent + reserved + usd > limit + 1e-9 then
    return { 'over', i, string.format('%.17g', spent), string.format('%.17g', reserved) }
  end
end
redis.call('HSET', jk(id), 'reserved_usd', ARGV[6])
return { 'ok' }
`;
