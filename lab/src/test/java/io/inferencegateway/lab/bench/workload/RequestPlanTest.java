package io.inferencegateway.lab.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class RequestPlanTest {

    private static Workload sharedPrefix(long seed) {
        return new SharedPrefixWorkload("m", 8, 64, new IntRange(8, 32), new IntRange(4, 16),
                Seeds.FIXED_TEXT.stream(seed));
    }

    private static RequestPlan plan(long seed, double rate) {
        return RequestPlan.build(sharedPrefix(seed), new PoissonArrivals(rate), seed, Duration.ofSeconds(10), 1000);
    }

    @Test
    void sameSeedGivesTheSameRequestsArrivalTimesAndPrompts() {
        assertThat(plan(42, 20).requests()).isEqualTo(plan(42, 20).requests());
        assertThat(RequestPlan.build(new LoraWorkload(List.of("a", "b", "c"), 1, new IntRange(4, 40), IntRange.of(3), 2),
                new OnOffArrivals(5, 2, 1, 1), 9, Duration.ofSeconds(20), 500).requests())
                .isEqualTo(RequestPlan.build(new LoraWorkload(List.of("a", "b", "c"), 1, new IntRange(4, 40),
                        IntRange.of(3), 2), new OnOffArrivals(5, 2, 1, 1), 9, Duration.ofSeconds(20), 500).requests());
    }

    @Test
    void anotherSeedGivesOtherArrivalsAndPrompts() {
        List<PlannedRequest> a = plan(42, 20).requests();
        List<PlannedRequest> b = plan(43, 20).requests();
        assertThat(a.get(0).offsetNanos()).isNotEqualTo(b.get(0).offsetNanos());
        assertThat(a.get(0).spec().messages()).isNotEqualTo(b.get(0).spec().messages());
    }

    @Test
    void theRateChangesArrivalsButNotPrompts() {
        List<PlannedRequest> slow = plan(42, 10).requests();
        List<PlannedRequest> fast = plan(42, 30).requests();
        assertThat(fast.size()).isGreaterThan(slow.size() * 2);
        for (int i = 0; i < slow.size(); i++) {
            assertThat(fast.get(i).spec()).isEqualTo(slow.get(i).spec());
        }
    }

    @Test
    void stopsAtTheDurationOrTheRequestCap() {
        RequestPlan byDuration = plan(1, 50);
        assertThat(byDuration.requests()).allSatisfy(r -> assertThat(r.offsetNanos()).isLessThan(10_000_000_000L));
        assertThat(byDuration.size()).isBetween(400, 600);
        assertThat(byDuration.durationNanos()).isEqualTo(10_000_000_000L);

        RequestPlan byCount = RequestPlan.build(sharedPrefix(1), new PoissonArrivals(50), 1, Duration.ofSeconds(10), 25);
        assertThat(byCount.size()).isEqualTo(25);
        assertThat(byCount.requests()).extracting(PlannedRequest::index).containsExactlyElementsOf(
                java.util.stream.IntStream.range(0, 25).boxed().toList());
    }

    @Test
    void arrivalsAreInOrder() {
        List<PlannedRequest> requests = plan(5, 100).requests();
        for (int i = 1; i < requests.size(); i++) {
            assertThat(requests.get(i).offsetNanos()).isGreaterThan(requests.get(i - 1).offsetNanos());
        }
    }

    @Test
    void sharedPrefixGroupsShareTheirSystemPromptExactly() {
        SharedPrefixWorkload workload = new SharedPrefixWorkload("m", 4, 2048, IntRange.of(64), IntRange.of(8),
                new SplittableRandom(1));
        SplittableRandom content = new SplittableRandom(2);
        java.util.Map<String, String> systemByGroup = new java.util.HashMap<>();
        for (int i = 0; i < 200; i++) {
            RequestSpec spec = workload.next(i, content);
            String system = spec.messages().get(0).content();
            assertThat(system).hasSize(8192); // 2,048 tokens × 4 characters
            String previous = systemByGroup.putIfAbsent(spec.key(), system);
            if (previous != null) {
                assertThat(system).isSameAs(previous);
            }
            assertThat(spec.messages().get(1).content()).hasSize(256).startsWith("Question " + i + ":");
        }
        assertThat(systemByGroup).hasSize(4);
        // different groups differ within the first cache block (16 tokens = 64 characters)
        assertThat(systemByGroup.values().stream().map(s -> s.substring(0, 64)).distinct()).hasSize(4);
    }
}
