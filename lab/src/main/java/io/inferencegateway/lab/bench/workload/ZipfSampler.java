package io.inferencegateway.lab.bench.workload;

import java.util.Arrays;
import java.util.SplittableRandom;

/** Draws ranks 0..n-1 with probability proportional to 1/(rank+1)^exponent. */
public final class ZipfSampler {

    private final double exponent;
    private final double[] cumulative;

    public ZipfSampler(int n, double exponent) {
        if (n < 1 || exponent < 0) {
            throw new IllegalArgumentException("need n >= 1 and exponent >= 0");
        }
        this.exponent = exponent;
        this.cumulative = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += 1 / Math.pow(i + 1, exponent);
            cumulative[i] = sum;
        }
        for (int i = 0; i < n; i++) {
            cumulative[i] /= sum;
        }
    }

    public double exponent() {
        return exponent;
    }

    /** Probability of the given rank. */
    public double probability(int rank) {
        return rank == 0 ? cumulative[0] : cumulative[rank] - cumulative[rank - 1];
    }

    public int sample(SplittableRandom rng) {
        int i = Arrays.binarySearch(cumulative, rng.nextDouble());
        int rank = i >= 0 ? i + 1 : -i - 1;
        return Math.min(rank, cumulative.length - 1);
    }
}
