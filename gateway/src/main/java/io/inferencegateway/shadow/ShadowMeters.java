package io.inferencegateway.shadow;

import static io.inferencegateway.config.Durations.seconds;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The shadow copies' meters, per primary pool and candidate (both from the config, so their series are few): how each
 * copy ended, what status the candidate answered, its time to first token and to its end, its tokens. Named so that
 * they read beside the primary's {@code inference_objective_request_ttft_seconds} and
 * {@code inference_objective_request_duration_seconds}. And the copies of each pool in flight.
 */
public final class ShadowMeters implements MeterBinder {

    /** How a sampled copy ended; each is counted once. */
    enum ShadowOutcome {
        /** The candidate answered (below 500) and its body was read to the end. */
        SENT,
        /** Dropped before sending: the pool's copies in flight were at {@code maxInFlight}. */
        DROPPED_BUDGET,
        /** Dropped before sending: the candidate's pool was full (every pod saturated, or requests waiting). */
        DROPPED_SATURATED,
        /** No pod to send to, refused, reset, timed out, or answered 500 or above. */
        FAILED;

        final String label = name().toLowerCase(Locale.ROOT);
    }

    private static final Duration[] TTFT_BUCKETS = seconds(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
            30, 60, 120);
    private static final Duration[] DURATION_BUCKETS = seconds(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
            60, 120, 300, 600);

    private final ConcurrentHashMap<String, Pair> pairs = new ConcurrentHashMap<>();
    private volatile MeterRegistry registry;

    @Override
    public void bindTo(MeterRegistry registry) {
        this.registry = registry;
    }

    /** The gauge of {@code pool}'s copies in flight, reading {@code count}; once per pool, when its first copy goes. */
    void inFlight(String pool, AtomicInteger count) {
        Gauge.builder("inference_gateway_shadow_in_flight", count, AtomicInteger::get)
                .description("Shadow copies of a pool's requests in flight on this gateway")
                .tags("pool", pool).register(registry);
    }

    /** The meters of copies from {@code pool} to {@code candidate}. */
    Pair of(String pool, String candidate) {
        Pair p = pairs.get(pool + '\n' + candidate);
        return p != null ? p : pairs.computeIfAbsent(pool + '\n' + candidate, k -> new Pair(pool, candidate));
    }

    final class Pair {
        private final String pool;
        private final String candidate;
        private final Counter[] outcomes = new Counter[ShadowOutcome.values().length];
        private final ConcurrentHashMap<Integer, Counter> statuses = new ConcurrentHashMap<>();
        private final Timer ttft;
        private final Timer duration;
        private final Counter inputTokens;
        private final Counter outputTokens;

        private Pair(String pool, String candidate) {
            this.pool = pool;
            this.candidate = candidate;
            for (ShadowOutcome o : ShadowOutcome.values()) {
                outcomes[o.ordinal()] = Counter.builder("inference_gateway_shadow_requests")
                        .description("Shadow copies of a pool's requests, by how each ended")
                        .tags("pool", pool, "candidate", candidate, "outcome", o.label).register(registry);
            }
            ttft = Timer.builder("inference_gateway_shadow_ttft")
                    .description("Time from sending a shadow copy to its first streamed content (a plain response: to "
                            + "its end)")
                    .tags("pool", pool, "candidate", candidate).serviceLevelObjectives(TTFT_BUCKETS).register(registry);
            duration = Timer.builder("inference_gateway_shadow_duration")
                    .description("Time from sending a shadow copy to the last byte of its answer")
                    .tags("pool", pool, "candidate", candidate).serviceLevelObjectives(DURATION_BUCKETS)
                    .register(registry);
            inputTokens = tokens("input");
            outputTokens = tokens("output");
        }

        private Counter tokens(String type) {
            return Counter.builder("inference_gateway_shadow_tokens")
                    .description("Tokens the candidate reported for the shadow copies it answered")
                    .tags("pool", pool, "candidate", candidate, "type", type).register(registry);
        }

        void ended(ShadowOutcome o) {
            outcomes[o.ordinal()].increment();
        }

        /** The candidate's status; HTTP statuses are three digits, so the series stay few. */
        void answered(int status) {
            statuses.computeIfAbsent(status, s -> Counter.builder("inference_gateway_shadow_responses")
                    .description("Shadow copies the candidate answered, by status")
                    .tags("pool", pool, "candidate", candidate, "status", Integer.toString(s)).register(registry))
                    .increment();
        }

        void firstToken(long nanos) {
            ttft.record(nanos, TimeUnit.NANOSECONDS);
        }

        void duration(long nanos) {
            duration.record(nanos, TimeUnit.NANOSECONDS);
        }

        void usage(int input, int output) {
            if (input > 0) {
                inputTokens.increment(input);
            }
            if (output > 0) {
                outputTokens.increment(output);
            }
        }
    }
}
