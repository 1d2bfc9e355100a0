package io.inferencegateway.rollout;

/**
 * The fixed log-scale buckets a rollout counts TTFT and TPOT in: the same on every replica, so counts merge by
 * addition (in Redis, one hash field per bucket), and a p90 is read from the counts alone, in bounded memory.
 *
 * <p>Bucket 0 holds everything under 0.1 ms; bucket i (1..{@value #COUNT}-2) holds up to 0.1 ms × 2^(i/4), so each
 * bucket is 19 % wider than the one before and a p90 read off them is within 19 % of the exact one; the last holds
 * everything from 0.1 ms × 2^24.5 (about 40 minutes) on. Both sides of a comparison share the bounds, so a margin of
 * 1.5 tells a 1.19 × slower candidate from a 2 × slower one.
 */
public final class LatencyBuckets {

    /** The number of buckets. */
    public static final int COUNT = 100;
    private static final double BASE_NANOS = 100_000;
    private static final double PER_DOUBLING = 4;

    private LatencyBuckets() {
    }

    /** The bucket a latency of {@code nanos} falls in. */
    public static int index(long nanos) {
        if (nanos < BASE_NANOS) {
            return 0;
        }
        double doublings = Math.log(nanos / BASE_NANOS) / Math.log(2);
        int i = 1 + (int) Math.floor(doublings * PER_DOUBLING);
        return Math.min(i, COUNT - 1);
    }

    /** The upper bound of bucket {@code i}, in seconds (the last bucket's lower bound for the last). */
    public static double upperSeconds(int i) {
        int k = Math.min(i, COUNT - 2);
        return BASE_NANOS * Math.pow(2, k / PER_DOUBLING) / 1e9;
    }

    /**
     * The 90th percentile of {@code counts}, in seconds: the upper bound of the bucket the 90th-percentile sample is
     * in; NaN without samples.
     */
    public static double p90(long[] counts) {
        long total = 0;
        for (long c : counts) {
            total += c;
        }
        if (total == 0) {
            return Double.NaN;
        }
        long rank = (long) Math.ceil(0.9 * total);
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return upperSeconds(i);
            }
        }
        return upperSeconds(counts.length - 1);
    }
}
