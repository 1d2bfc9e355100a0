package io.inferencegateway.observability;

import static io.inferencegateway.config.Durations.seconds;

import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.Priority;
import io.inferencegateway.domain.RequestListener;
import io.inferencegateway.domain.RequestRecord;
import io.inferencegateway.domain.SloOutcome;
import io.inferencegateway.pool.ModelPool;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The per-request meters of docs/observability.md ("Requests", "Latency targets"), fed by each request's
 * {@link RequestRecord} when it ends: what every request across the subsystems came to, by pool and model (the
 * scheduler's picks are its own, scheduling/SchedulerMeters). Label values come from the config (pools, models, their
 * pods) or small fixed sets, so the series stay bounded; meters are looked up in maps keyed by those values, not built
 * per request (by pool, then by model: two lookups by strings, with no key to build per request).
 */
public final class RequestMeters implements MeterBinder, RequestListener {

    static final String UNKNOWN = "unknown";
    static final String NONE = "none";

    private static final Duration[] TTFT_BUCKETS = seconds(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
            60, 120);
    private static final Duration[] TPOT_BUCKETS = seconds(0.001, 0.0025, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1,
            0.25, 0.5, 1);
    private static final Duration[] DURATION_BUCKETS = seconds(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
            60, 120, 300, 600);
    private static final double[] TOKEN_BUCKETS = {1, 16, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768,
            65536, 131072};

    private final ConcurrentHashMap<String, ConcurrentHashMap<String, ModelMeters>> models = new ConcurrentHashMap<>();
    private volatile MeterRegistry registry;

    @Override
    public void bindTo(MeterRegistry registry) {
        this.registry = registry;
    }

    /** {@code pod} null: none was picked. */
    private record CountKey(Endpoint pod, int status) {
        String podLabel() {
            return pod == null ? NONE : pod.toString();
        }
    }

    @Override
    public void picked(RequestRecord r) {
        if (r.attempts() == 1) { // the first pick; a failover moves the same request
            modelMeters(r).running.incrementAndGet();
        }
    }

    @Override
    public void ended(RequestRecord r) {
        ModelMeters m = modelMeters(r);
        if (r.attempts() > 0) {
            m.running.decrementAndGet();
        }
        PickDecision d = r.decision();
        m.requests.computeIfAbsent(new CountKey(d == null ? null : d.endpoint(), r.status()), m::counter).increment();
        String error = errorCode(r);
        if (error != null) {
            m.errors.computeIfAbsent(error, m::errorCounter).increment();
        }
        long end = r.endNanos();
        m.duration.record(end - r.startNanos(), TimeUnit.NANOSECONDS);
        boolean served = r.ending() == RequestRecord.Ending.COMPLETED && r.status() >= 200 && r.status() < 300;
        if (served) {
            long first = r.stream() ? r.firstTokenNanos() : end;
            if (first > 0) {
                m.ttft.record(first - r.startNanos(), TimeUnit.NANOSECONDS);
                if (r.stream() && r.outputTokens() > 1) {
                    m.tpot.record((end - first) / (r.outputTokens() - 1), TimeUnit.NANOSECONDS);
                }
            }
        }
        if (r.inputTokens() >= 0) {
            m.inputTokens.record(r.inputTokens());
        }
        if (r.outputTokens() >= 0) {
            m.outputTokens.record(r.outputTokens());
        }
        if (r.cachedTokens() >= 0) {
            m.cachedTokens.record(r.cachedTokens());
        }
        SloOutcome slo = r.slo();
        if (slo != null) {
            m.slo(Priority.band(r.priority()))[slo.ordinal()].increment();
        }
    }

    /** The error code of a failed request, or null: the gateway's own, or the model server's status class. */
    static String errorCode(RequestRecord r) {
        if (r.error() != null) {
            return r.error().name().toLowerCase(Locale.ROOT);
        }
        return switch (r.ending()) {
            case UPSTREAM_FAILED -> "upstream_broken";
            case CLIENT_GONE -> "client_closed";
            default -> r.status() >= 500 ? "upstream_5xx" : r.status() >= 400 ? "upstream_4xx" : null;
        };
    }

    private ModelMeters modelMeters(RequestRecord r) {
        String pool = r.pool() == null ? NONE : r.pool();
        // a model that resolved to a pool is a name from the config; anything else could be any string
        String model = r.pool() == null || r.request() == null ? UNKNOWN : r.request().model();
        ConcurrentHashMap<String, ModelMeters> byModel = models.get(pool);
        if (byModel == null) {
            byModel = models.computeIfAbsent(pool, p -> new ConcurrentHashMap<>());
        }
        ModelMeters m = byModel.get(model);
        return m != null ? m : byModel.computeIfAbsent(model, k -> new ModelMeters(pool, k, r.poolModel()));
    }

