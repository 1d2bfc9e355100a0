package io.inferencegateway.lab.bench.global;

import java.time.Duration;
import java.util.List;

/**
 * The regions and the three phases of the {@code global} scenario (docs/benchmarks/global.md). Times are simulated,
 * from the first arrival.
 *
 * <ul>
 *   <li>steady: the tier's traffic alone, which the home region could serve by itself;</li>
 *   <li>spike, from {@code spikeStart} to {@code spikeEnd}: extra traffic sent straight to the home cluster's gateway
 *       (its own region's users, whom the tier does not see), {@code spikeLoad} of one region's capacity;</li>
 *   <li>loss, from {@code lossAt}: cluster {@code lost} is gone ({@link ClusterLoss}) until the end.</li>
 * </ul>
 *
 * @param regions the regions, the tier's home first
 * @param lost    index into {@code regions} of the cluster that is lost
 */
public record GlobalLayout(List<RegionProfile> regions, Duration spikeStart, Duration spikeEnd, double spikeLoad,
                           Duration lossAt, int lost) {

    /** The scenario's name in the catalogue. */
    public static final String SCENARIO = "global";

    public GlobalLayout {
        regions = List.copyOf(regions);
        if (regions.size() < 2) {
            throw new IllegalArgumentException("a global tier needs at least two regions");
        }
        if (spikeStart.compareTo(spikeEnd) >= 0 || spikeEnd.compareTo(lossAt) > 0) {
            throw new IllegalArgumentException("the spike must end before the loss");
        }
        if (lost < 0 || lost >= regions.size()) {
            throw new IllegalArgumentException("no region " + lost + " to lose");
        }
    }

    /**
     * Near (the home region, 5 ms each way, the dearer) and far (40 ms each way, half the price); the spike from 6 s to
     * 12 s adds 0.8 of a region's capacity on the near cluster; the near cluster is lost at 14 s (6 s before the end
     * of the scenario's 20 s of arrivals).
     */
    public static GlobalLayout standard() {
        return new GlobalLayout(List.of(
                new RegionProfile("near", "us-east", Duration.ofMillis(5), 0.60, 2.40),
                new RegionProfile("far", "eu-west", Duration.ofMillis(40), 0.30, 1.20)),
                Duration.ofSeconds(6), Duration.ofSeconds(12), 0.8, Duration.ofSeconds(14), 0);
    }

    public RegionProfile home() {
        return regions.get(0);
    }

    public RegionProfile lostRegion() {
        return regions.get(lost);
    }

    /** The phase an arrival at {@code nanos} (simulated, from the first arrival) belongs to. */
    public Phase phaseOf(long nanos) {
        if (nanos >= lossAt.toNanos()) {
            return Phase.LOSS;
        }
        if (nanos >= spikeStart.toNanos() && nanos < spikeEnd.toNanos()) {
            return Phase.SPIKE;
        }
        return Phase.STEADY;
    }

    /** A phase of the run, by the arrival time of a request. */
    public enum Phase {
        /** Before the spike, and between the spike's end and the loss. */
        STEADY,
        SPIKE,
        LOSS;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
