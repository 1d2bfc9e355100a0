package io.inferencegateway.lab.bench.workload;

import java.util.SplittableRandom;

/**
 * Independent random streams derived from one run seed, one per purpose, so that changing the arrival
 * rate does not change the prompts and the other way round.
 */
public enum Seeds {
    ARRIVALS(0x41525256L),
    CONTENT(0x434F4E54L),
    FIXED_TEXT(0x46495854L);

    private final long salt;

    Seeds(long salt) {
        this.salt = salt;
    }

    public SplittableRandom stream(long seed) {
        return new SplittableRandom(mix(seed ^ (salt * 0x9E3779B97F4A7C15L)));
    }

    /** A 64-bit finalizer: nearby seeds give unrelated streams. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
