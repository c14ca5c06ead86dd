import { LUA_PRELUDE } from './redis-lua-prelude.js';

/**
 * Enqueue, atomically: a known delivery (the job id is derived from it, so the job key exists) or
 * dedupe key returns the existing job; otherwise supersede the subject's active jobs and insert.
 * ARGV: prefix, now, id, deliveryId, dedupeKey ('' = none), subject, repoKey, request, maxAttempts.
 * Returns { created (0|1), job hash, superseded ids }.
 */
export const ENQUEUE_LUA = `${LUA_PRELUDE}
local id, deliveryId, dedupeKey, subject = ARGV[3], ARGV[4], ARGV[5], ARGV[6]
if redis.call('EXISTS', jk(id)) == 1 then return { 0, dump(id), {} } end
if dedupeKey ~= '' then
  local other = redis.call('HGET', P .. ':dedupe', dedupeKey)
  if other then return { 0, dump(other), {} } end
end
local superseded = cancelSubject(subject, 'superseded by job ' .. id)
local seq = redis.call('INCR', P .. ':seq')
redis.call('HSET', jk(id), 'seq', seq, 'id', id, 'delivery_id', deliveryId, 'subject', subject,
  'repo_key', ARGV[7], 'request', ARGV[8], 'state', 'queued', 'attempts', 0, 'max_attempts', ARGV[9],
  'run_after', NOW, 'created_at', NOW, 'updated_at', NOW)
if dedupeKey ~= '' then
  redis.call('HSET', jk(id), 'dedupe_key', dedupeKey)
  redis.call('HSET', P .. ':dedupe', dedupeKey, id)
end
redis.call('HINCRBY', P .. ':counts', 'queued', 1)
redis.call('ZADD', P .. ':queued', seq, id)
redis.call('ZADD', P .. ':subject:' .. subject, seq, id)
return { 1, dump(id), superseded }
`;

/** cancel(subject, reason). ARGV: prefix, now, subject, reason. Returns the affected job hashes. */
export const CANCEL_LUA = `${LUA_PRELUDE}
return dumpAll(cancelSubject(ARGV[3], ARGV[4]))
`;
