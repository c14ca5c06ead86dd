import type { Redis } from 'ioredis';

/**
 * Moves Redis's clock forward for every key with a TTL: each expires `ms` sooner, and one whose
 * time is up goes. BullMQ's locks are `PX` keys on Redis's own clock, so this is how a test lets a
 * lease lapse without waiting for it (the queue's record moves with the injected clock).
 */
const SHIFT_LUA = `
local ms, cursor = tonumber(ARGV[1]), '0'
repeat
  local page = redis.call('SCAN', cursor, 'COUNT', 1000)
  cursor = page[1]
  for _, key in ipairs(page[2]) do
    local ttl = redis.call('PTTL', key)
    if ttl > 0 then
      if ttl <= ms then redis.call('DEL', key) else redis.call('PEXPIRE', key, ttl - ms) end
    end
  end
until cursor == '0'
return 0
`;

export async function advanceRedisClock(redis: Redis, ms: number): Promise<void> {
  await redis.eval(SHIFT_LUA, 0, ms);
}
