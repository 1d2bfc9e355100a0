package io.inferencegateway.domain;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The gateway's own count of what it sent to each endpoint. Counters only grow, so a reader can take a
 * snapshot at one moment (say, when a metrics scrape starts) and later see what happened since.
 */
public final class InFlightRequests {

    /** Monotonic counters of one endpoint at one moment. */
    public record Counters(long started, long finished, long startedPromptTokens) {
        public static final Counters ZERO = new Counters(0, 0, 0);

        public long inFlight() {
            return started - finished;
        }
    }

    private static final class Slot {
        final AtomicLong started = new AtomicLong();
        final AtomicLong finished = new AtomicLong();
        final AtomicLong startedPromptTokens = new AtomicLong();
    }

    private final ConcurrentHashMap<Endpoint, Slot> slots = new ConcurrentHashMap<>();

    public void started(Endpoint endpoint, int promptTokens) {
        Slot s = slots.computeIfAbsent(endpoint, e -> new Slot());
        s.startedPromptTokens.addAndGet(promptTokens);
        s.started.incrementAndGet();
    }

    public void finished(Endpoint endpoint) {
        Slot s = slots.get(endpoint);
        if (s != null) {
            s.finished.incrementAndGet();
        }
    }

    public long inFlight(Endpoint endpoint) {
        Slot s = slots.get(endpoint);
        return s == null ? 0 : s.started.get() - s.finished.get();
    }

    public Counters snapshot(Endpoint endpoint) {
        Slot s = slots.get(endpoint);
        if (s == null) {
            return Counters.ZERO;
        }
        // finished first: a request counted as finished is always counted as started too
        long finished = s.finished.get();
        return new Counters(s.started.get(), finished, s.startedPromptTokens.get());
    }

    /** Requests sent to any endpoint whose response has not ended yet (a drain waits for it to reach 0). */
    public long total() {
        long open = 0;
        for (Slot s : slots.values()) {
            open += s.started.get() - s.finished.get();
        }
        return open;
    }

    /** Drops an endpoint that left every pool. */
    public void forget(Endpoint endpoint) {
        slots.remove(endpoint);
    }
}
