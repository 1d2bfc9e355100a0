package io.inferencegateway.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.inferencegateway.lab.bench.fleet.FleetSpec;
import io.inferencegateway.lab.bench.workload.ArrivalProcess;
import io.inferencegateway.lab.bench.workload.ChatMessage;
import io.inferencegateway.lab.bench.workload.RequestSpec;
import io.inferencegateway.lab.bench.workload.Workload;
import io.inferencegateway.lab.bench.workload.WorkloadShape;
import io.inferencegateway.simulator.EngineCore;
import io.inferencegateway.simulator.VirtualTimeRunner;

class CapacityProbeTest {

    private static final String MODEL = ScenarioCatalog.DEFAULT_MODEL;

    private static Scenario named(String name) {
        return ScenarioCatalog.byName(name, MODEL).orElseThrow();
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
        double mu = CapacityProbe.estimate(s.fleet(), workload, 1).shares().get(0).requestsPerSecond();
        EngineCore engine = new EngineCore(CapacityProbe.engineConfig(s.fleet()));
        VirtualTimeRunner runner = new VirtualTimeRunner(engine);
        CapacityProbe.ShareStream stream = new CapacityProbe.ShareStream(workload, s.fleet(), Set.of(), 1.0);
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
        Set<String> keys = Set.of(s.fleet().loraAdapters().get(0), s.fleet().loraAdapters().get(5));
        CapacityProbe.Measurement a = CapacityProbe.measure(s.fleet(), s.workload(CapacityProbe.PROBE_SEED), keys, 0);
        CapacityProbe.Measurement b = CapacityProbe.measure(s.fleet(), s.workload(CapacityProbe.PROBE_SEED), keys, 0);
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
        CapacityProbe.Measurement grouped = CapacityProbe.estimate(s.fleet(), w, 4).shares().get(0);
        CapacityProbe.Measurement blind = CapacityProbe.estimate(s.fleet(), w, 1).shares().get(0);
        assertThat(grouped.prefixHitRate()).isGreaterThan(0.85);
        assertThat(blind.prefixHitRate()).isLessThan(0.5);
        assertThat(grouped.requestsPerSecond()).isGreaterThan(2 * blind.requestsPerSecond());
        assertThat(grouped.meanBatch()).isGreaterThan(0.9 * s.fleet().maxNumSeqs());
    }

