package io.inferencegateway.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.inferencegateway.lab.bench.fleet.PodSpec;
import io.inferencegateway.lab.bench.workload.OnOffArrivals;
import io.inferencegateway.lab.bench.workload.PlannedRequest;
import io.inferencegateway.lab.bench.workload.PoissonArrivals;
import io.inferencegateway.lab.bench.workload.PrioritizedWorkload;
import io.inferencegateway.lab.bench.workload.RequestPlan;

class ScenarioCatalogTest {

    private static final String MODEL = ScenarioCatalog.DEFAULT_MODEL;

    private static Scenario named(String name) {
        return ScenarioCatalog.byName(name, MODEL).orElseThrow();
    }

    private static RequestPlan defaultPlan(Scenario s) {
        return s.plan(42, s.rateForLoad(s.defaultLoad()), Duration.ofSeconds(10), s.maxRequests());
    }

    @Test
    void theNamedScenarios() {
        assertThat(ScenarioCatalog.names()).containsExactly("shared-prefix", "lora", "mixed", "bursty", "heterogeneous",
                "uniform", "priorities", "faults", "slo", "slo-tight", "global");
        assertThat(ScenarioCatalog.defaultNames()).as("run without --scenario: the routing comparisons")
                .containsExactly("shared-prefix", "lora", "mixed", "bursty", "heterogeneous", "uniform");
        assertThat(ScenarioCatalog.byName("nope", MODEL)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"shared-prefix", "lora", "mixed", "bursty", "heterogeneous", "uniform", "priorities", "faults", "slo",
        "slo-tight"})
    void everyRequestTargetsAModelTheFleetServes(String name) {
        Scenario s = named(name);
        Set<String> served = new HashSet<>(s.fleet().loraAdapters());
        served.add(s.fleet().modelName());
        RequestPlan plan = defaultPlan(s);
        assertThat(plan.size()).isPositive();
        assertThat(plan.requests()).allSatisfy(r -> assertThat(served).contains(r.spec().model()));
        assertThat(s.capacity()).isPositive();
    }

    @Test
    void sharedPrefixUsesLongSystemPromptsOverflowingOnePodsCache() {
        Scenario s = named("shared-prefix");
        PlannedRequest r = defaultPlan(s).requests().get(0);
        assertThat(r.spec().messages().get(0).role()).isEqualTo("system");
        assertThat(r.spec().messages().get(0).content()).hasSize(2048 * 4);
        int promptBlocks = 128 * 2048 / 16;
        assertThat(promptBlocks).isGreaterThan(2 * s.fleet().kvBlocksPerPod());
        assertThat(promptBlocks / s.fleet().pods().size()).isLessThan(s.fleet().kvBlocksPerPod());
    }

    @Test
    void loraHasSixteenAdaptersFourPerPodAndSkewedPopularity() {
        Scenario s = named("lora");
        assertThat(s.fleet().loraAdapters()).hasSize(16).first().isEqualTo("llama-3.1-8b-instruct-lora-0");
        assertThat(s.fleet().maxLoras()).isEqualTo(4);
        List<String> models = defaultPlan(s).requests().stream().map(r -> r.spec().model()).toList();
        long top = models.stream().filter("llama-3.1-8b-instruct-lora-0"::equals).count();
        long last = models.stream().filter("llama-3.1-8b-instruct-lora-15"::equals).count();
        assertThat(top).isGreaterThan(5 * last);
    }

    @Test
    void mixedHasAllThreeKinds() {
        Set<String> kinds = new HashSet<>();
        defaultPlan(named("mixed")).requests().forEach(r -> kinds.add(r.spec().kind()));
        assertThat(kinds).containsExactlyInAnyOrder("prefix", "lora", "unique");
    }

    @Test
    void burstyArrivesInBurstsAndHeterogeneousHasHalfSpeedPods() {
        assertThat(named("bursty").arrivals()).isInstanceOf(OnOffArrivals.class);
        assertThat(named("heterogeneous").fleet().pods()).extracting(PodSpec::speedFactor)
                .containsExactly(1.0, 1.0, 0.5, 0.5);
        assertThat(named("uniform").fleet().pods()).extracting(PodSpec::speedFactor).containsOnly(1.0);
    }

