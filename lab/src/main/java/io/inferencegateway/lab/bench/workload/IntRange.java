package io.inferencegateway.lab.bench.workload;

import java.util.SplittableRandom;

/** An inclusive range of sizes, sampled uniformly. {@code IntRange.of(n)} is the single value n. */
public record IntRange(int min, int max) {

    public IntRange {
        if (min < 0 || max < min) {
            throw new IllegalArgumentException("need 0 <= min <= max, got " + min + ".." + max);
        }
    }

    public static IntRange of(int value) {
        return new IntRange(value, value);
    }

    public int sample(SplittableRandom rng) {
        return min == max ? min : min + rng.nextInt(max - min + 1);
    }

    public double mean() {
        return (min + max) / 2.0;
    }

    @Override
    public String toString() {
        return min == max ? Integer.toString(min) : min + ".." + max;
    }
}
