package io.inferencegateway.metrics;

import java.util.Arrays;

/**
 * One cluster gateway's round trip as its reader measures it ({@link ClusterCapacity#roundTripMillis()}): the lowest
 * time from a poll's request written to its response headers over the last {@link #POLLS} polls. The lowest rather
 * than a mean: what adds to the network's round trip (the summary's build, a busy event loop, a pause on either side)
 * only ever adds, so the floor of a few polls is the distance, and a rise of the floor itself (a route that changed)
 * shows within {@link #POLLS} polls. Guarded by its own lock; the scraper polls an endpoint once at a time anyway.
 */
final class RoundTrips {

    /** Polls the floor is taken over. */
    static final int POLLS = 8;

    private final long[] nanos = new long[POLLS];
    private int next;
    private int size;

    RoundTrips() {
        Arrays.fill(nanos, Long.MAX_VALUE);
    }

    /** Adds a poll's time to headers; returns the lowest of the window, in milliseconds. */
    synchronized double add(long sample) {
        nanos[next] = Math.max(0, sample);
        next = (next + 1) % POLLS;
        size = Math.min(size + 1, POLLS);
        long low = Long.MAX_VALUE;
        for (int i = 0; i < size; i++) {
            low = Math.min(low, nanos[i]);
        }
        return low / 1e6;
    }
}
