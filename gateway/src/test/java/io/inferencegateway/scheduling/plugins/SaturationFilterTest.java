package io.inferencegateway.scheduling.plugins;

import static io.inferencegateway.scheduling.Scenarios.base;
import static io.inferencegateway.scheduling.Scenarios.cycle;
import static io.inferencegateway.scheduling.Scenarios.scrape;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.domain.InFlightRequests.Counters;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.LoadEstimator;

class SaturationFilterTest {

    private static final long STALE_AFTER = 200_000_000L;
    private static final long NOW = 1_000_000_000L;

    /** One pod's state at NOW: scraped {@code ageMs} ago, with {@code sent} requests dispatched since. */
    private static EndpointState pod(EndpointMetrics m, long ageMs, int sent) {
        EndpointState s = new EndpointState();
        EndpointMetrics at = m == null ? null
                : new EndpointMetrics(m.waiting(), m.running(), m.kvUsage(), m.runningAdapters(),
                        m.waitingAdapters(), m.maxLora(), m.kvBlockSize(), m.kvTotalBlocks(), m.prefixCacheQueries(),
                        m.prefixCacheHits(), NOW - ageMs * 1_000_000, Counters.ZERO, m.cluster());
        new LoadEstimator(STALE_AFTER).estimate(s, io.inferencegateway.scheduling.Scenarios.pod(1), at, new Counters(sent, 0, sent * 100L), NOW);
        return s;
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("idle and fresh: kept", scrape(0, 3, 0.1), 10, 0, true),
                Arguments.of("4 waiting, below the limit of 5: kept", scrape(4, 3, 0.1), 10, 0, true),
                Arguments.of("5 waiting, at the limit: saturated", scrape(5, 3, 0.1), 10, 0, false),
                Arguments.of("KV 0.79, below 0.8: kept", scrape(0, 3, 0.79), 10, 0, true),
                Arguments.of("KV 0.8, at the limit: saturated", scrape(0, 3, 0.8), 10, 0, false),
                Arguments.of("KV unknown (engine without it): never saturates on KV", scrape(0, 3, Double.NaN), 10, 0,
                        true),
                Arguments.of("scraped exactly 200 ms ago: still fresh", scrape(0, 0, 0.1), 200, 0, true),
                Arguments.of("scraped 201 ms ago: stale counts as saturated", scrape(0, 0, 0.1), 201, 0, false),
                Arguments.of("never scraped: unknown counts as saturated", null, 0, 0, false),
                Arguments.of("3 waiting + 2 sent since the scrape = 5: saturated before the next scrape says so",
                        scrape(3, 3, 0.1), 10, 2, false),
                Arguments.of("3 waiting + 1 sent = 4: kept", scrape(3, 3, 0.1), 10, 1, true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void decidesSaturation(String scenario, EndpointMetrics m, long ageMs, int sent, boolean kept) {
        EndpointState s = pod(m, ageMs, sent);
        assertThat(new SaturationFilter().saturated(s)).isEqualTo(!kept);
    }

    @Test
    void removesOnlySaturatedEndpointsInOrder() {
        List<EndpointState> all = List.of(pod(scrape(0, 0, 0.1), 10, 0), pod(scrape(9, 0, 0.1), 10, 0),
                pod(scrape(1, 0, 0.1), 10, 0), pod(scrape(0, 0, 0.95), 10, 0));
        List<EndpointState> kept = new SaturationFilter().filter(cycle(base("")), all);
        assertThat(kept).containsExactly(all.get(0), all.get(2));
    }

    @Test
    void returnsTheSameListWhenNothingIsSaturated() {
        List<EndpointState> all = new ArrayList<>(List.of(pod(scrape(0, 0, 0.1), 10, 0), pod(scrape(1, 0, 0.2), 10, 0)));
        assertThat(new SaturationFilter().filter(cycle(base("")), all)).isSameAs(all);
    }

    @Test
    void returnsAnEmptyListWhenAllAreSaturatedTheFrameworkThenFailsOpen() {
        List<EndpointState> all = List.of(pod(scrape(7, 0, 0.1), 10, 0), pod(null, 0, 0));
        assertThat(new SaturationFilter().filter(cycle(base("")), all)).isEmpty();
    }

    @Test
    void thresholdsAreConfigurable() {
        SaturationFilter strict = new SaturationFilter(2, 0.5);
        assertThat(strict.saturated(pod(scrape(2, 0, 0.1), 10, 0))).as("2 waiting at limit 2").isTrue();
        assertThat(strict.saturated(pod(scrape(1, 0, 0.5), 10, 0))).as("KV 0.5 at limit 0.5").isTrue();
        assertThat(strict.saturated(pod(scrape(1, 0, 0.49), 10, 0))).as("below both").isFalse();
    }
}
