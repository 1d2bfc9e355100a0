-- Adds one replica's counts of a rollout's step and answers its progress with the current step's counts.
-- KEYS[1]: the progress hash. ARGV: counts key prefix, now (ms), ttl (s), the counted step,
-- the baseline's field count then its field/value pairs, the candidate's field count then its pairs.
local state, prefix, now, ttl = KEYS[1], ARGV[1], ARGV[2], tonumber(ARGV[3])
local function add(key, from, count)
  for j = 0, count - 1 do
    redis.call('HINCRBY', key, ARGV[from + 2 * j], ARGV[from + 2 * j + 1])
  end
  if count > 0 then
    redis.call('EXPIRE', key, ttl)
  end
end
if redis.call('EXISTS', state) == 0 then
  redis.call('HSET', state, 'step', 0, 'start', now, 'paused', 0, 'phase', 'running', 'reason', '', 'rev', 0)
end
redis.call('EXPIRE', state, ttl)
local nb = tonumber(ARGV[5])
add(prefix .. ARGV[4] .. ':baseline', 6, nb)
local at = 6 + 2 * nb
add(prefix .. ARGV[4] .. ':candidate', at + 1, tonumber(ARGV[at]))
local step = redis.call('HGET', state, 'step')
return {redis.call('HGETALL', state), redis.call('HGETALL', prefix .. step .. ':baseline'),
  redis.call('HGETALL', prefix .. step .. ':candidate')}
