package io.inferencegateway.simulator;

import java.util.Arrays;

/** A Prometheus-style histogram: fixed upper bounds, per-bucket counts, sum and count. Not thread-safe. */
public final class Histogram {

    private final double[] bounds;
    private final long[] counts;
    private double sum;
    private long count;

    public Histogram(double... bounds) {
        this.bounds = bounds.clone();
        this.counts = new long[bounds.length];
        for (int i = 1; i < bounds.length; i++) {
            if (bounds[i] <= bounds[i - 1]) {
                throw new IllegalArgumentException("bounds must increase");
            }
        }
    }

    public void observe(double value) {
        int i = Arrays.binarySearch(bounds, value);
        if (i < 0) {
            i = -i - 1;
        }
        if (i < counts.length) {
            counts[i]++;
        }
        sum += value;
        count++;
    }

    public double[] bounds() {
        return bounds.clone();
    }

    /** Cumulative count of observations {@code <= bounds()[i]}. */
    public long cumulative(int i) {
        long c = 0;
        for (int k = 0; k <= i; k++) {
            c += counts[k];
        }
        return c;
    }

    public double sum() {
        return sum;
    }

    public long count() {
        return count;
    }

    /** vLLM's build_1_2_5_buckets: 1, 2, 5, 10, 20, 50, ... up to {@code max}. */
    public static double[] oneTwoFive(long max) {
        double[] out = new double[64];
        int n = 0;
        for (long p = 1; ; p *= 10) {
            for (int m : new int[] {1, 2, 5}) {
                if (m * p > max) {
                    return Arrays.copyOf(out, n);
                }
                out[n++] = m * p;
            }
        }
    }

    /** {@code n} bounds {@code start·factor, start·factor², ...} (TGI's duration buckets). */
    public static double[] geometric(double start, double factor, int n) {
        double[] out = new double[n];
        double v = start;
        for (int i = 0; i < n; i++) {
            v *= factor;
            out[i] = v;
        }
        return out;
    }
}
