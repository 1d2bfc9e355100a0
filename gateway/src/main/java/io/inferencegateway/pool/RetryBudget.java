package io.inferencegateway.pool;

import io.inferencegateway.config.FailoverConfig;
import io.inferencegateway.domain.NanoClock;

/**
 * How many retries a pool may still make: retries over the last {@link FailoverConfig#BUDGET_WINDOW_SECONDS}
 * seconds may not exceed {@code retryBudgetPercent} of the requests in that window, or {@code minRetries},
 * whichever is larger. Counted in one-second buckets of a ring, so memory is fixed and nothing allocates; the
 * lock is held for a few additions only.
 */
public final class RetryBudget {

    private static final long BUCKET_NANOS = 1_000_000_000L;
    private static final int BUCKETS = FailoverConfig.BUDGET_WINDOW_SECONDS;

    private final double ratio;
    private final int minRetries;
    private final NanoClock clock;
    private final long[] second = new long[BUCKETS];
    private final long[] requests = new long[BUCKETS];
    private final long[] retries = new long[BUCKETS];

    public RetryBudget(FailoverConfig config, NanoClock clock) {
        this.ratio = config.retryBudgetPercent() / 100.0;
        this.minRetries = config.minRetries();
        this.clock = clock;
        java.util.Arrays.fill(second, Long.MIN_VALUE);
    }

    /** A request of the pool started (its first attempt). */
    public synchronized void request() {
        requests[bucket(clock.nanoTime() / BUCKET_NANOS)]++;
    }

    /** Takes one retry from the budget; false when it is spent. */
    public synchronized boolean tryRetry() {
        long now = clock.nanoTime() / BUCKET_NANOS;
        long req = 0;
        long ret = 0;
        for (int i = 0; i < BUCKETS; i++) {
            if (second[i] > now - BUCKETS) {
                req += requests[i];
                ret += retries[i];
            }
        }
        if (ret >= Math.max(minRetries, (long) (ratio * req))) {
            return false;
        }
        retries[bucket(now)]++;
        return true;
    }

    private int bucket(long now) {
        int i = (int) Math.floorMod(now, (long) BUCKETS);
        if (second[i] != now) {
            second[i] = now;
            requests[i] = 0;
            retries[i] = 0;
        }
        return i;
    }
}
