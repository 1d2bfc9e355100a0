package io.inferencegateway.scheduling;

import static io.inferencegateway.config.Durations.seconds;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.PickReason;
import io.inferencegateway.domain.RequestListener;
import io.inferencegateway.domain.RequestRecord;
import io.inferencegateway.domain.SchedulingPolicy;
import io.inferencegateway.scheduling.latency.LatencyPredictor;
import io.inferencegateway.scheduling.session.SessionTable;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The scheduler's own meters (docs/observability.md, "Scheduler"), per pool: the endpoints it picked and why, the time
 * a pick took and how its expected prefix-cache hit compared with the reported one (told by each request's record
 * when it ends), the endpoints its filters removed and its fallback (told as they happen, {@link SchedulerEvents}),
 * and, read from the pool's policy when Prometheus scrapes, its prefix index, its sessions and its latency
 * predictor's accuracy.
 *
 * <p>Every read of a policy's insides is here, through the pool's current policy by name (a reload may replace it):
 * a pool whose new policy has no prefix index, keeps no sessions or predicts nothing loses those meters. Labels are
 * the pool, its pods, and small fixed sets (reasons, outcomes, filters of the config). What the request path counts
 * goes to counters resolved once and cached by those values; no call builds tags.
 */
public final class SchedulerMeters implements MeterBinder, SchedulerEvents, RequestListener {

    private static final Duration[] PICK_BUCKETS = seconds(0.000005, 0.00001, 0.00002, 0.00005, 0.0001, 0.00025,
            0.0005, 0.001, 0.005);

    private final Function<String, SchedulingPolicy> policies;
    private final NanoClock clock;
    private final Map<String, AtomicInteger> fallback = new ConcurrentHashMap<>();
    // pool -> filter -> outcome -> counter
    private final Map<String, Map<String, Map<String, Counter>>> filtered = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, PoolPicks> picks = new ConcurrentHashMap<>();
    private volatile MeterRegistry registry;

    /**
     * @param policies the policy of the pool of a name as it is now (null when there is no such pool), read when
     *                 Prometheus scrapes
     * @param clock    what the sessions gauge reads the time from
     */
    public SchedulerMeters(Function<String, SchedulingPolicy> policies, NanoClock clock) {
        this.policies = policies;
        this.clock = clock;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        this.registry = registry;
    }

    // ---------------------------------------------------------------- scheduler events (request path)

    @Override
    public void fallbackChanged(String pool, boolean active) {
        fallbackFlag(pool).set(active ? 1 : 0);
    }

    @Override
    public void filtered(String pool, String filter, String outcome, int endpoints) {
        Map<String, Map<String, Counter>> byFilter = filtered.get(pool);
        if (byFilter == null) {
            byFilter = filtered.computeIfAbsent(pool, p -> new ConcurrentHashMap<>());
        }
        Map<String, Counter> byOutcome = byFilter.get(filter);
        if (byOutcome == null) {
            byOutcome = byFilter.computeIfAbsent(filter, f -> new ConcurrentHashMap<>());
        }
        Counter counter = byOutcome.get(outcome);
        if (counter == null) {
            counter = byOutcome.computeIfAbsent(outcome, o -> Counter.builder("inference_gateway_scheduler_filtered")
                    .description("Endpoints a scheduler filter removed from a request's candidates, by outcome; "
                            + "failed_open counts the times it would have removed all")
                    .tag("pool", pool).tag("filter", filter).tag("outcome", o).register(registry));
        }
        counter.increment(endpoints);
    }

    private AtomicInteger fallbackFlag(String pool) {
        return fallback.computeIfAbsent(pool, p -> {
            AtomicInteger flag = new AtomicInteger();
            Gauge.builder("inference_gateway_scheduler_fallback", flag, AtomicInteger::get)
                    .description("1 while no endpoint of the pool has fresh metrics and requests go by the "
                            + "gateway's own in-flight counts")
                    .tag("pool", p).register(registry);
            return flag;
        });
    }

    // ---------------------------------------------------------------- picks (a request's end)

    /** {@code pod} is never null: only requests with a decision count. */
    private record PickKey(Endpoint pod, PickReason reason) {
    }

    @Override
    public void ended(RequestRecord r) {
        PickDecision d = r.decision();
        if (d == null) {
            return;
        }
        PoolPicks p = picks.computeIfAbsent(r.pool(), PoolPicks::new);
        p.picks.computeIfAbsent(new PickKey(d.endpoint(), d.reason()), p::picksCounter).increment();
        p.pickDuration.record(r.pickNanos(), TimeUnit.NANOSECONDS);
        if (r.cachedTokens() >= 0) {
            int expected = d.expectedCachedTokens();
            int reported = r.cachedTokens();
            p.expectedCached.increment(expected);
            p.reportedCached.increment(reported);
            String outcome = expected > 0 ? (reported > 0 ? "hit" : "false_hit")
                    : (reported > 0 ? "unexpected_hit" : "miss");
            p.predictions.computeIfAbsent(outcome, p::predictionCounter).increment();
        }
    }

