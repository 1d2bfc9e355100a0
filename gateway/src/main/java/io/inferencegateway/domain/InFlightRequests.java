package io.inferencegateway.domain;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentHashMap;

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

    /**
     * One endpoint's live counters, in one object (a pick reads them for every candidate, so three separate atomics
     * would be three cache misses). A holder may keep it across requests while {@link #live()}: once the endpoint is
     * {@linkplain #forget forgotten} its counters move to a new tally, which {@link #tally} then returns.
     */
    public static final class EndpointTally {
        private static final VarHandle STARTED;
        private static final VarHandle FINISHED;
        private static final VarHandle PROMPT_TOKENS;
        private static final VarHandle PREFILLING;

        static {
            try {
                MethodHandles.Lookup l = MethodHandles.lookup();
                STARTED = l.findVarHandle(EndpointTally.class, "started", long.class);
                FINISHED = l.findVarHandle(EndpointTally.class, "finished", long.class);
                PROMPT_TOKENS = l.findVarHandle(EndpointTally.class, "startedPromptTokens", long.class);
                PREFILLING = l.findVarHandle(EndpointTally.class, "prefillingTokens", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final Endpoint endpoint;
        private volatile long started;
        private volatile long finished;
        private volatile long startedPromptTokens;
        private volatile long prefillingTokens;
        private volatile boolean live = true;

        private EndpointTally(Endpoint endpoint) {
            this.endpoint = endpoint;
        }

        public Endpoint endpoint() {
            return endpoint;
        }

        /** False once the endpoint was forgotten: look the endpoint up again. */
        public boolean live() {
            return live;
        }

        public long started() {
            return started;
        }

        public long finished() {
            return finished;
        }

        public long startedPromptTokens() {
            return startedPromptTokens;
        }

        /**
         * Prompt tokens of this gateway's requests here that the endpoint still has to compute: sent, not expected
         * cached, and no first token back yet. The queued work in tokens that a count of requests hides.
         */
        public long prefillingTokens() {
            return prefillingTokens;
        }
    }

    private final ConcurrentHashMap<Endpoint, EndpointTally> slots = new ConcurrentHashMap<>();

    public void started(Endpoint endpoint, int promptTokens) {
        EndpointTally s = slots.computeIfAbsent(endpoint, EndpointTally::new);
        EndpointTally.PROMPT_TOKENS.getAndAdd(s, (long) promptTokens);
        EndpointTally.STARTED.getAndAdd(s, 1L);
    }

    /** {@code tokens} more (or, negative, fewer) prompt tokens to compute on {@code endpoint}: see prefillingTokens. */
    public void prefilling(Endpoint endpoint, long tokens) {
        EndpointTally.PREFILLING.getAndAdd(slots.computeIfAbsent(endpoint, EndpointTally::new), tokens);
    }

    public void finished(Endpoint endpoint) {
        EndpointTally s = slots.get(endpoint);
        if (s != null) {
            EndpointTally.FINISHED.getAndAdd(s, 1L);
        }
    }

    public long inFlight(Endpoint endpoint) {
        EndpointTally s = slots.get(endpoint);
        return s == null ? 0 : s.started - s.finished;
    }

    public Counters snapshot(Endpoint endpoint) {
        EndpointTally s = slots.get(endpoint);
        if (s == null) {
            return Counters.ZERO;
        }
        // finished first: a request counted as finished is always counted as started too
        long finished = s.finished;
        return new Counters(s.started, finished, s.startedPromptTokens);
    }

    /**
     * The endpoint's live counters, without copying them, or null before its first request. Read {@code finished}
     * before {@code started}, as {@link #snapshot} does.
     */
    public EndpointTally tally(Endpoint endpoint) {
        return slots.get(endpoint);
    }

    /**
     * Like {@link #tally}, but creates the endpoint's counters (at zero) when it has none yet, so that a holder can keep
     * them from the start: a pick reads every candidate's, and most candidates of a large pool may not have had a
     * request yet.
     */
    public EndpointTally tallyOf(Endpoint endpoint) {
        return slots.computeIfAbsent(endpoint, EndpointTally::new);
    }

    /** Requests sent to any endpoint whose response has not ended yet (a drain waits for it to reach 0). */
    public long total() {
        long open = 0;
        for (EndpointTally s : slots.values()) {
            open += s.started - s.finished;
        }
        return open;
    }

    /** Drops an endpoint that left every pool. */
    public void forget(Endpoint endpoint) {
        EndpointTally gone = slots.remove(endpoint);
        if (gone != null) {
            gone.live = false;
        }
    }
}
