package io.inferencegateway.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InFlightRequests;

class MetricsCacheTest {

    private static final Endpoint A = new Endpoint("10.0.0.1", 8000);
    private static final Endpoint B = new Endpoint("10.0.0.2", 8000);

    private final MetricsCache cache = new MetricsCache();

    static EndpointMetrics metrics(int waiting, long startedNanos) {
        return new EndpointMetrics(waiting, 1, 0.5, Set.of(), Set.of(), -1, 16, 1000, Double.NaN, Double.NaN,
                startedNanos, InFlightRequests.Counters.ZERO, null);
    }

    @Test
    void unknownEndpointHasNoMetricsAndIsStale() {
        assertThat(cache.latest(A)).isNull();
        assertThat(cache.state(A)).isNull();
        assertThat(cache.isStale(A, 0, Duration.ofSeconds(1))).isTrue();
    }

    @Test
    void keepsTheLastGoodScrape() {
        cache.recordSuccess(A, metrics(3, 100), 150);

        assertThat(cache.latest(A).waiting()).isEqualTo(3);
        assertThat(cache.state(A)).isEqualTo(new MetricsCache.ScrapeState(metrics(3, 100), 150, 0, 0, null));
        assertThat(cache.latest(B)).isNull();
    }

    @Test
    void failuresKeepTheLastGoodMetricsAndCountUntilTheNextSuccess() {
        cache.recordSuccess(A, metrics(3, 100), 150);
        cache.recordFailure(A, "HTTP 503");
        cache.recordFailure(A, "timed out");

        MetricsCache.ScrapeState failing = cache.state(A);
        assertThat(failing.latest().waiting()).isEqualTo(3);
        assertThat(failing.consecutiveFailures()).isEqualTo(2);
        assertThat(failing.totalFailures()).isEqualTo(2);
        assertThat(failing.lastError()).isEqualTo("timed out");

        cache.recordSuccess(A, metrics(4, 300), 320);

        MetricsCache.ScrapeState recovered = cache.state(A);
        assertThat(recovered.latest().waiting()).isEqualTo(4);
        assertThat(recovered.lastSuccessNanos()).isEqualTo(320);
        assertThat(recovered.consecutiveFailures()).isZero();
        assertThat(recovered.totalFailures()).isEqualTo(2);
        assertThat(recovered.lastError()).isEqualTo("timed out");
    }

    @Test
    void failureBeforeAnySuccessLeavesNoMetrics() {
        cache.recordFailure(A, "connection refused");

        assertThat(cache.latest(A)).isNull();
        assertThat(cache.state(A).consecutiveFailures()).isEqualTo(1);
    }

    @Test
    void aLateOlderReadingNeverReplacesANewerOne() {
        cache.recordSuccess(A, metrics(9, 500), 510);
        cache.recordSuccess(A, metrics(1, 400), 520);

        assertThat(cache.latest(A).waiting()).isEqualTo(9);
    }

    @Test
    void stalenessCountsFromTheScrapeStart() {
        cache.recordSuccess(A, metrics(3, 1_000_000_000L), 1_150_000_000L);
        Duration maxAge = Duration.ofMillis(200);

        assertThat(cache.isStale(A, 1_200_000_000L, maxAge)).isFalse();
        assertThat(cache.isStale(A, 1_200_000_001L, maxAge)).isTrue();
    }

    @Test
    void forgetsEndpointsThatLeft() {
        cache.recordSuccess(A, metrics(1, 1), 2);
        cache.recordSuccess(B, metrics(2, 1), 2);

        cache.retainOnly(List.of(B));
        assertThat(cache.endpoints()).containsExactly(B);
        assertThat(cache.latest(A)).isNull();

        cache.forget(B);
        assertThat(cache.endpoints()).isEmpty();
    }
}