    /** Drops the pool's pick series of pods no longer in {@code current}, so that pod churn does not grow /metrics. */
    public void podsChanged(String pool, Collection<Endpoint> current) {
        PoolPicks p = picks.get(pool);
        if (p == null) {
            return;
        }
        Set<Endpoint> now = Set.copyOf(current);
        p.picks.entrySet().removeIf(e -> {
            if (now.contains(e.getKey().pod())) {
                return false;
            }
            registry.remove(e.getValue());
            return true;
        });
    }

    private final class PoolPicks {
        final String pool;
        final ConcurrentHashMap<PickKey, Counter> picks = new ConcurrentHashMap<>();
        final ConcurrentHashMap<String, Counter> predictions = new ConcurrentHashMap<>();
        final Timer pickDuration;
        final Counter expectedCached;
        final Counter reportedCached;

        PoolPicks(String pool) {
            this.pool = pool;
            pickDuration = Timer.builder("inference_extension_scheduler_e2e_duration")
                    .description("Time the scheduler took to pick an endpoint").tag("pool", pool)
                    .serviceLevelObjectives(PICK_BUCKETS).register(registry);
            expectedCached = Counter.builder("inference_gateway_prefix_expected_cached_tokens")
                    .description("Prompt tokens the scheduler expected the chosen pod to have cached, over requests "
                            + "whose model server reported cached tokens")
                    .tag("pool", pool).register(registry);
            reportedCached = Counter.builder("inference_gateway_prefix_reported_cached_tokens")
                    .description("Cached prompt tokens the model servers reported for the same requests")
                    .tag("pool", pool).register(registry);
        }

        Counter picksCounter(PickKey k) {
            return Counter.builder("inference_gateway_scheduler_picks").description("Endpoints picked, by the reason")
                    .tags("pool", pool, "pod", k.pod().toString(), "reason", k.reason().label()).register(registry);
        }

        Counter predictionCounter(String outcome) {
            return Counter.builder("inference_gateway_prefix_predictions")
                    .description("Requests by how the expected prefix-cache hit compared with the reported one")
                    .tags("pool", pool, "outcome", outcome).register(registry);
        }
    }

    // ---------------------------------------------------------------- what the pool's policy holds (read on scrape)

    /**
     * Registers the meters of a pool just built (at start or by a reload) with {@code policy}: its fallback flag, and
     * its prefix index, sessions and predictor when the policy has them; removes those it no longer has.
     */
    public void registerPool(String pool, SchedulingPolicy policy) {
        fallbackFlag(pool);
        registerPrefixIndex(pool, policy);
        registerPredictor(pool, policy);
        registerSessions(pool, policy);
    }

    private void registerPrefixIndex(String pool, SchedulingPolicy policy) {
        boolean hasIndex = policy instanceof PluginPolicy g && g.prefixIndexEntries() >= 0;
        Meter.Id id = new Meter.Id("inference_extension_prefix_indexer_size", Tags.of("pool", pool), null, null,
                Meter.Type.GAUGE);
        if (!hasIndex) {
            registry.remove(id); // a reload may have turned the prefix scorer off
            return;
        }
        Gauge.builder("inference_extension_prefix_indexer_size", this, m -> m.policyValue(pool,
                p -> p instanceof PluginPolicy gpu && gpu.prefixIndexEntries() >= 0
                        ? gpu.prefixIndexEntries() : Double.NaN))
                .description("Prompt blocks the pool's prefix index holds, over all its pods")
                .tag("pool", pool).register(registry);
    }