    @Test
    void prioritiesIsTheBurstyTrafficWithASeededMixOfClasses() {
        Scenario priorities = named("priorities");
        Scenario bursty = named("bursty");
        assertThat(priorities.arrivals()).isEqualTo(bursty.arrivals());
        RequestPlan plan = priorities.plan(42, 20, Duration.ofSeconds(60), 3000);
        RequestPlan same = bursty.plan(42, 20, Duration.ofSeconds(60), 3000);
        assertThat(plan.size()).isEqualTo(same.size()).isGreaterThan(1000);
        for (int i = 0; i < plan.size(); i++) {
            assertThat(plan.requests().get(i).spec().messages()).isEqualTo(same.requests().get(i).spec().messages());
            assertThat(plan.requests().get(i).offsetNanos()).isEqualTo(same.requests().get(i).offsetNanos());
        }
        java.util.Map<String, Long> classes = plan.requests().stream().collect(java.util.stream.Collectors.groupingBy(
                r -> r.spec().priority(), java.util.stream.Collectors.counting()));
        assertThat(classes.keySet()).containsExactlyInAnyOrder("critical", "standard", "sheddable");
        assertThat(classes.get("critical") / (double) plan.size()).isCloseTo(0.2, within(0.04));
        assertThat(classes.get("standard") / (double) plan.size()).isCloseTo(0.5, within(0.04));
        assertThat(classes.get("sheddable") / (double) plan.size()).isCloseTo(0.3, within(0.04));
        assertThat(priorities.plan(42, 20, Duration.ofSeconds(60), 3000).requests())
                .extracting(r -> r.spec().priority())
                .as("the same seed gives the same classes").isEqualTo(plan.requests().stream()
                        .map(r -> r.spec().priority()).toList());
        assertThat(bursty.plan(42, 20, Duration.ofSeconds(10), 3000).requests())
                .allSatisfy(r -> assertThat(r.spec().priority()).isEmpty());
    }

    @Test
    void sloMixesThreeLatencyClassesEachWithItsPriorityAndTargets() {
        assertThat(ScenarioCatalog.SLO_MIX).extracting(s -> s.slo().name(), PrioritizedWorkload.Share::priority,
                        PrioritizedWorkload.Share::weight, s -> s.slo().ttft(), s -> s.slo().tpot())
                .containsExactly(
                        tuple("interactive", "critical", 0.4, Duration.ofMillis(500), Duration.ofMillis(50)),
                        tuple("standard", "standard", 0.4, Duration.ofSeconds(2), Duration.ZERO),
                        tuple("batch", "sheddable", 0.2, Duration.ofSeconds(20), Duration.ZERO));
    }

    @Test
    void sloRunsUniquePromptsOnEightPodsHalfAtHalfSpeedWithEveryRequestInAClass() {
        Scenario slo = named("slo");
        assertThat(slo.fleet().pods()).extracting(PodSpec::speedFactor)
                .containsExactly(1.0, 1.0, 1.0, 1.0, 0.5, 0.5, 0.5, 0.5);
        assertThat(slo.arrivals()).isInstanceOf(PoissonArrivals.class);
        assertThat(ScenarioCatalog.defaultNames()).as("run only when named").doesNotContain("slo");
        assertThat(ScenarioCatalog.FLOW_CONTROL).as("compared against today's best configuration").contains("slo");

        RequestPlan plan = slo.plan(42, 100, Duration.ofSeconds(20), 3000);
        Map<String, Long> classes = plan.requests().stream().collect(Collectors.groupingBy(
                r -> r.spec().slo().name() + "/" + r.spec().priority(), Collectors.counting()));
        assertThat(classes.keySet()).containsExactlyInAnyOrder("interactive/critical", "standard/standard",
                "batch/sheddable");
        assertThat(classes.get("interactive/critical") / (double) plan.size()).isCloseTo(0.4, within(0.04));
        assertThat(classes.get("standard/standard") / (double) plan.size()).isCloseTo(0.4, within(0.04));
        assertThat(classes.get("batch/sheddable") / (double) plan.size()).isCloseTo(0.2, within(0.04));
        assertThat(plan.requests()).allSatisfy(r -> assertThat(r.spec().kind()).isEqualTo("unique"));
    }

    @ParameterizedTest(name = "load {0}")
    @CsvSource({"0.8", "1.0", "1.2"})
    void sloRunsAtLoadsAroundCapacityWithoutHittingTheRequestCap(double load) {
        Scenario slo = named("slo");
        RequestPlan plan = slo.plan(42, slo.rateForLoad(load), slo.duration(), slo.maxRequests());
        assertThat(plan.size()).as("arrivals span the whole run at %s of capacity", load)
                .isLessThan(slo.maxRequests());
        assertThat(plan.requests().get(plan.size() - 1).offsetNanos())
                .isGreaterThan(slo.duration().toNanos() * 9 / 10);
    }

