import { RECORD_PRELUDE } from './bullmq-record-prelude.js';

/**
 * The record scripts that decide what BullMQ hands out. ARGV[1..3] are the prelude's (prefix,
 * clock, BullMQ key base); each script's own arguments start at ARGV[4].
 */

/**
 * enqueue: a known delivery (the job id is derived from it) or dedupe key returns the existing
 * job; otherwise supersede the subject's active jobs and insert, marked pending until the caller
 * confirms BullMQ has the job. ARGV: id, deliveryId, dedupeKey ('' = none), subject, repoKey,
 * request, maxAttempts, installationKey, authorize mode ('' = none: queued at once; else
 * 'authorizing', not pending, superseding nothing). Returns { created (0|1), job hash, superseded ids, pending (0|1) }.
 */
export const ENQUEUE_LUA = `${RECORD_PRELUDE}
local id, deliveryId, dedupeKey, subject = ARGV[4], ARGV[5], ARGV[6], ARGV[7]
local function existing(other)
  return { 0, dump(other), {}, redis.call('ZSCORE', P .. ':pending', other) and 1 or 0 }
end
if redis.call('EXISTS', jk(id)) == 1 then return existing(id) end
if dedupeKey ~= '' then
  local other = redis.call('HGET', P .. ':dedupe', dedupeKey)
  if other then return existing(other) end
end
local mode = ARGV[12]
local state = mode == '' and 'queued' or 'authorizing'
-- A job still to be authorised supersedes nothing: gfAuthorize does that once it lets it in.
local superseded = mode == '' and cancelSubject(subject, 'superseded by job ' .. id) or {}
local seq = redis.call('INCR', P .. ':seq')
redis.call('HSET', jk(id), 'seq', seq, 'id', id, 'delivery_id', deliveryId, 'subject', subject,
  'repo_key', ARGV[8], 'request', ARGV[9], 'state', state, 'attempts', 0, 'max_attempts', ARGV[10],
  'run_after', NOW, 'created_at', NOW, 'updated_at', NOW, 'installation_key', ARGV[11])
if dedupeKey ~= '' then
  redis.call('HSET', jk(id), 'dedupe_key', dedupeKey)
  redis.call('HSET', P .. ':dedupe', dedupeKey, id)
end
redis.call('HINCRBY', P .. ':counts', state, 1)
redis.call('ZADD', P .. ':subject:' .. subject, seq, id)
if mode ~= '' then
  redis.call('HSET', jk(id), 'authorize', mode)
  redis.call('ZADD', P .. ':authorizing', NOW, id)
  return { 1, dump(id), {}, 0 }
end
redis.call('ZADD', P .. ':pending', NOW, id)
return { 1, dump(id), superseded, 1 }
`;

/**
 * authorize: decides an 'authorizing' job (JobQueue.authorize). ARGV: id, allowed (1|0). Allowed:
 * 'queued' and pending until the caller confirms BullMQ has it, the older active jobs of its
 * subject superseded (a newer one cancelled it already, so it is not 'authorizing'). Refused:
 * removed with its subject entry and dedupe key. Returns { changed (0|1), job hash ({} if
 * unknown), superseded ids, pending (0|1) }.
 */
export const AUTHORIZE_LUA = `${RECORD_PRELUDE}
local id, allowed = ARGV[4], ARGV[5] == '1'
if redis.call('EXISTS', jk(id)) == 0 then return { 0, {}, {}, 0 } end
if get(id, 'state') ~= 'authorizing' then return { 0, dump(id), {}, 0 } end
redis.call('ZREM', P .. ':authorizing', id)
local subject, seq = get(id, 'subject'), num(id, 'seq')
if not allowed then
  local job, key = dump(id), get(id, 'dedupe_key')
  if key and redis.call('HGET', P .. ':dedupe', key) == id then redis.call('HDEL', P .. ':dedupe', key) end
  redis.call('ZREM', P .. ':subject:' .. subject, id)
  redis.call('HINCRBY', P .. ':counts', 'authorizing', -1)
  redis.call('DEL', jk(id))
  return { 1, job, {}, 0 }
end
local superseded = cancelSubject(subject, 'superseded by job ' .. id, seq)
move(id, 'authorizing', 'queued')
redis.call('ZADD', P .. ':pending', NOW, id)
return { 1, dump(id), superseded, 1 }
`;

/** awaiting: up to ARGV[5] authorizing jobs enqueued before ARGV[4], oldest first. Returns their hashes. */
export const AWAITING_LUA = `${RECORD_PRELUDE}
return dumpAll(redis.call('ZRANGEBYSCORE', P .. ':authorizing', '-inf', '(' .. ARGV[4], 'LIMIT', 0, tonumber(ARGV[5])))
`;

/** cancel(subject, reason). ARGV: subject, reason. Returns the affected job hashes. */
export const CANCEL_LUA = `${RECORD_PRELUDE}
return dumpAll(cancelSubject(ARGV[4], ARGV[5]))
`;

