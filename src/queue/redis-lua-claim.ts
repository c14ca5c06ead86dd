import { LUA_PRELUDE } from './redis-lua-prelude.js';

/**
 * Claim, atomically (so two processes never take the same job): settle stalled jobs that may not
 * run again, check the global limit of live leases, then lease the oldest runnable job (queued
 * with run_after passed, or stalled) whose repository has no live lease. A stalled job is claimed
 * again like a queued one (attempts + 1). Mirrors sqlite-claim.ts.
 * ARGV: prefix, now, token, workerId, leaseMs, maxRunning. Returns the job hash, or nil.
 */
export const CLAIM_LUA = `${LUA_PRELUDE}
local token, owner, leaseMs, maxRunning = ARGV[3], ARGV[4], tonumber(ARGV[5]), tonumber(ARGV[6])
local RUNNING = P .. ':running'

for _, id in ipairs(redis.call('ZRANGEBYSCORE', RUNNING, '-inf', NOW)) do
  if get(id, 'cancel_reason') then
    move(id, 'running', 'cancelled')
  elseif num(id, 'attempts') >= num(id, 'max_attempts') then
    redis.call('HSET', jk(id), 'error', 'the lease expired during attempt ' .. get(id, 'attempts') ..
      ' of ' .. get(id, 'max_attempts') .. ' (the worker stopped or stalled)')
    move(id, 'running', 'failed')
  end
end

local live = redis.call('ZRANGEBYSCORE', RUNNING, '(' .. NOW, '+inf')
if #live >= maxRunning then return nil end
local busy = {}
for _, id in ipairs(live) do busy[get(id, 'repo_key')] = true end

-- Oldest candidate by seq: the first free queued job, and the first free stalled job.
local best, bestSeq = nil, nil
local function consider(id)
  local seq = num(id, 'seq')
  if busy[get(id, 'repo_key')] or (bestSeq and seq >= bestSeq) then return false end
  best, bestSeq = id, seq
  return true
end
for _, id in ipairs(redis.call('ZRANGEBYSCORE', RUNNING, '-inf', NOW)) do consider(id) end
local QUEUED, start, CHUNK = P .. ':queued', 0, 200
while true do
  local ids = redis.call('ZRANGE', QUEUED, start, start + CHUNK - 1)
  if #ids == 0 then break end
  local done = false
  for _, id in ipairs(ids) do
    if bestSeq and num(id, 'seq') >= bestSeq then done = true break end
    if num(id, 'run_after') <= NOW and consider(id) then done = true break end
  end
  if done then break end
  start = start + CHUNK
end
if not best then return nil end

local from = get(best, 'state')
move(best, from, 'running')
local untilMs = NOW + leaseMs
redis.call('HINCRBY', jk(best), 'attempts', 1)
redis.call('HSET', jk(best), 'lease_token', token, 'lease_owner', owner, 'lease_until', untilMs)
redis.call('ZADD', RUNNING, untilMs, best)
return dump(best)
`;
