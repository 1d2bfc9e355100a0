package io.inferencegateway.scheduling.plugins;

import static io.inferencegateway.scheduling.Scenarios.adapter;
import static io.inferencegateway.scheduling.Scenarios.base;
import static io.inferencegateway.scheduling.Scenarios.cycle;
import static io.inferencegateway.scheduling.Scenarios.scrape;
import static io.inferencegateway.scheduling.Scenarios.states;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.scheduling.framework.EndpointState;

class LoraAffinityScorerTest {

    static Stream<Arguments> tiers() {
        return Stream.of(
                Arguments.of("adapter in the running batch: loaded, 1.0", Set.of("sql", "chat"), Set.of(), 2, 1.0),
                Arguments.of("running wins even when the pod reports no max_lora", Set.of("sql"), Set.of(), -1, 1.0),
                Arguments.of("absent, 1 of 4 slots used: loadable at once, 0.8", Set.of("chat"), Set.of(), 4, 0.8),
                Arguments.of("absent, nothing loaded at all: free slot, 0.8", Set.of(), Set.of(), 1, 0.8),
                Arguments.of("waiting there and a slot free: the free-slot rule comes first, 0.8", Set.of(),
                        Set.of("sql"), 2, 0.8),
                Arguments.of("overlap counted once: {chat,law} ∪ {chat} = 2 < 3, 0.8", Set.of("chat", "law"),
                        Set.of("chat"), 3, 0.8),
                Arguments.of("queued there, all 2 slots taken: 0.6", Set.of("chat"), Set.of("sql"), 2, 0.6),
                Arguments.of("queued there, engine does not say max_lora: 0.6", Set.of(), Set.of("sql"), -1, 0.6),
                Arguments.of("absent and all 2 slots taken: 0", Set.of("chat", "law"), Set.of(), 2, 0.0),
                Arguments.of("absent, slots taken by waiting adapters: 0", Set.of("chat"), Set.of("law"), 2, 0.0),
                Arguments.of("absent, max_lora unknown: no evidence, 0", Set.of("chat"), Set.of(), -1, 0.0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tiers")
    void scoresTheRequestedAdapter(String scenario, Set<String> running, Set<String> waiting, int maxLora,
            double expected) {
        List<EndpointState> s = states(scrape().lora(running, waiting, maxLora).build());
        double[] scores = new double[1];
        new LoraAffinityScorer().score(cycle(adapter("sql")), s, scores);
        assertThat(scores[0]).isEqualTo(expected);
    }

    @Test
    void baseModelRequestsAreNeutral() {
        List<EndpointState> s = states(scrape().lora(Set.of("sql"), Set.of(), 4).build(),
                scrape().lora(Set.of(), Set.of(), 4).build());
        double[] scores = {0, 0};
        new LoraAffinityScorer().score(cycle(base("hello")), s, scores);
        assertThat(scores).containsExactly(0.0, 0.0);
    }

    @Test
    void neverScrapedPodHasNoAffinity() {
        double[] scores = {0.5};
        new LoraAffinityScorer().score(cycle(adapter("sql")), states((io.inferencegateway.metrics.EndpointMetrics) null),
                scores);
        assertThat(scores[0]).isEqualTo(0.0);
    }
}