/**
 * admit: BullMQ handed job ARGV[4] to a worker (lock token ARGV[5], owner ARGV[6]); may it run?
 * Returns { 'run', job hash } | { 'busy', due at } (its repository runs another job: park it) |
 * { 'later', run after } (BullMQ's clock promoted it before ours) | { 'drop', state, reason } (the
 * record says it must not run: finish it in BullMQ as the record says). ARGV[7] = leaseMs.
 */
export const ADMIT_LUA = `${RECORD_PRELUDE}
local id, token, owner, leaseMs = ARGV[4], ARGV[5], ARGV[6], tonumber(ARGV[7])
if redis.call('EXISTS', jk(id)) == 0 then return { 'drop', 'unknown', 'greenfix has no record of this job' } end
-- Handed out again while the record says running: the old lease is over (BullMQ requeued it).
if get(id, 'state') == 'running' then lapse(id) end
local state = get(id, 'state')
if state ~= 'queued' then return { 'drop', state, get(id, 'cancel_reason') or get(id, 'error') or '' } end
if num(id, 'run_after') > NOW then
  redis.call('ZADD', P .. ':due', num(id, 'run_after'), id)
  return { 'later', num(id, 'run_after') }
end
local repo = get(id, 'repo_key')
local holder = redis.call('GET', P .. ':gate:' .. repo)
if holder and holder ~= id and get(holder, 'state') == 'running' and locked(holder) then
  redis.call('SADD', P .. ':parked:' .. repo, id)
  redis.call('ZADD', P .. ':due', NOW + leaseMs, id)
  return { 'busy', NOW + leaseMs }
end
redis.call('SET', P .. ':gate:' .. repo, id)
redis.call('SREM', P .. ':parked:' .. repo, id)
redis.call('ZREM', P .. ':due', id)
move(id, 'queued', 'running')
redis.call('HINCRBY', jk(id), 'attempts', 1)
redis.call('HSET', jk(id), 'lease_token', token, 'lease_owner', owner)
redis.call('SADD', P .. ':running', id)
return { 'run', dump(id) }
`;

/**
 * sweep: running jobs whose BullMQ lock is gone lapse (the caller hands them back to BullMQ's wait
 * list). abandon: the same for every running job of owner ARGV[4], lock or not. Both return the ids.
 */
const LAPSE_WHERE = (condition: string) => `${RECORD_PRELUDE}
local out = {}
for _, id in ipairs(redis.call('SMEMBERS', P .. ':running')) do
  if ${condition} then
    table.insert(out, id)
    lapse(id)
  end
end
return out
`;
export const SWEEP_LUA = LAPSE_WHERE('not locked(id)');
export const ABANDON_LUA = LAPSE_WHERE("get(id, 'lease_owner') == ARGV[4]");

/**
 * stranded: jobs enqueued at least ARGV[4] ms ago whose BullMQ add was never confirmed (the
 * receiver died in between). Returns their hashes for the caller to add again.
 */
export const STRANDED_LUA = `${RECORD_PRELUDE}
local out = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', P .. ':pending', '-inf', NOW - tonumber(ARGV[4]))) do
  if get(id, 'state') == 'queued' then table.insert(out, dump(id))
  else redis.call('ZREM', P .. ':pending', id) end
end
return out
`;

/** due: queued jobs whose time in BullMQ's delayed set is up by the caller's clock. */
export const DUE_LUA = `${RECORD_PRELUDE}
local out = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', P .. ':due', '-inf', NOW)) do
  redis.call('ZREM', P .. ':due', id)
  if get(id, 'state') == 'queued' then table.insert(out, id) end
end
return out
`;

/**
 * prune: up to ARGV[5] finished jobs that finished before ARGV[4], oldest first, with their
 * subject entry and dedupe key, and notes from before then. Returns how many jobs.
 */
export const PRUNE_LUA = `${RECORD_PRELUDE}
local before, n = tonumber(ARGV[4]), 0
redis.call('ZREMRANGEBYSCORE', P .. ':notes', '-inf', '(' .. before)
for _, id in ipairs(redis.call('ZRANGEBYSCORE', P .. ':finished', '-inf', '(' .. before, 'LIMIT', 0, tonumber(ARGV[5]))) do
  local state, key = get(id, 'state'), get(id, 'dedupe_key')
  redis.call('ZREM', P .. ':finished', id)
  if state == 'succeeded' or state == 'failed' or state == 'cancelled' then
    if key and redis.call('HGET', P .. ':dedupe', key) == id then redis.call('HDEL', P .. ':dedupe', key) end
    redis.call('ZREM', P .. ':subject:' .. get(id, 'subject'), id)
    redis.call('ZREM', P .. ':due', id)
    redis.call('HINCRBY', P .. ':counts', state, -1)
    redis.call('DEL', jk(id))
    n = n + 1
  end
end
return n
`;
