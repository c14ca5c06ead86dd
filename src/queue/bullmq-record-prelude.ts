/**
 * Lua shared by the job-record scripts of the BullMQ queue (docs/decisions.md, "Queue on BullMQ").
 * BullMQ dispatches (wait list, locks, delays, global concurrency); the record keeps what BullMQ
 * does not: greenfix's state, attempts, cancel flags, the subject and dedupe indexes and the
 * per-repository gate. Conventions: KEYS[1] is `<prefix>:seq` (it only routes the script to the
 * prefix's slot), ARGV[1] the record prefix, ARGV[2] the caller's clock (epoch ms, never Redis
 * TIME), ARGV[3] BullMQ's key base for the queue (`queue.toKey('')`), so a job's lock is
 * `B .. id .. ':lock'` — the one BullMQ key the record reads.
 *
 * Keys under the prefix: `job:<id>` (hash, JobRow column names), `running` (set), `gate:<repo>`
 * (id of the job holding the repository), `spend:usd` (hash id → the job's spend), `spend:<repo>` and
 * `spend-installation:<installation>` (zsets id → when its spend was recorded), `parked:<repo>` (set: jobs waiting for the gate), `due`
 * (zset id → when BullMQ should hand it out again: backoff and parked jobs), `pending` (zset id →
 * enqueued but not yet confirmed added to BullMQ), `authorizing` (zset id → when enqueued, jobs
 * waiting for their sender's authorisation), `finished` (zset id → when it finished, for
 * prune), `subject:<s>` (zset id → seq), `dedupe` (hash), `counts` (hash state → n), `notes` (zset
 * key → when first noted), `seq` (counter).
 */
export const RECORD_PRELUDE = `
local P = ARGV[1]
local NOW = tonumber(ARGV[2])
local B = ARGV[3]
local function jk(id) return P .. ':job:' .. id end
local function get(id, f) return redis.call('HGET', jk(id), f) end
local function num(id, f) return tonumber(get(id, f) or '0') end
local function locked(id) return redis.call('EXISTS', B .. id .. ':lock') == 1 end

-- Frees the job's repository gate if it holds it: its parked jobs are due now, so the next claim
-- has BullMQ hand them out.
local function freeRepo(id)
  local repo = get(id, 'repo_key')
  if redis.call('GET', P .. ':gate:' .. repo) ~= id then return end
  redis.call('DEL', P .. ':gate:' .. repo)
  for _, other in ipairs(redis.call('SMEMBERS', P .. ':parked:' .. repo)) do redis.call('ZADD', P .. ':due', NOW, other) end
  redis.call('DEL', P .. ':parked:' .. repo)
end

-- Moves a job between states, keeping the counters and the running set in step.
local function move(id, from, to)
  redis.call('HSET', jk(id), 'state', to, 'updated_at', NOW)
  redis.call('HINCRBY', P .. ':counts', from, -1)
  redis.call('HINCRBY', P .. ':counts', to, 1)
  if from == 'running' and to ~= 'running' then
    redis.call('SREM', P .. ':running', id)
    redis.call('HDEL', jk(id), 'lease_token', 'lease_owner', 'reserved_usd')
    freeRepo(id)
  end
  if to ~= 'queued' and to ~= 'running' and to ~= 'authorizing' then redis.call('ZADD', P .. ':finished', NOW, id) end
end

-- A running job whose lease lapsed (BullMQ's lock is gone, or its worker is known to be gone):
-- a flagged job ends cancelled, a job out of attempts fails, any other is queued again.
local function lapse(id)
  if get(id, 'cancel_reason') then return move(id, 'running', 'cancelled') end
  if num(id, 'attempts') >= num(id, 'max_attempts') then
    redis.call('HSET', jk(id), 'error', 'the lease expired during attempt ' .. get(id, 'attempts') ..
      ' of ' .. get(id, 'max_attempts') .. ' (the worker stopped or stalled)')
    return move(id, 'running', 'failed')
  end
  move(id, 'running', 'queued')
end

-- The lease holder's check, in every lease operation: right token, still running, lock held.
local function held(id, token)
  return get(id, 'state') == 'running' and get(id, 'lease_token') == token and locked(id)
end

-- Queued (and authorizing) jobs end cancelled (BullMQ drops them when it hands them out); running
-- ones are flagged (the first reason is kept), or end cancelled when their lease lapsed. Only jobs
-- enqueued before seq \`below\` when given. Returns the ids affected.
local function cancelSubject(subject, reason, below)
  local out = {}
  local upto = below and ('(' .. below) or '+inf'
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', P .. ':subject:' .. subject, '-inf', upto)) do
    local state = get(id, 'state')
    if state == 'queued' or state == 'running' or state == 'authorizing' then
      redis.call('HSETNX', jk(id), 'cancel_reason', reason)
      redis.call('HSET', jk(id), 'updated_at', NOW)
      if state == 'authorizing' then
        redis.call('ZREM', P .. ':authorizing', id)
        move(id, 'authorizing', 'cancelled')
      elseif state == 'queued' then move(id, 'queued', 'cancelled')
      elseif not locked(id) then move(id, 'running', 'cancelled') end
      table.insert(out, id)
    end
  end
  return out
end

local function dump(id) return redis.call('HGETALL', jk(id)) end
local function dumpAll(ids)
  local out = {}
  for i, id in ipairs(ids) do out[i] = dump(id) end
  return out
end
`;
