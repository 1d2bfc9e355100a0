package io.inferencegateway.observability;

import java.util.Arrays;

/**
 * What one pod did lately, as the fleet page shows it: picks in per-second buckets over the last
 * {@link #WINDOW_SECONDS}, and the time to first token (and, of streams, the time per output token) of its last
 * {@link #TTFT_SAMPLES} answers. Fixed-size arrays
 * written in O(1) under the pod's own lock, so event loops serving different pods never meet; a reader copies.
 */
final class PodActivity {

    /** How far back picks and TTFT samples count. */
    static final int WINDOW_SECONDS = 60;
    /** Seconds the picks/s rate averages over: recent enough to follow a change, long enough not to flicker. */
    static final int RATE_SECONDS = 10;
    /** TTFT samples kept: the percentiles are those of the last this many answers within the window. */
    static final int TTFT_SAMPLES = 512;

    private final long[] pickSecond = new long[WINDOW_SECONDS];
    private final int[] picks = new int[WINDOW_SECONDS];
    private final long[] ttftNanos = new long[TTFT_SAMPLES];
    private final long[] tpotNanos = new long[TTFT_SAMPLES]; // -1: not a stream of two tokens or more
    private final long[] ttftSecond = new long[TTFT_SAMPLES];
    private int ttftNext;
    private int ttftCount;
    private long lastSecond = Long.MIN_VALUE;

    PodActivity() {
        Arrays.fill(pickSecond, Long.MIN_VALUE);
    }

    synchronized void picked(long second) {
        int i = (int) Math.floorMod(second, WINDOW_SECONDS);
        if (pickSecond[i] != second) {
            pickSecond[i] = second;
            picks[i] = 0;
        }
        picks[i]++;
        lastSecond = Math.max(lastSecond, second);
    }

    synchronized void firstToken(long second, long nanos, long tpot) {
        ttftNanos[ttftNext] = nanos;
        tpotNanos[ttftNext] = tpot;
        ttftSecond[ttftNext] = second;
        ttftNext = (ttftNext + 1) % TTFT_SAMPLES;
        ttftCount = Math.min(ttftCount + 1, TTFT_SAMPLES);
        lastSecond = Math.max(lastSecond, second);
    }

    /** Whether nothing happened on this pod within the window before {@code second}. */
    synchronized boolean idleSince(long second) {
        return second - lastSecond >= WINDOW_SECONDS;
    }

    /** Picks per second over the window, oldest first; the last element is the second {@code now}, still running. */
    synchronized int[] pickHistory(long now) {
        int[] out = new int[WINDOW_SECONDS];
        for (int k = 0; k < WINDOW_SECONDS; k++) {
            long second = now - (WINDOW_SECONDS - 1) + k;
            int i = (int) Math.floorMod(second, WINDOW_SECONDS);
            out[k] = pickSecond[i] == second ? picks[i] : 0;
        }
        return out;
    }

    /** The TTFT samples of the window before {@code now}, in no order. */
    long[] ttftSamples(long now) {
        return ttftSamples(now, WINDOW_SECONDS);
    }

    /** The TTFT samples of the last {@code seconds} before {@code now}, in no order. */
    synchronized long[] ttftSamples(long now, int seconds) {
        return samples(ttftNanos, now, seconds);
    }

    /** The TPOT samples (streams of two tokens or more) of the last {@code seconds} before {@code now}, in no order. */
    synchronized long[] tpotSamples(long now, int seconds) {
        return samples(tpotNanos, now, seconds);
    }

    private long[] samples(long[] values, long now, int seconds) {
        long[] out = new long[ttftCount];
        int n = 0;
        for (int k = 0; k < ttftCount; k++) {
            if (now - ttftSecond[k] < seconds && values[k] >= 0) {
                out[n++] = values[k];
            }
        }
        return Arrays.copyOf(out, n);
    }
}
