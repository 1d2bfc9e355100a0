package io.inferencegateway.lab.bench.workload;

import java.util.SplittableRandom;

/**
 * Bursty traffic: Poisson arrivals whose rate switches between a burst ("on") and a lull ("off") on a
 * fixed cycle that starts with a burst. Defined by the mean rate, how much faster the bursts are than
 * the mean, and the two phase lengths; the lull rate follows so that the long-run mean is right.
 *
 * @param burstFactor burst rate ÷ mean rate; at most (on + off) / on, where the lull rate reaches zero
 */
public record OnOffArrivals(double meanRate, double burstFactor, double onSeconds, double offSeconds)
        implements ArrivalProcess {

    public OnOffArrivals {
        if (!(meanRate > 0) || !(onSeconds > 0) || !(offSeconds > 0) || !(burstFactor >= 1)) {
            throw new IllegalArgumentException("need rate > 0, phases > 0 and burstFactor >= 1");
        }
        if (burstFactor * onSeconds > onSeconds + offSeconds + 1e-9) {
            throw new IllegalArgumentException("burstFactor " + burstFactor + " is above the most these phases allow, "
                    + (onSeconds + offSeconds) / onSeconds);
        }
    }

    public double onRate() {
        return meanRate * burstFactor;
    }

    public double offRate() {
        return Math.max(0, meanRate * (onSeconds + offSeconds - burstFactor * onSeconds) / offSeconds);
    }

    /** Whether simulated time {@code nanos} falls in a burst. */
    public boolean inBurst(long nanos) {
        long cycle = Math.round((onSeconds + offSeconds) * 1e9);
        return nanos % cycle < Math.round(onSeconds * 1e9);
    }

    @Override
    public long nextArrival(long afterNanos, SplittableRandom rng) {
        long cycle = Math.round((onSeconds + offSeconds) * 1e9);
        long on = Math.round(onSeconds * 1e9);
        long t = afterNanos;
        while (true) {
            long cycleStart = t - t % cycle;
            boolean burst = t - cycleStart < on;
            long phaseEnd = burst ? cycleStart + on : cycleStart + cycle;
            double rate = burst ? onRate() : offRate();
            if (rate > 0) {
                long candidate = t + ArrivalProcess.exponentialGapNanos(rate, rng);
                if (candidate < phaseEnd) {
                    return candidate;
                }
            }
            // no arrival left in this phase: memorylessness lets us restart the clock at the next phase
            t = phaseEnd;
        }
    }

    @Override
    public ArrivalProcess withMeanRate(double requestsPerSecond) {
        return new OnOffArrivals(requestsPerSecond, burstFactor, onSeconds, offSeconds);
    }

    @Override
    public String describe() {
        return String.format("on/off bursts: %.1f s at %.2f req/s, %.1f s at %.2f req/s (mean %.2f)", onSeconds,
                onRate(), offSeconds, offRate(), meanRate);
    }
}
