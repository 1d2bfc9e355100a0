package io.inferencegateway.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.inferencegateway.bench.fleet.FleetSpec;
import io.inferencegateway.bench.workload.ArrivalProcess;
import io.inferencegateway.bench.workload.ChatMessage;
import io.inferencegateway.bench.workload.RequestSpec;
import io.inferencegateway.bench.workload.Workload;
import io.inferencegateway.bench.workload.WorkloadShape;
import io.inferencegateway.simulator.EngineCore;
import io.inferencegateway.simulator.VirtualTimeRunner;

class CapacityProbeTest {

    private static final String MODEL = Scenarios.DEFAULT_MODEL;

    private static Scenario named(String name) {
        return Scenarios.byName(name, MODEL).orElseThrow();
    }

    /**
     * The criterion itself: open-loop Poisson arrivals of the uniform scenario's requests into one
     * reference pod for 60 simulated seconds. Below the measured rate the queue stays short; above it,
     * the queue keeps growing (about (λ − μ) × 60 s requests by the end).
     */
    @ParameterizedTest(name = "{0} x capacity: waiting at the end in [{1}, {2}]")
    @CsvSource({
        "0.90, 0,   64",
        "1.10, 250, 1000",
    })
    void theQueueStaysBoundedBelowTheMeasuredRateAndGrowsAboveIt(double load, int minWaiting, int maxWaiting) {
        Scenario s = named("uniform");
        Workload workload = s.workload(CapacityProbe.PROBE_SEED);
        double mu = CapacityProbe.referencePod(s.fleet(), workload, 1).requestsPerSecond();
        EngineCore engine = new EngineCore(CapacityProbe.engineConfig(s.fleet()));
        VirtualTimeRunner runner = new VirtualTimeRunner(engine);
        CapacityProbe.ShareStream stream = new CapacityProbe.ShareStream(workload, s.fleet(), 1);
        SplittableRandom rng = new SplittableRandom(7);
        long end = 60_000_000_000L;
        for (long t = ArrivalProcess.exponentialGapNanos(load * mu, rng); t < end;
             t += ArrivalProcess.exponentialGapNanos(load * mu, rng)) {
            runner.at(t, () -> stream.submitNext(engine, runner.now(), null));
        }
        runner.runUntil(end);
        assertThat(engine.numWaiting()).isBetween(minWaiting, maxWaiting);
    }

    @Test
    void aHalfSpeedPodCountsHalf() {
        // same workload and engines, speeds 1, 1, 0.5, 0.5 instead of four at 1
        assertThat(named("heterogeneous").capacity()).isCloseTo(0.75 * named("uniform").capacity(), within(1e-9));
    }

    @Test
    void theProbeIsDeterministic() {
        Scenario s = named("lora");
        CapacityProbe.Measurement a = CapacityProbe.measure(s.fleet(), s.workload(CapacityProbe.PROBE_SEED), 4);
        CapacityProbe.Measurement b = CapacityProbe.measure(s.fleet(), s.workload(CapacityProbe.PROBE_SEED), 4);
        assertThat(a).isEqualTo(b);
    }

    /**
     * Affinity is what makes the shared-prefix fleet fast: with a quarter of the groups, the reference pod
     * keeps its system prompts cached; with all of them it keeps evicting and prefilling them again.
     */
    @Test
    void sharedPrefixCapacityComesFromKeepingGroupsTogether() {
        Scenario s = named("shared-prefix");
        Workload w = s.workload(CapacityProbe.PROBE_SEED);
        CapacityProbe.Measurement grouped = CapacityProbe.referencePod(s.fleet(), w, 4);
        CapacityProbe.Measurement blind = CapacityProbe.referencePod(s.fleet(), w, 1);
        assertThat(grouped.prefixHitRate()).isGreaterThan(0.85);
        assertThat(blind.prefixHitRate()).isLessThan(0.5);
        assertThat(grouped.requestsPerSecond()).isGreaterThan(2 * blind.requestsPerSecond());
        assertThat(grouped.meanBatch()).isGreaterThan(0.9 * s.fleet().maxNumSeqs());
    }

    /** Keys are dealt to shares in order of first appearance; unkeyed requests one by one. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "two shares, keys a b a c b d | 2 | a,b,a,c,b,d | 0,2,3",
        "three shares, keys a b c a   | 3 | a,b,c,a     | 0,3",
        "two shares, unkeyed          | 2 | -,-,-,-,-   | 0,2,4",
        "one share keeps everything   | 1 | a,-,b,-     | 0,1,2,3",
    })
    void shareZeroTakesEveryNthKeyAndEveryNthUnkeyedRequest(String name, int shares, String keys, String expected) {
        String[] k = keys.split(",");
        Workload scripted = new Workload() {
            @Override
            public RequestSpec next(int index, SplittableRandom content) {
                String key = k[index].equals("-") ? "" : k[index];
                return new RequestSpec(MODEL, List.of(ChatMessage.user("request " + index)), 1, "test", key);
            }

            @Override
            public WorkloadShape shape() {
                return new WorkloadShape(1, 0, 1, 0);
            }

            @Override
            public String describe() {
                return name;
            }
        };
        CapacityProbe.ShareStream stream = new CapacityProbe.ShareStream(scripted, named("uniform").fleet(), shares);
        List<String> got = new ArrayList<>();
        int count = expected.split(",").length;
        for (int i = 0; i < count; i++) {
            String content = stream.next().messages().get(0).content();
            got.add(content.substring("request ".length()));
        }
        assertThat(String.join(",", got)).isEqualTo(expected);
    }

    @Test
    void fleetCapacityIsTheReferencePodTimesTheSumOfSpeeds() {
        Scenario s = named("uniform");
        FleetSpec fleet = s.fleet();
        double perPod = CapacityProbe.referencePod(fleet, s.workload(CapacityProbe.PROBE_SEED), 4).requestsPerSecond();
        assertThat(s.capacity()).isCloseTo(4 * perPod, within(1e-9));
        assertThat(s.rateForLoad(0.85)).isCloseTo(0.85 * 4 * perPod, within(1e-9));
    }
}