    /** A share takes the requests of its keys and an even part of the unkeyed ones, in workload order. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "key a, half the unkeyed        | a   | 0.5  | a,-,b,-,-,a,- | 0,3,5",
        "keys a and b, no unkeyed       | a b | 0    | a,-,b,-,a     | 0,2,4",
        "no keys, every unkeyed         |     | 1.0  | a,-,b,-,-     | 1,3,4",
        "no keys, a quarter of unkeyed  |     | 0.25 | -,-,-,-,-,-,-,- | 3,7",
    })
    void aShareTakesItsKeysAndItsPartOfTheUnkeyed(String name, String keys, double unkeyedShare, String script,
                                                 String expected) {
        String[] k = script.split(",");
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
        Set<String> keySet = keys == null ? Set.of() : Set.of(keys.trim().split(" "));
        CapacityProbe.ShareStream stream = new CapacityProbe.ShareStream(scripted, named("uniform").fleet(), keySet,
                unkeyedShare);
        List<String> got = new ArrayList<>();
        int count = expected.split(",").length;
        for (int i = 0; i < count; i++) {
            String content = stream.next().messages().get(0).content();
            got.add(content.substring("request ".length()));
        }
        assertThat(String.join(",", got)).isEqualTo(expected);
    }

    /**
     * Keys by descending popularity, each to the lightest share that has room (at most ceil(keys/shares));
     * unkeyed traffic then fills the lightest shares up.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "four equal keys, two shares           | a=10 b=10 c=10 d=10 | 0   | 2 | a c;b d | 0.5 0.5   | 0 0",
        "a hot key: the key cap puts d with it | a=60 b=20 c=10 d=10 | 0   | 2 | a d;b c | 0.7 0.3   | 0 0",
        "unkeyed levels the shares             | a=30 b=10           | 60  | 2 | a;b     | 0.5 0.5   | 0.333333 0.666667",
        "a hot key unkeyed cannot level        | a=70 b=10           | 20  | 2 | a;b     | 0.7 0.3   | 0 1",
        "unkeyed only                          |                     | 100 | 4 | ;;;     | 0.25 0.25 0.25 0.25 | 0.25 0.25 0.25 0.25",
    })
    void keysAreDealtByPopularityAndUnkeyedTrafficFillsUp(String name, String counts, int unkeyed, int shares,
                                                         String keys, String traffic, String unkeyedShare) {
        Map<String, Integer> c = new LinkedHashMap<>();
        if (counts != null) {
            for (String kv : counts.trim().split(" ")) {
                c.put(kv.split("=")[0], Integer.parseInt(kv.split("=")[1]));
            }
        }
        AffinityPartition p = AffinityPartition.of(c, unkeyed, shares);
        String[] expectedKeys = (keys == null ? "" : keys).split(";", -1);
        for (int s = 0; s < shares; s++) {
            Set<String> want = expectedKeys[s].isBlank() ? Set.of() : Set.of(expectedKeys[s].trim().split(" "));
            assertThat(p.keys().get(s)).as("keys of share %d", s).isEqualTo(want);
        }
        assertThat(p.traffic()).containsExactly(doubles(traffic), within(1e-6));
        assertThat(p.unkeyedShare()).containsExactly(doubles(unkeyedShare), within(1e-6));
    }

    private static double[] doubles(String s) {
        return java.util.Arrays.stream(s.trim().split(" ")).mapToDouble(Double::parseDouble).toArray();
    }

    /** Zipf(1) over 16 adapters: the share with the hottest adapter carries over a quarter and sets the limit. */
    @Test
    void theShareWithTheHottestAdapterLimitsTheLoraFleet() {
        Scenario s = named("lora");
        CapacityProbe.Estimate e = CapacityProbe.estimate(s.fleet(), s.workload(CapacityProbe.PROBE_SEED), 4);
        assertThat(e.partition().keys()).allSatisfy(keys -> assertThat(keys).hasSize(4));
        double hottest = java.util.Arrays.stream(e.partition().traffic()).max().orElseThrow();
        assertThat(hottest).isGreaterThan(0.3);
        double perPodIfBalanced = e.shares().stream().mapToDouble(CapacityProbe.Measurement::requestsPerSecond).min()
                .orElseThrow();
        assertThat(e.requestsPerSecond()).isLessThan(0.9 * 4 * perPodIfBalanced);
        // blind routing keeps every batch full with whatever adapters are loaded: the fleet's capacity is the better one
        assertThat(s.capacity()).isEqualTo(Math.max(e.requestsPerSecond(), s.blindCapacity()));
    }

    @Test
    void fleetCapacityIsTheReferencePodTimesTheSumOfSpeeds() {
        Scenario s = named("uniform");
        FleetSpec fleet = s.fleet();
        CapacityProbe.Estimate e = CapacityProbe.estimate(fleet, s.workload(CapacityProbe.PROBE_SEED), 4);
        assertThat(e.partition().traffic()).containsOnly(0.25);
        double perPod = e.shares().stream().mapToDouble(CapacityProbe.Measurement::requestsPerSecond).min()
                .orElseThrow();
        assertThat(e.requestsPerSecond()).isCloseTo(4 * perPod, within(1e-9));
        assertThat(s.capacity()).isEqualTo(Math.max(e.requestsPerSecond(), s.blindCapacity()));
        assertThat(s.rateForLoad(0.85)).isCloseTo(0.85 * s.capacity(), within(1e-9));
    }
}
