package io.inferencegateway.scheduling.framework;

import static io.inferencegateway.scheduling.Scenarios.pod;
import static io.inferencegateway.scheduling.Scenarios.scrape;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.domain.InFlightRequests.Counters;
import io.inferencegateway.metrics.EndpointMetrics;

/**
 * The herding correction. Every scrape below saw the gateway's counters at (started 10, finished 4,
 * prompt tokens 5,000): 6 in flight. Its KV geometry is 16-token blocks × 1,000 blocks = 16,000 tokens.
 */
class LoadEstimatorTest {

    private static final Counters AT_SCRAPE = new Counters(10, 4, 5_000);
    private static final long NOW = 10_000_000_000L;

    private static EndpointState estimate(EndpointMetrics m, Counters now) {
        EndpointState s = new EndpointState();
        new LoadEstimator(200_000_000L).estimate(s, pod(1), m, now, NOW);
        return s;
    }

    private static EndpointMetrics scraped(int waiting, int running, double kv) {
        return scrape().waiting(waiting).running(running).kv(kv).kvGeometry(16, 1_000).at(NOW - 30_000_000L)
                .dispatched(AT_SCRAPE).build();
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("nothing sent since: the scrape as is", scraped(2, 10, 0.30), new Counters(10, 4, 5_000),
                        2, 10, 0.30),
                Arguments.of("3 sent, none finished: they queue, 2+3=5; KV +1,600/16,000", scraped(2, 10, 0.30),
                        new Counters(13, 4, 6_600), 5, 10, 0.40),
                Arguments.of("3 sent, 1 finished: net 2 queued; KV +1,600×2/3 tokens", scraped(2, 10, 0.30),
                        new Counters(13, 5, 6_600), 4, 10, 0.30 + 1_600.0 * 2 / 3 / 16_000),
                Arguments.of("1 sent, 4 finished: net -3 drains the 2 queued, then the batch loses 1",
                        scraped(2, 10, 0.30), new Counters(11, 8, 5_400), 0, 9, 0.30),
                Arguments.of("net -2 with 2 queued: queue empties, batch unchanged", scraped(2, 10, 0.30),
                        new Counters(10, 6, 5_000), 0, 10, 0.30),
                Arguments.of("more finished than ran: counts never go below 0", scraped(0, 1, 0.30),
                        new Counters(10, 9, 5_000), 0, 0, 0.30),
                Arguments.of("KV growth is capped at 1: 32,000 tokens into 16,000", scraped(0, 0, 0.50),
                        new Counters(12, 4, 37_000), 2, 0, 1.0),
                Arguments.of("unknown KV stays unknown", scraped(0, 0, Double.NaN), new Counters(12, 4, 7_000), 2, 0,
                        Double.NaN),
                Arguments.of("no KV geometry in the scrape: no growth estimate",
                        scrape().waiting(1).running(3).kv(0.2).at(NOW).dispatched(AT_SCRAPE).build(),
                        new Counters(12, 4, 9_000), 3, 3, 0.2),
                Arguments.of("no counter snapshot in the scrape: no correction at all",
                        scrape().waiting(1).running(3).kv(0.2).kvGeometry(16, 1_000).at(NOW).dispatched(null).build(),
                        new Counters(50, 4, 9_000), 1, 3, 0.2));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void correctsTheScrapeWithWhatWasSentSince(String scenario, EndpointMetrics m, Counters now, int waiting,
            int running, double kv) {
        EndpointState s = estimate(m, now);
        assertThat(s.waiting()).as("waiting").isEqualTo(waiting);
        assertThat(s.running()).as("running").isEqualTo(running);
        if (Double.isNaN(kv)) {
            assertThat(s.kvUsage()).as("kv").isNaN();
        } else {
            assertThat(s.kvUsage()).as("kv").isCloseTo(kv, within(1e-12));
        }
        assertThat(s.inFlight()).isEqualTo(now.inFlight());
    }

    static Stream<Arguments> replicaCases() {
        return Stream.of(
                Arguments.of("one replica: its own 3 sent queue", 1, new Counters(13, 4, 6_600), 5, 10, 0.40),
                Arguments.of("three replicas: 3 sent here stand for 9 at the pod; KV +4,800/16,000", 3,
                        new Counters(13, 4, 6_600), 11, 10, 0.60),
                Arguments.of("three replicas: 1 sent, 2 finished here is net -3 at the pod: drains the 2 queued, "
                        + "then the batch loses 1", 3, new Counters(11, 6, 5_400), 0, 9, 0.30));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("replicaCases")
    void withSeveralReplicasTheirDispatchesCountAsManyTimesAsThereAreReplicas(String scenario, int replicas,
            Counters now, int waiting, int running, double kv) {
        EndpointState s = new EndpointState();
        new LoadEstimator(200_000_000L, replicas).estimate(s, pod(1), scraped(2, 10, 0.30), now, NOW);
        assertThat(s.waiting()).as("waiting").isEqualTo(waiting);
        assertThat(s.running()).as("running").isEqualTo(running);
        assertThat(s.kvUsage()).as("kv").isCloseTo(kv, within(1e-12));
    }

    @Test
    void aNeverScrapedPodCountsEveryReplicasShareOfInFlightAsQueued() {
        EndpointState s = new EndpointState();
        new LoadEstimator(200_000_000L, 3).estimate(s, pod(1), null, new Counters(10, 6, 0), NOW);
        assertThat(s.waiting()).isEqualTo(12);
        assertThat(s.inFlight()).as("this replica's own").isEqualTo(4);
    }

    static Stream<Arguments> ages() {
        return Stream.of(
                Arguments.of("scraped 0 ms ago: fresh", 0L, true),
                Arguments.of("scraped 200 ms ago: fresh (the limit is inclusive)", 200L, true),
                Arguments.of("scraped 201 ms ago: stale", 201L, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ages")
    void judgesFreshnessByTheScrapeStart(String scenario, long ageMs, boolean fresh) {
        EndpointMetrics m = scrape().at(NOW - ageMs * 1_000_000).dispatched(AT_SCRAPE).build();
        assertThat(estimate(m, AT_SCRAPE).fresh()).isEqualTo(fresh);
    }

    @Test
    void aNeverScrapedEndpointCountsItsInFlightRequestsAsQueued() {
        EndpointState s = estimate(null, new Counters(7, 4, 900));
        assertThat(s.fresh()).isFalse();
        assertThat(s.waiting()).isEqualTo(3);
        assertThat(s.running()).isZero();
        assertThat(s.kvUsage()).isNaN();
        assertThat(s.maxLora()).isEqualTo(-1);
        assertThat(s.runningAdapters()).isEmpty();
    }
}
