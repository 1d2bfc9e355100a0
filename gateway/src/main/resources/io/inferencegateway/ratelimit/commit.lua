-- Corrects the tokens a request reserved once its real usage is known
-- (src/main/java/io/inferencegateway/ratelimit/RedisLimitStore.java).
-- KEYS[i]  the base key of scope i; ARGV[1] the window the request was counted in; ARGV[2] the tokens to add
-- (negative: to return). A window that already ended is left alone.
for i = 1, #KEYS do
  local key = KEYS[i] .. ':' .. ARGV[1] .. ':t'
  if redis.call('EXISTS', key) == 1 then
    local left = redis.call('INCRBY', key, ARGV[2])
    if left < 0 then
      redis.call('SET', key, 0, 'KEEPTTL')
    end
  end
end
return 0