    /**
     * How well the pool's latency predictor did, for pools whose policy predicts (docs/slo.md): its TTFT and TPOT
     * mean absolute percentage error and bias over its last ~200 comparisons, how well it ordered the pods (the share
     * of pairs of recent requests on different pods measured in the order predicted), and its samples. Removed when a
     * reload gives the pool a policy that does not predict.
     */
    private void registerPredictor(String pool, SchedulingPolicy policy) {
        List<Meter.Id> ids = new ArrayList<>();
        for (String kind : List.of("ttft", "tpot")) {
            ids.add(new Meter.Id("inference_gateway_latency_prediction_mape", Tags.of("pool", pool, "kind", kind), null,
                    null, Meter.Type.GAUGE));
            ids.add(new Meter.Id("inference_gateway_latency_prediction_bias", Tags.of("pool", pool, "kind", kind), null,
                    null, Meter.Type.GAUGE));
        }
        ids.add(new Meter.Id("inference_gateway_latency_prediction_concordance", Tags.of("pool", pool), null, null,
                Meter.Type.GAUGE));
        ids.add(new Meter.Id("inference_gateway_latency_prediction_samples", Tags.of("pool", pool), null, null,
                Meter.Type.GAUGE));
        if (!(policy instanceof PluginPolicy)) {
            ids.forEach(registry::remove);
            return;
        }
        for (String kind : List.of("ttft", "tpot")) {
            boolean ttft = kind.equals("ttft");
            Gauge.builder("inference_gateway_latency_prediction_mape", this, m -> m.predictorValue(pool,
                    p -> (ttft ? p.ttftAccuracy() : p.tpotAccuracy()).mape()))
                    .description("Mean |predicted - measured| / measured of the pool's latency predictions, over "
                            + "its last ~200 responses (a fraction; NaN before the first)")
                    .tag("pool", pool).tag("kind", kind).register(registry);
            Gauge.builder("inference_gateway_latency_prediction_bias", this, m -> m.predictorValue(pool,
                    p -> (ttft ? p.ttftAccuracy() : p.tpotAccuracy()).bias()))
                    .description("Mean (predicted - measured) / measured of the pool's latency predictions: above 0 "
                            + "when they run high (a fraction; NaN before the first)")
                    .tag("pool", pool).tag("kind", kind).register(registry);
        }
        Gauge.builder("inference_gateway_latency_prediction_concordance", this, m -> m.predictorValue(pool,
                p -> p.ranking().share()))
                .description("Share of pairs of requests on different pods, picked within a second of each other, "
                        + "whose measured latencies came in the order the pool's predictor said, over its last ~200 "
                        + "measurements (0.5 is a coin toss; NaN before the first pair)")
                .tag("pool", pool).register(registry);
        Gauge.builder("inference_gateway_latency_prediction_samples", this, m -> m.predictorValue(pool,
                LatencyPredictor::samples))
                .description("Responses the pool's latency predictor has learned from (streams and plain bodies); "
                        + "it predicts from " + LatencyPredictor.MIN_SAMPLES + " on")
                .tag("pool", pool).register(registry);
    }

    /**
     * The meters of a pool's session affinity (docs/sessions.md): the sessions it remembers, and the sessions that
     * moved to another pod, by one of three reasons. Removed when the pool's policy (after a reload) keeps no sessions.
     */
    private void registerSessions(String pool, SchedulingPolicy policy) {
        List<Meter.Id> ids = new ArrayList<>();
        ids.add(new Meter.Id("inference_gateway_sessions", Tags.of("pool", pool), null, null, Meter.Type.GAUGE));
        for (String reason : SessionTable.MOVE_REASONS) {
            ids.add(new Meter.Id("inference_gateway_session_moves", Tags.of("pool", pool, "reason", reason), null,
                    null, Meter.Type.COUNTER));
        }
        if (sessions(policy) == null) {
            ids.forEach(registry::remove);
            return;
        }
        Gauge.builder("inference_gateway_sessions", this,
                m -> m.sessionsValue(pool, t -> t.size(m.clock.nanoTime()), Double.NaN))
                .description("Sessions (conversations) the pool remembers the pod of")
                .tag("pool", pool).register(registry);
        for (String reason : SessionTable.MOVE_REASONS) {
            FunctionCounter.builder("inference_gateway_session_moves", this,
                            m -> m.sessionsValue(pool, t -> t.moves(reason), 0))
                    .description("Sessions sent to another pod than their own: saturated (a filter removed it), "
                            + "pod_gone (no longer a candidate), outscored (other scorers outweighed it) or evicted "
                            + "(its pod no longer holds the history); a pool rebuilt by a reload counts afresh")
                    .tag("pool", pool).tag("reason", reason).register(registry);
        }
    }

    private double policyValue(String pool, ToDoubleFunction<SchedulingPolicy> value) {
        SchedulingPolicy p = policies.apply(pool);
        return p == null ? Double.NaN : value.applyAsDouble(p);
    }

    private double predictorValue(String pool, ToDoubleFunction<LatencyPredictor> value) {
        return policyValue(pool, p -> p instanceof PluginPolicy gpu ? value.applyAsDouble(gpu.predictor())
                : Double.NaN);
    }

    /** {@code read} of the pool's session table as it is now; {@code none} when the pool (or its table) is gone. */
    private double sessionsValue(String pool, ToDoubleFunction<SessionTable> read, double none) {
        SessionTable t = sessions(policies.apply(pool));
        return t == null ? none : read.applyAsDouble(t);
    }

    private static SessionTable sessions(SchedulingPolicy policy) {
        return policy instanceof PluginPolicy plugins ? plugins.sessions() : null;
    }
}
