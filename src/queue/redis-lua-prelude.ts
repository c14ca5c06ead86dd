/**
 * Lua shared by every queue script. Conventions: KEYS[1] is `<prefix>:seq` (it only routes the
 * script to the prefix's slot), ARGV[1] is the prefix, ARGV[2] the caller's clock (epoch ms): time
 * never comes from Redis TIME, so an injected clock moves leases and backoffs in tests, and every
 * process compares against its own clock exactly as the SQLite queue does.
 *
 * Keys under the prefix: `job:<id>` (hash, JobRow column names), `queued` (zset id → seq),
 * `running` (zset id → lease_until), `subject:<s>` (zset id → seq), `dedupe` (hash key → id),
 * `counts` (hash state → n), `notes` (set), `seq` (counter: insertion order, like SQLite's seq).
 */
export const LUA_PRELUDE = `
local P = ARGV[1]
local NOW = tonumber(ARGV[2])
local function jk(id) return P .. ':job:' .. id end
local function get(id, f) return redis.call('HGET', jk(id), f) end
local function num(id, f) return tonumber(get(id, f) or '0') end

-- Moves a job between states, keeping the per-state counters and the state indexes in step.
local function move(id, from, to)
  redis.call('HSET', jk(id), 'state', to, 'updated_at', NOW)
  redis.call('HINCRBY', P .. ':counts', from, -1)
  redis.call('HINCRBY', P .. ':counts', to, 1)
  if from == 'running' and to ~= 'running' then
    redis.call('ZREM', P .. ':running', id)
    redis.call('HDEL', jk(id), 'lease_token', 'lease_owner', 'lease_until')
  end
  if from == 'queued' and to ~= 'queued' then redis.call('ZREM', P .. ':queued', id) end
  if to == 'queued' then redis.call('ZADD', P .. ':queued', num(id, 'seq'), id) end
end

-- The lease holder's check, in every lease operation: right token and still running.
local function held(id, token)
  return get(id, 'state') == 'running' and get(id, 'lease_token') == token
end

-- Queued jobs and lapsed running ones end cancelled; live running ones are only flagged (the
-- first reason is kept). Returns the ids affected, oldest first.
local function cancelSubject(subject, reason)
  local out = {}
  for _, id in ipairs(redis.call('ZRANGE', P .. ':subject:' .. subject, 0, -1)) do
    local state = get(id, 'state')
    local lapsed = state == 'running' and num(id, 'lease_until') <= NOW
    if state == 'queued' or state == 'running' then
      redis.call('HSETNX', jk(id), 'cancel_reason', reason)
      redis.call('HSET', jk(id), 'updated_at', NOW)
      if state == 'queued' or lapsed then move(id, state, 'cancelled') end
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
