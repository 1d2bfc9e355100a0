package io.inferencegateway.metrics;

import java.time.Duration;
import java.util.Collection;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.inferencegateway.domain.Endpoint;

/**
 * The last good scrape of every endpoint, and how its recent scrapes went. Each endpoint's state is an immutable
 * record replaced whole, so the request path reads it with one lock-free map lookup; scrapes of different endpoints
 * never contend.
 */
public final class MetricsCache implements MetricsView {

    /**
     * What is known about one endpoint.
     *
     * @param latest              the last good scrape, or null if none succeeded yet
     * @param lastSuccessNanos    clock time when the last good scrape completed; 0 while {@code latest} is null
     * @param consecutiveFailures failed scrapes since the last good one
     * @param totalFailures       failed scrapes since the endpoint was first seen
     * @param lastError           what the last failed scrape said, or null if none failed yet
     */
    public record EndpointState(EndpointMetrics latest, long lastSuccessNanos, long consecutiveFailures,
            long totalFailures, String lastError) {

        static final EndpointState NEW = new EndpointState(null, 0, 0, 0, null);
    }

    private final ConcurrentHashMap<Endpoint, EndpointState> states = new ConcurrentHashMap<>();

    @Override
    public EndpointMetrics latest(Endpoint endpoint) {
        EndpointState state = states.get(endpoint);
        return state == null ? null : state.latest();
    }

    /** The endpoint's state, or null for an endpoint never scraped (or forgotten). */
    public EndpointState state(Endpoint endpoint) {
        return states.get(endpoint);
    }

    /**
     * Stores a good scrape. A reading older than the one held (its scrape started earlier) is dropped, so a late
     * response can never overwrite a newer one.
     */
    public void recordSuccess(Endpoint endpoint, EndpointMetrics metrics, long completedNanos) {
        Objects.requireNonNull(metrics, "metrics");
        states.compute(endpoint, (e, old) -> {
            EndpointState prev = old == null ? EndpointState.NEW : old;
            if (prev.latest() != null && prev.latest().scrapeStartedNanos() - metrics.scrapeStartedNanos() > 0) {
                return prev;
            }
            return new EndpointState(metrics, completedNanos, 0, prev.totalFailures(), prev.lastError());
        });
    }

    /** Counts a failed scrape; the last good metrics stay, and age. */
    public void recordFailure(Endpoint endpoint, String error) {
        states.compute(endpoint, (e, old) -> {
            EndpointState prev = old == null ? EndpointState.NEW : old;
            return new EndpointState(prev.latest(), prev.lastSuccessNanos(), prev.consecutiveFailures() + 1,
                    prev.totalFailures() + 1, error);
        });
    }

    /**
     * Whether the endpoint's metrics are too old to steer by: never scraped, or its last good scrape started more
     * than {@code maxAge} before {@code nowNanos}. Age counts from the scrape's start, the earliest moment the numbers
     * can describe.
     */
    public boolean isStale(Endpoint endpoint, long nowNanos, Duration maxAge) {
        EndpointMetrics latest = latest(endpoint);
        return latest == null || nowNanos - latest.scrapeStartedNanos() > maxAge.toNanos();
    }

    public void forget(Endpoint endpoint) {
        states.remove(endpoint);
    }

    /** Forgets every endpoint not in {@code current}: pods that left their pool. */
    public void retainOnly(Collection<Endpoint> current) {
        Set<Endpoint> keep = current instanceof Set<Endpoint> set ? set : Set.copyOf(current);
        states.keySet().removeIf(endpoint -> !keep.contains(endpoint));
    }

    /** The endpoints the cache holds state for, as a snapshot. */
    public Set<Endpoint> endpoints() {
        return Set.copyOf(states.keySet());
    }
}
