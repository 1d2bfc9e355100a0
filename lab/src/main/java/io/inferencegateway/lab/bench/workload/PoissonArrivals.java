package io.inferencegateway.lab.bench.workload;

import java.util.SplittableRandom;

/** Steady traffic: independent arrivals at a constant mean rate (exponential gaps). */
public record PoissonArrivals(double meanRate) implements ArrivalProcess {

    public PoissonArrivals {
        if (!(meanRate > 0)) {
            throw new IllegalArgumentException("rate must be positive, got " + meanRate);
        }
    }

    @Override
    public long nextArrival(long afterNanos, SplittableRandom rng) {
        return afterNanos + ArrivalProcess.exponentialGapNanos(meanRate, rng);
    }

    @Override
    public ArrivalProcess withMeanRate(double requestsPerSecond) {
        return new PoissonArrivals(requestsPerSecond);
    }

    @Override
    public String describe() {
        return String.format("poisson %.2f req/s", meanRate);
    }
}