    /** Drops the pool's per-pod series of pods that left it, so that pod churn does not grow /metrics. */
    public void endpointsChanged(ModelPool pool) {
        Set<Endpoint> current = Set.copyOf(pool.endpoints());
        ConcurrentHashMap<String, ModelMeters> byModel = models.get(pool.name());
        if (byModel != null) {
            for (ModelMeters m : byModel.values()) {
                m.requests.entrySet().removeIf(e -> departed(e.getKey().pod(), current, e.getValue()));
            }
        }
    }

    private boolean departed(Endpoint pod, Set<Endpoint> current, Counter counter) {
        if (pod == null || current.contains(pod)) {
            return false;
        }
        registry.remove(counter);
        return true;
    }

    private final class ModelMeters {
        final String pool;
        final String model;
        final String target;
        final ConcurrentHashMap<CountKey, Counter> requests = new ConcurrentHashMap<>();
        final ConcurrentHashMap<String, Counter> errors = new ConcurrentHashMap<>();
        // priority band -> the attained counter and the missed ones, by SloOutcome ordinal
        final ConcurrentHashMap<String, Counter[]> slo = new ConcurrentHashMap<>();
        final AtomicLong running = new AtomicLong();
        final Timer duration;
        final Timer ttft;
        final Timer tpot;
        final DistributionSummary inputTokens;
        final DistributionSummary outputTokens;
        final DistributionSummary cachedTokens;

        ModelMeters(String pool, String model, String poolModel) {
            this.pool = pool;
            this.model = model;
            this.target = poolModel == null ? UNKNOWN : poolModel;
            duration = timer("inference_objective_request_duration", "Time from a request's arrival to its last byte",
                    DURATION_BUCKETS);
            ttft = timer("inference_objective_request_ttft", "Time from a request's arrival to its first streamed "
                    + "content (a plain response: to its end)", TTFT_BUCKETS);
            tpot = timer("inference_objective_request_tpot", "Time per output token after the first, of streams",
                    TPOT_BUCKETS);
            inputTokens = tokens("inference_objective_input_tokens", "Prompt tokens the model server reported");
            outputTokens = tokens("inference_objective_output_tokens", "Output tokens the model server reported");
            cachedTokens = tokens("inference_objective_cached_tokens",
                    "Prompt tokens the model server reported served from its prefix cache");
            Gauge.builder("inference_objective_running_requests", running, AtomicLong::get)
                    .description("Requests sent to a model server and not yet ended")
                    .tags("pool", pool, "model_name", model).register(registry);
        }

        private Timer timer(String name, String description, Duration[] buckets) {
            return Timer.builder(name).description(description)
                    .tags("pool", pool, "model_name", model, "target_model_name", target)
                    .serviceLevelObjectives(buckets).register(registry);
        }

        private DistributionSummary tokens(String name, String description) {
            return DistributionSummary.builder(name).description(description)
                    .tags("pool", pool, "model_name", model, "target_model_name", target)
                    .serviceLevelObjectives(TOKEN_BUCKETS).register(registry);
        }

        Counter counter(CountKey k) {
            return Counter.builder("inference_objective_request").description("Inference requests ended")
                    .tags("pool", pool, "model_name", model, "target_model_name", target, "pod", k.podLabel(),
                            "status", Integer.toString(k.status()))
                    .register(registry);
        }

        /**
         * The band's SLO counters, attained and every kind of missed registered together, so that a ratio of them
         * has both sides as soon as the band saw one request with targets.
         */
        Counter[] slo(String band) {
            Counter[] counters = slo.get(band);
            return counters != null ? counters : slo.computeIfAbsent(band, b -> {
                Counter[] out = new Counter[SloOutcome.values().length];
                for (SloOutcome o : SloOutcome.values()) {
                    out[o.ordinal()] = o.met()
                            ? Counter.builder("inference_gateway_slo_attained")
                                    .description("Requests with latency targets that met them all, as the client "
                                            + "saw them; its rate is the goodput")
                                    .tags("pool", pool, "model_name", model, "priority", b).register(registry)
                            : Counter.builder("inference_gateway_slo_missed")
                                    .description("Requests with latency targets that missed one, by the first "
                                            + "missed: ttft, tpot, or refused (not served: status 400 or more, no "
                                            + "response, a broken stream)")
                                    .tags("pool", pool, "model_name", model, "priority", b, "kind", o.label())
                                    .register(registry);
                }
                return out;
            });
        }

        Counter errorCounter(String code) {
            return Counter.builder("inference_objective_request_error").description("Inference requests that failed")
                    .tags("pool", pool, "model_name", model, "target_model_name", target, "error_code", code)
                    .register(registry);
        }
    }
}
