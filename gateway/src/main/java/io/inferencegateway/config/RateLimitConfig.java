package io.inferencegateway.config;

import java.net.URI;
import java.time.Duration;

/**
 * How the tenants' limits are counted ({@code spec.rateLimits}). See docs/auth.md.
 *
 * @param redisUrl         the Redis the replicas share, e.g. {@code redis://host:6379}; null: each gateway counts in
 *                         its own memory (right for one replica)
 * @param failOpen         when Redis cannot be reached: true admits requests uncounted, false refuses them (503)
 * @param redisTimeout     how long a count may take before Redis counts as unreachable
 * @param defaultMaxTokens the completion tokens reserved for a request that sets no {@code max_tokens}
 * @param window           the window the per-minute budgets are counted over; one minute unless a test or demo
 *                         wants it shorter
 */
public record RateLimitConfig(URI redisUrl, boolean failOpen, Duration redisTimeout, int defaultMaxTokens,
        Duration window) {

    public static final Duration DEFAULT_REDIS_TIMEOUT = Duration.ofMillis(250);
    public static final int DEFAULT_MAX_TOKENS = 1024;
    public static final Duration DEFAULT_WINDOW = Duration.ofMinutes(1);
    public static final RateLimitConfig DEFAULT = new RateLimitConfig(null, true, DEFAULT_REDIS_TIMEOUT,
            DEFAULT_MAX_TOKENS, DEFAULT_WINDOW);

    public boolean shared() {
        return redisUrl != null;
    }
}
