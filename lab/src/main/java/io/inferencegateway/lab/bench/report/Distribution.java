package io.inferencegateway.lab.bench.report;

import java.util.Arrays;

/**
 * Exact order statistics over a set of samples. Runs here hold at most a few hundred thousand
 * samples, so sorting them all is cheap and avoids any histogram rounding.
 *
 * <p>Percentiles use the nearest-rank definition: the p-th percentile is the smallest sample with at
 * least p% of all samples at or below it (p50 of 1..10 is 5, p90 is 9, p99 of 1..100 is 99).
 */
public final class Distribution {

    private final long[] sorted;

    private Distribution(long[] sorted) {
        this.sorted = sorted;
    }

    public static Distribution of(long[] samples) {
        long[] copy = samples.clone();
        Arrays.sort(copy);
        return new Distribution(copy);
    }

    public int count() {
        return sorted.length;
    }

    public boolean isEmpty() {
        return sorted.length == 0;
    }

    /** Mean; NaN when empty. */
    public double mean() {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        double sum = 0;
        for (long v : sorted) {
            sum += v;
        }
        return sum / sorted.length;
    }

    /** Nearest-rank percentile, {@code 0 < p <= 100}; throws when empty. */
    public long percentile(double p) {
        if (!(p > 0 && p <= 100)) {
            throw new IllegalArgumentException("percentile must be in (0, 100], got " + p);
        }
        if (sorted.length == 0) {
            throw new IllegalStateException("no samples");
        }
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
    }

    public long max() {
        return percentile(100);
    }

    /** Share of samples at or below {@code value}: the empirical CDF. */
    public double fractionAtOrBelow(long value) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int i = Arrays.binarySearch(sorted, value);
        if (i < 0) {
            return (double) (-i - 1) / sorted.length;
        }
        while (i + 1 < sorted.length && sorted[i + 1] == value) {
            i++;
        }
        return (double) (i + 1) / sorted.length;
    }

    /** The samples in ascending order (a copy). */
    public long[] sorted() {
        return sorted.clone();
    }
}
