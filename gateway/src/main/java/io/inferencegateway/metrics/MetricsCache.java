package io.inferencegateway.metrics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.inferencegateway.domain.Endpoint;

/**
 * The last good scrape of every endpoint, and how its recent scrapes went. Each endpoint's state is an immutable
 * record replaced whole in the endpoint's entry, so the request path reads it with one lock-free map lookup, or with
 * none through a kept {@link #reader}; scrapes of different endpoints never contend.
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
    public record ScrapeState(EndpointMetrics latest, long lastSuccessNanos, long consecutiveFailures,
            long totalFailures, String lastError) {

        static final ScrapeState NEW = new ScrapeState(null, 0, 0, 0, null);
    }

    /**
     * One endpoint's entry: its state, replaced whole (inside the map's per-key lock). The last good scrape is also
     * kept beside it, so that a reader reaches it in one hop fewer.
     */
    private static final class Slot implements Reader {
        private final Endpoint endpoint;
        private volatile ScrapeState state = ScrapeState.NEW;
        private volatile EndpointMetrics latest;
        private volatile boolean live = true;

        Slot(Endpoint endpoint) {
            this.endpoint = endpoint;
        }

        @Override
        public Endpoint endpoint() {
            return endpoint;
        }

        @Override
        public EndpointMetrics latest() {
            return latest;
        }

        void set(ScrapeState next) {
            state = next;
            latest = next.latest();
        }

        @Override
        public boolean live() {
            return live;
        }
    }

    private final ConcurrentHashMap<Endpoint, Slot> slots = new ConcurrentHashMap<>();

    @Override
    public EndpointMetrics latest(Endpoint endpoint) {
        Slot slot = slots.get(endpoint);
        return slot == null ? null : slot.latest();
    }

    /**
     * The endpoint's entry, created empty if the cache has none yet, so that its first scrape lands where the reader
     * looks; it stops being {@linkplain Reader#live() live} once the endpoint is forgotten.
     */
    @Override
    public Reader reader(Endpoint endpoint) {
        return slots.computeIfAbsent(endpoint, Slot::new);
    }

    /** The endpoint's state, or null for an endpoint never scraped (or forgotten). */
    public ScrapeState state(Endpoint endpoint) {
        Slot slot = slots.get(endpoint);
        ScrapeState state = slot == null ? null : slot.state;
        return state == ScrapeState.NEW ? null : state;
    }

    /**
     * Stores a good scrape. A reading older than the one held (its scrape started earlier) is dropped, so a late
     * response can never overwrite a newer one.
     */
    public void recordSuccess(Endpoint endpoint, EndpointMetrics metrics, long completedNanos) {
        Objects.requireNonNull(metrics, "metrics");
        slots.compute(endpoint, (e, slot) -> {
            Slot s = slot == null ? new Slot(e) : slot;
            ScrapeState prev = s.state;
            if (prev.latest() == null || prev.latest().scrapeStartedNanos() - metrics.scrapeStartedNanos() <= 0) {
                s.set(new ScrapeState(metrics, completedNanos, 0, prev.totalFailures(), prev.lastError()));
            }
            return s;
        });
    }

    /** Counts a failed scrape; the last good metrics stay, and age. */
    public void recordFailure(Endpoint endpoint, String error) {
        slots.compute(endpoint, (e, slot) -> {
            Slot s = slot == null ? new Slot(e) : slot;
            ScrapeState prev = s.state;
            s.set(new ScrapeState(prev.latest(), prev.lastSuccessNanos(), prev.consecutiveFailures() + 1,
                    prev.totalFailures() + 1, error));
            return s;
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

    /**
     * The last good scrapes of those of {@code endpoints} that are not stale ({@link #isStale}): a pool's ready pods,
     * as {@code inference_pool_ready_pods} and the capacity summary count them.
     */
    public List<EndpointMetrics> fresh(List<Endpoint> endpoints, long nowNanos, Duration maxAge) {
        long maxAgeNanos = maxAge.toNanos();
        List<EndpointMetrics> fresh = new ArrayList<>();
        for (Endpoint e : endpoints) {
            EndpointMetrics m = latest(e);
            if (m != null && nowNanos - m.scrapeStartedNanos() <= maxAgeNanos) {
                fresh.add(m);
            }
        }
        return fresh;
    }

    public void forget(Endpoint endpoint) {
        Slot gone = slots.remove(endpoint);
        if (gone != null) {
            gone.live = false;
        }
    }

    /** Forgets every endpoint not in {@code current}: pods that left their pool. */
    public void retainOnly(Collection<Endpoint> current) {
        Set<Endpoint> keep = current instanceof Set<Endpoint> set ? set : Set.copyOf(current);
        for (Endpoint endpoint : slots.keySet()) {
            if (!keep.contains(endpoint)) {
                forget(endpoint);
            }
        }
    }

    /** The endpoints the cache holds state for, as a snapshot. */
    public Set<Endpoint> endpoints() {
        Set<Endpoint> held = new HashSet<>();
        slots.forEach((endpoint, slot) -> {
            if (slot.state != ScrapeState.NEW) {
                held.add(endpoint);
            }
        });
        return Set.copyOf(held);
    }
}
