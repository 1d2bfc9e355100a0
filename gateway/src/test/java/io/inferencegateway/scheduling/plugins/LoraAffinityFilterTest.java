package io.inferencegateway.scheduling.plugins;

import static io.inferencegateway.scheduling.Scenarios.adapter;
import static io.inferencegateway.scheduling.Scenarios.base;
import static io.inferencegateway.scheduling.Scenarios.cycle;
import static io.inferencegateway.scheduling.Scenarios.scrape;
import static io.inferencegateway.scheduling.Scenarios.states;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.scheduling.framework.EndpointState;

class LoraAffinityFilterTest {

    private static EndpointMetrics lora(Set<String> running, Set<String> waiting, int max) {
        return scrape().lora(running, waiting, max).build();
    }

    static Stream<Arguments> cases() {
        EndpointMetrics loaded = lora(Set.of("sql"), Set.of(), 2);
        EndpointMetrics freeSlot = lora(Set.of("chat"), Set.of(), 2);
        EndpointMetrics full = lora(Set.of("chat", "law"), Set.of(), 2);
        EndpointMetrics queuedFull = lora(Set.of("chat", "law"), Set.of("sql"), 2);
        return Stream.of(
                Arguments.of("loaded pods only, though others have free slots", adapter("sql"),
                        List.of(freeSlot, loaded, full, loaded), List.of(1, 3)),
                Arguments.of("none loaded: the pods with a free slot", adapter("sql"),
                        List.of(full, freeSlot, queuedFull, freeSlot), List.of(1, 3)),
                Arguments.of("none loaded, no free slot: the pods where it already waits for a slot",
                        adapter("sql"), List.of(full, queuedFull, full, queuedFull), List.of(1, 3)),
                Arguments.of("none loaded, no free slot, queued nowhere: everyone", adapter("sql"),
                        List.of(full, full), List.of(0, 1)),
                Arguments.of("all loaded: everyone", adapter("sql"), List.of(loaded, loaded), List.of(0, 1)),
                Arguments.of("base-model request: untouched", base("hi"), List.of(loaded, full), List.of(0, 1)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void keepsTheBestTier(String scenario, InferenceRequest request, List<EndpointMetrics> pods,
            List<Integer> keptIndexes) {
        List<EndpointState> all = states(pods.toArray(EndpointMetrics[]::new));
        List<EndpointState> expected = new ArrayList<>();
        keptIndexes.forEach(i -> expected.add(all.get(i)));
        assertThat(new LoraAffinityFilter().filter(cycle(request), all)).containsExactlyElementsOf(expected);
    }
}
