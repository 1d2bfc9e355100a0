package io.inferencegateway.lab.bench;

import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongFunction;

import io.inferencegateway.lab.bench.fleet.FleetSpec;
import io.inferencegateway.lab.bench.fleet.PodFault;
import io.inferencegateway.lab.bench.workload.ArrivalProcess;
import io.inferencegateway.lab.bench.workload.RequestPlan;
import io.inferencegateway.lab.bench.workload.Seeds;
import io.inferencegateway.lab.bench.workload.Workload;

/**
 * A named, seeded workload on a named fleet: everything needed to repeat a measurement.
 *
 * @param summary      one sentence for reports: what the scenario stresses
 * @param workloads    builds the workload for a seed (fixed texts such as system prompts come from it)
 * @param arrivals     the arrival shape; its rate is replaced by the run's rate
 * @param defaultLoad  offered load as a fraction of the measured capacity ({@link CapacityProbe}) when no rate
 *                     is given
 * @param duration     simulated time over which arrivals are drawn
 * @param maxRequests  hard cap on requests per run
 * @param faults       faults injected into pods during the run, at simulated times; empty for most scenarios
 */
public record Scenario(String name, String summary, FleetSpec fleet, LongFunction<Workload> workloads,
                       ArrivalProcess arrivals, double defaultLoad, Duration duration, int maxRequests,
                       List<PodFault> faults) {

    public Scenario {
        faults = List.copyOf(faults);
        for (PodFault f : faults) {
            if (f.pod() >= fleet.pods().size()) {
                throw new IllegalArgumentException("fault on pod " + f.pod() + " but the fleet has "
                        + fleet.pods().size());
            }
        }
    }

    public Scenario(String name, String summary, FleetSpec fleet, LongFunction<Workload> workloads,
                    ArrivalProcess arrivals, double defaultLoad, Duration duration, int maxRequests) {
        this(name, summary, fleet, workloads, arrivals, defaultLoad, duration, maxRequests, List.of());
    }

    public Workload workload(long seed) {
        return workloads.apply(seed);
    }

    /**
     * What the fleet sustains on this workload, requests per simulated second, measured with the simulator
     * in virtual time (see {@link CapacityProbe}); the same for every run seed.
     */
    public double capacity() {
        return CapacityProbe.requestsPerSecond(fleet, workload(CapacityProbe.PROBE_SEED));
    }

    /** The same without affinity (every pod sees every prefix group and adapter), for comparison. */
    public double blindCapacity() {
        return CapacityProbe.blindRequestsPerSecond(fleet, workload(CapacityProbe.PROBE_SEED));
    }

    public double rateForLoad(double load) {
        return load * capacity();
    }

    public RequestPlan plan(long seed, double rate, Duration runDuration, int requestCap) {
        return RequestPlan.build(workload(seed), arrivals.withMeanRate(rate), seed, runDuration, requestCap);
    }

    public Scenario withFleet(FleetSpec newFleet) {
        return new Scenario(name, summary, newFleet, workloads, arrivals, defaultLoad, duration, maxRequests, faults);
    }

    /** Seed-derived stream for a workload's fixed texts. */
    static SplittableRandom fixedText(long seed) {
        return Seeds.FIXED_TEXT.stream(seed);
    }
}
