package io.inferencegateway.lab.bench.workload;

import java.util.SplittableRandom;

/**
 * When requests arrive, in simulated time. Open loop: arrival times never depend on how fast the
 * system answers, so a slow policy cannot slow the clients down and hide its own latency.
 */
public interface ArrivalProcess {

    /** The next arrival strictly after {@code afterNanos} (simulated time since the run started). */
    long nextArrival(long afterNanos, SplittableRandom rng);

    /** Long-run mean arrivals per simulated second. */
    double meanRate();

    /** The same process shape scaled to another mean rate. */
    ArrivalProcess withMeanRate(double requestsPerSecond);

    String describe();

    /** One exponential gap of a Poisson process with the given rate, in nanoseconds (at least 1). */
    static long exponentialGapNanos(double ratePerSecond, SplittableRandom rng) {
        double u = rng.nextDouble(); // [0,1): 1-u is in (0,1], so the log is finite
        return Math.max(1L, Math.round(-Math.log(1 - u) / ratePerSecond * 1e9));
    }
}
