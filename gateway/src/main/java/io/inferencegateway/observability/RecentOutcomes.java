package io.inferencegateway.observability;

import java.util.Arrays;

/**
 * How a pool's requests ended lately, for the capacity summary's error ratio: requests ended and those that failed
 * (a 5xx, or an upstream that broke off), in per-second buckets over the last {@link PodActivity#WINDOW_SECONDS}.
 * Written in O(1) under its own lock, beside the fleet page's other per-request writes; a reader sums the seconds it
 * asks for.
 */
final class RecentOutcomes {

    private static final int WINDOW = PodActivity.WINDOW_SECONDS;

    private final long[] second = new long[WINDOW];
    private final int[] ended = new int[WINDOW];
    private final int[] failed = new int[WINDOW];

    RecentOutcomes() {
        Arrays.fill(second, Long.MIN_VALUE);
    }

    synchronized void ended(long now, boolean failure) {
        int i = (int) Math.floorMod(now, WINDOW);
        if (second[i] != now) {
            second[i] = now;
            ended[i] = 0;
            failed[i] = 0;
        }
        ended[i]++;
        if (failure) {
            failed[i]++;
        }
    }

    /** Requests ended and failed in the last {@code seconds} (at most the window) before {@code now}. */
    synchronized long[] window(long now, int seconds) {
        long all = 0;
        long bad = 0;
        for (int i = 0; i < WINDOW; i++) {
            if (now - second[i] < Math.min(seconds, WINDOW)) {
                all += ended[i];
                bad += failed[i];
            }
        }
        return new long[] {all, bad};
    }
}
