-- Admits a request if it fits every scope, and then counts it in all of them, in one atomic step
-- (src/main/java/io/inferencegateway/ratelimit/RedisLimitStore.java).
-- KEYS[i]  the base key of scope i; its counts are KEYS[i]..':'..window..':r' (requests) and ..':t' (tokens)
-- ARGV[1]  the window in milliseconds; ARGV[2] the tokens to reserve
-- ARGV[1+2i], ARGV[2+2i]  scope i's requests and tokens per window (0: unlimited)
-- Returns {admitted 1|0, window, ms until it resets, refused by 0|1 requests|2 tokens, then per scope its
-- requests and tokens counted (after this request when admitted)}.
-- The window comes from the Redis server's clock, so every replica counts in the same one.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local length = tonumber(ARGV[1])
local tokens = tonumber(ARGV[2])
local window = math.floor(now / length)
local reset = (window + 1) * length - now
local out = {1, window, reset, 0}
local refused = 0
for i = 1, #KEYS do
  local base = KEYS[i] .. ':' .. window
  local requests = tonumber(redis.call('GET', base .. ':r') or '0')
  local counted = tonumber(redis.call('GET', base .. ':t') or '0')
  out[3 + 2 * i] = requests
  out[4 + 2 * i] = counted
  if refused == 0 then
    local rpm = tonumber(ARGV[1 + 2 * i])
    local tpm = tonumber(ARGV[2 + 2 * i])
    if rpm > 0 and requests + 1 > rpm then
      refused = 1
    elseif tpm > 0 and counted + tokens > tpm then
      refused = 2
    end
  end
end
if refused > 0 then
  out[1] = 0
  out[4] = refused
  return out
end
for i = 1, #KEYS do
  local base = KEYS[i] .. ':' .. window
  out[3 + 2 * i] = redis.call('INCR', base .. ':r')
  out[4 + 2 * i] = redis.call('INCRBY', base .. ':t', tokens)
  redis.call('PEXPIRE', base .. ':r', 2 * length)
  redis.call('PEXPIRE', base .. ':t', 2 * length)
end
return out
