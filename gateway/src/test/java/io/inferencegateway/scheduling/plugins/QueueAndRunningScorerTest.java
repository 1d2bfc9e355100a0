package io.inferencegateway.scheduling.plugins;

import static io.inferencegateway.scheduling.Scenarios.base;
import static io.inferencegateway.scheduling.Scenarios.cycle;
import static io.inferencegateway.scheduling.Scenarios.scrape;
import static io.inferencegateway.scheduling.Scenarios.states;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.Scorer;

/** queue-scorer and running-requests-scorer share min-max normalisation; each is checked on its own field. */
class QueueAndRunningScorerTest {

    static Stream<Arguments> minMax() {
        return Stream.of(
                Arguments.of("lowest scores 1, highest 0, middle halfway: (4-2)/(4-0)", new int[] {0, 2, 4},
                        new double[] {1.0, 0.5, 0.0}),
                Arguments.of("only relative: 10 and 12 still give 1 and 0", new int[] {10, 12},
                        new double[] {1.0, 0.0}),
                Arguments.of("quarter steps: (8-2)/(8-0)=0.75, (8-6)/8=0.25", new int[] {2, 0, 8, 6},
                        new double[] {0.75, 1.0, 0.0, 0.25}),
                Arguments.of("all equal: nobody is worse, all 1.0", new int[] {3, 3, 3},
                        new double[] {1.0, 1.0, 1.0}),
                Arguments.of("all idle: 1.0", new int[] {0, 0}, new double[] {1.0, 1.0}),
                Arguments.of("a single endpoint: 1.0", new int[] {7}, new double[] {1.0}));
    }

    @ParameterizedTest(name = "queue: {0}")
    @MethodSource("minMax")
    void queueScorerOnWaiting(String scenario, int[] values, double[] expected) {
        EndpointMetrics[] scrapes = Arrays.stream(values).mapToObj(v -> scrape(v, 99, 0.5))
                .toArray(EndpointMetrics[]::new);
        assertThat(run(LoadScorer.queue(), states(scrapes))).containsExactly(expected, within(1e-12));
    }

    @ParameterizedTest(name = "running: {0}")
    @MethodSource("minMax")
    void runningScorerOnRunning(String scenario, int[] values, double[] expected) {
        EndpointMetrics[] scrapes = Arrays.stream(values).mapToObj(v -> scrape(99, v, 0.5))
                .toArray(EndpointMetrics[]::new);
        assertThat(run(LoadScorer.runningRequests(), states(scrapes))).containsExactly(expected, within(1e-12));
    }

    static double[] run(Scorer scorer, List<EndpointState> states) {
        double[] scores = new double[states.size()];
        scorer.score(cycle(base("")), states, scores);
        return scores;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kv")
    void kvCacheScorer(String scenario, double kv, double expected) {
        assertThat(run(LoadScorer.kvCache(), states(scrape().kv(kv).build()))[0]).isCloseTo(expected, within(1e-12));
    }

    static Stream<Arguments> kv() {
        return Stream.of(
                Arguments.of("empty cache: 1 - 0 = 1", 0.0, 1.0),
                Arguments.of("a quarter used: 1 - 0.25", 0.25, 0.75),
                Arguments.of("absolute, not relative: 0.35 used gives 0.65 whatever the others", 0.35, 0.65),
                Arguments.of("full cache: 0", 1.0, 0.0),
                Arguments.of("engine without a KV metric: no evidence of headroom, 0", Double.NaN, 0.0));
    }
}
