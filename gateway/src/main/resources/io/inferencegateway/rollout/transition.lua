-- Moves a rollout's progress on, if nobody moved it since it was read: only one replica makes a transition.
-- KEYS[1]: the progress hash. ARGV: the revision it was read at, step, start, paused, phase, reason, ttl (s).
-- Answers {1 if made, else 0; the progress after}.
local state = KEYS[1]
local rev = tonumber(redis.call('HGET', state, 'rev') or '-1')
if rev == tonumber(ARGV[1]) then
  redis.call('HSET', state, 'step', ARGV[2], 'start', ARGV[3], 'paused', ARGV[4], 'phase', ARGV[5],
    'reason', ARGV[6], 'rev', rev + 1)
  redis.call('EXPIRE', state, tonumber(ARGV[7]))
  return {1, redis.call('HGETALL', state)}
end
return {0, redis.call('HGETALL', state)}