    @Test
    void sloTightIsTheSloFleetAndTrafficWithTighterTargetsPastCapacity() {
        Scenario tight = named("slo-tight");
        Scenario slo = named("slo");
        assertThat(tight.fleet()).isEqualTo(slo.fleet());
        assertThat(tight.arrivals()).isEqualTo(slo.arrivals());
        assertThat(tight.defaultLoad()).as("overload").isEqualTo(1.2);
        assertThat(ScenarioCatalog.defaultNames()).as("run only when named").doesNotContain("slo-tight");
        assertThat(ScenarioCatalog.FLOW_CONTROL).contains("slo-tight");
        assertThat(ScenarioCatalog.SLO_TIGHT_MIX).extracting(s -> s.slo().name(), PrioritizedWorkload.Share::priority,
                        PrioritizedWorkload.Share::weight, s -> s.slo().ttft(), s -> s.slo().tpot())
                .containsExactly(
                        tuple("interactive", "critical", 0.4, Duration.ofMillis(300), Duration.ofMillis(50)),
                        tuple("standard", "standard", 0.4, Duration.ofMillis(1200), Duration.ZERO),
                        tuple("batch", "sheddable", 0.2, Duration.ofSeconds(12), Duration.ZERO));

        // the same prompts at the same moments as slo's, each with its class's tighter targets
        RequestPlan plan = tight.plan(42, 100, Duration.ofSeconds(20), 3000);
        RequestPlan same = slo.plan(42, 100, Duration.ofSeconds(20), 3000);
        assertThat(plan.size()).isEqualTo(same.size());
        for (int i = 0; i < plan.size(); i++) {
            assertThat(plan.requests().get(i).spec().messages()).isEqualTo(same.requests().get(i).spec().messages());
            assertThat(plan.requests().get(i).spec().slo().name())
                    .isEqualTo(same.requests().get(i).spec().slo().name());
        }
        // at its default load the arrivals still span the run
        RequestPlan overload = tight.plan(42, tight.rateForLoad(tight.defaultLoad()), tight.duration(),
                tight.maxRequests());
        assertThat(overload.size()).isLessThan(tight.maxRequests());
    }

    @Test
    void faultsBreaksFourOfFivePodsOneWayEachDuringTheRun() {
        Scenario faults = named("faults");
        assertThat(faults.fleet().pods()).hasSize(5);
        assertThat(faults.faults()).extracting(f -> f.kind()).containsExactly(
                io.inferencegateway.lab.bench.fleet.PodFault.Kind.KILL,
                io.inferencegateway.lab.bench.fleet.PodFault.Kind.SLOW,
                io.inferencegateway.lab.bench.fleet.PodFault.Kind.UNAVAILABLE,
                io.inferencegateway.lab.bench.fleet.PodFault.Kind.BROKEN_METRICS);
        assertThat(faults.faults()).extracting(f -> f.pod()).containsExactly(0, 1, 2, 3);
        assertThat(faults.faults()).allSatisfy(f -> assertThat(f.atSeconds())
                .as("mid-run, with traffic before and after").isGreaterThan(0)
                .isLessThan(faults.duration().toSeconds() * 0.75));
        assertThat(named("uniform").faults()).isEmpty();
    }

    @Test
    void modelNameIsConfigurable() {
        Scenario s = ScenarioCatalog.byName("lora", "Qwen/Qwen2.5-7B-Instruct").orElseThrow();
        assertThat(s.fleet().modelName()).isEqualTo("Qwen/Qwen2.5-7B-Instruct");
        assertThat(s.fleet().loraAdapters()).first().isEqualTo("qwen2.5-7b-instruct-lora-0");
    }

    @ParameterizedTest(name = "{0} req/s × {1} tokens within {2} events/s -> {3}")
    @CsvSource({
        "100, 96, 2000, 0.2",      // 10,000 events/s simulated: run at a fifth of real time
        "10, 46, 2000, 4.0",       // 500 events/s: four times faster than real time
        "1, 1, 2000, 10",          // capped
        "1000, 1000, 100, 0.05",   // floored
        "30, 63, 2000, 0.99",      // 2,010 events/s: just under 1.0, rounded down to two digits
    })
    void timeScaleKeepsTheEventRateWithinBudget(double rate, double tokens, double budget, double expected) {
        double scale = TimeScaleChooser.choose(rate, tokens, budget);
        assertThat(scale).isCloseTo(expected, within(1e-12));
        if (scale > TimeScaleChooser.MIN_SCALE) {
            assertThat(TimeScaleChooser.simulatedEventRate(rate, tokens) * scale).isLessThanOrEqualTo(budget + 1e-6);
        }
    }
}
