package io.inferencegateway.observability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToDoubleFunction;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.Priority;
import io.inferencegateway.pool.FlowControl;
import io.inferencegateway.pool.FlowControl.WaitOutcome;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.metrics.MetricsScraper;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.pool.ModelPools;
import io.inferencegateway.pool.PoolHealthListener;
import io.inferencegateway.scheduling.PluginPolicy;
import io.inferencegateway.scheduling.SchedulerEvents;
import io.inferencegateway.scheduling.latency.LatencyPredictor;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.netty4.NettyAllocatorMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.buffer.PooledByteBufAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's own Prometheus meters (docs/observability.md): pool sizes and requests in flight, the scheduler's
 * fallback, filter removals and prefix index, the pools' and pods' scraped state, and the scrapes themselves.
 *
 * <p>Gauges read the live state when Prometheus scrapes, so they cost the request path nothing. Per-pod series
 * follow each pool's membership: they are registered when a pod joins and removed when it leaves (a reload or
 * discovery), so their number is bounded by the pods the pools have. What the request path and the scrapes count
 * goes to counters resolved once and cached by name; no call builds tags.
 */
public final class GatewayMeters implements SchedulerEvents, MetricsScraper.Listener, PoolHealthListener {

    private static final Logger OUTLIERS = LoggerFactory.getLogger("io.inferencegateway.outliers");
    /** The reasons of {@code inference_gateway_upstream_retries_total}, see UpstreamProducer. */
    // 500, 504 and 429 (for load) fail over at a global tier only
    static final List<String> RETRY_REASONS = List.of("connect", "reset", "502", "503", "500", "504", "429");

    /** Bucket bounds of the scrape-duration histogram: the scrape timeout is 1 s by default. */
    private static final Duration[] SCRAPE_BUCKETS = {Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5),
        Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100),
        Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500)};

    /** Bucket bounds of the queue-wait histogram: the queue timeout is 30 s by default. */
    private static final Duration[] QUEUE_BUCKETS = {Duration.ofMillis(1), Duration.ofMillis(5),
        Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100),
        Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500),
        Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30)};
    private static final List<String> PRIORITY_BANDS = List.of(Priority.band(Priority.CRITICAL),
            Priority.band(Priority.STANDARD), Priority.band(Priority.SHEDDABLE));

    private final MeterRegistry registry;
    private final LiveState state;
    private final Map<String, AtomicInteger> fallback = new ConcurrentHashMap<>();
    // pool -> filter -> outcome -> counter
    private final Map<String, Map<String, Map<String, Counter>>> filtered = new ConcurrentHashMap<>();
    private final Map<String, PoolSeries> pools = new ConcurrentHashMap<>();

    /** @param state what the gauges read when Prometheus scrapes */
    public GatewayMeters(MeterRegistry registry, LiveState state) {
        this.registry = registry;
        this.state = state;
    }

    /**
     * The registry the routes' {@code micrometer:} endpoints and {@code GET /metrics} share, with the process's own
     * health beside the gateway's: heap and direct buffers, threads, CPU, open file descriptors, uptime, and Netty's
     * pooled allocator (where the request path's buffers live). All read when Prometheus scrapes, nothing per request.
     */
    public static PrometheusMeterRegistry newRegistry() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new NettyAllocatorMetrics(PooledByteBufAllocator.DEFAULT).bindTo(registry);
        return registry;
    }

    // ---------------------------------------------------------------- failover and outliers (request path)

    @Override
    public void retried(String pool, String reason) {
        PoolSeries series = pools.get(pool);
        Counter c = series == null ? null : series.retries.get(reason);
        if (c != null) {
            c.increment();
        }
    }

    @Override
    public void retryBudgetExhausted(String pool) {
        PoolSeries series = pools.get(pool);
        if (series != null) {
            series.budgetExhausted.increment();
        }
    }

    @Override
    public void ejected(String pool, Endpoint pod, Duration forHowLong, String reason) {
        OUTLIERS.warn("pool {}: ejected pod {} for {} s ({})", pool, pod, forHowLong.toSeconds(), reason);
        PoolSeries series = pools.get(pool);
        PodSeries p = series == null ? null : series.pods.get(pod);
        if (p != null) {
            p.ejections.increment();
        }
    }

    @Override
    public void readmitted(String pool, Endpoint pod) {
        OUTLIERS.info("pool {}: pod {} readmitted after its ejection, on probation", pool, pod);
    }

    // ---------------------------------------------------------------- flow control (request path)

    @Override
    public void dropped(String pool, int priority, GatewayError.Dropped why) {
        PoolSeries series = pools.get(pool);
        Counter[] byReason = series == null ? null : series.dropped.get(Priority.band(priority));
        if (byReason != null) {
            byReason[why.ordinal()].increment();
        }
    }

    @Override
    public void waited(String pool, int priority, WaitOutcome outcome, long nanos) {
        PoolSeries series = pools.get(pool);
        if (series != null) {
            queueWait(series, Priority.band(priority), outcome).record(nanos, TimeUnit.NANOSECONDS);
        }
    }

    /** At most 3 bands x 3 outcomes a pool; the dispatched ones exist from the start (registerFlowControl). */
    private Timer queueWait(PoolSeries series, String band, WaitOutcome outcome) {
        String key = band + '/' + outcome.label();
        Timer timer = series.queueWaits.get(key);
        return timer != null ? timer : series.queueWaits.computeIfAbsent(key, k -> Timer
                .builder("inference_extension_flow_control_request_queue_duration")
                .description("Time a request waited in the pool's queue while every pod was saturated, by how the "
                        + "wait ended: dispatched to a pod, refused (timeout, displaced) or cancelled")
                .serviceLevelObjectives(QUEUE_BUCKETS)
                .tag("pool", series.pool).tag("priority", band).tag("outcome", outcome.label()).register(registry));
    }

    private void registerFlowControl(String name, PoolSeries series) {
        for (String band : PRIORITY_BANDS) {
            queueWait(series, band, WaitOutcome.DISPATCHED);
            Gauge.builder("inference_extension_flow_control_queue_size", state,
                    g -> poolValue(g, name, p -> p.flowControl().queued(band)))
                    .description("Requests waiting in the pool's queue now, by priority band")
                    .tag("pool", name).tag("priority", band).register(registry);
            series.dropped.computeIfAbsent(band, b -> {
                GatewayError.Dropped[] reasons = GatewayError.Dropped.values();
                Counter[] counters = new Counter[reasons.length];
                for (GatewayError.Dropped why : reasons) {
                    counters[why.ordinal()] = Counter.builder("inference_gateway_flow_control_dropped")
                            .description("Requests flow control refused with a 429, by priority band and reason "
                                    + "(the x-gateway-dropped-reason header)")
                            .tag("pool", name).tag("priority", b).tag("reason", why.header()).register(registry);
                }
                return counters;
            });
        }
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

    // ---------------------------------------------------------------- scrapes

    @Override
    public void scraped(String pool, Endpoint endpoint, MetricsScraper.Result result, long durationNanos) {
        PoolSeries series = pools.get(pool);
        if (series == null) {
            return;
        }
        PodSeries pod = series.pods.get(endpoint);
        if (pod != null) { // null: the pod left the pool while its scrape ran
            pod.scrapes[result.ordinal()].increment();
        }
        if (result != MetricsScraper.Result.SKIPPED_BUSY) {
            series.scrapeDuration.record(durationNanos, TimeUnit.NANOSECONDS);
        }
    }

    // ---------------------------------------------------------------- pools and pods

    /**
     * Registers the meters of a pool just built (at start or by a reload) and its pods' series; reading the pool's
     * gauges looks the pool up by name again, so a rebuilt pool keeps its series.
     */
    public void registerPool(ModelPool pool) {
        String name = pool.name();
        fallbackFlag(name);
        Gauge.builder("inference_gateway_pool_endpoints", state, g -> poolValue(g, name, p -> p.endpoints().size()))
                .description("Endpoints the pool can route to").tag("pool", name).register(registry);
        Gauge.builder("inference_gateway_requests_in_flight", state,
                g -> poolValue(g, name, p -> p.endpoints().stream().mapToLong(g.inFlight()::inFlight).sum()))
                .description("Requests the gateway has sent to the pool's endpoints and not yet seen end")
                .tag("pool", name).register(registry);
        Gauge.builder("inference_pool_ready_pods", state, g -> poolValue(g, name, p -> g.readyPods(p).size()))
                .description("Pods of the pool whose metrics are fresher than the staleness threshold")
                .tag("name", name).register(registry);
        Gauge.builder("inference_pool_average_kv_cache_utilization", state,
                g -> poolValue(g, name, p -> average(g.readyPods(p), EndpointMetrics::kvUsage)))
                .description("Mean KV-cache use (0..1) of the pool's ready pods, as last scraped")
                .tag("name", name).register(registry);
        Gauge.builder("inference_pool_average_queue_size", state,
                g -> poolValue(g, name, p -> average(g.readyPods(p), m -> known(m.waiting()))))
                .description("Mean engine queue of the pool's ready pods, as last scraped")
                .tag("name", name).register(registry);
        Gauge.builder("inference_gateway_outlier_ejected", state,
                g -> poolValue(g, name, p -> p.outliers().ejectedCount()))
                .description("Pods of the pool ejected as outliers now").tag("pool", name).register(registry);
        registerPrefixIndex(pool);
        registerPredictor(pool);
        SessionMeters.register(registry, state, pool);
        PoolSeries series = pools.computeIfAbsent(name, n -> {
            PoolSeries s = new PoolSeries(n, Timer
                    .builder("inference_gateway_metrics_scrape_duration")
                    .description("Time of one scrape of a model server's /metrics, answered or failed")
                    .serviceLevelObjectives(SCRAPE_BUCKETS).tag("pool", n).register(registry),
                    Counter.builder("inference_gateway_upstream_retry_budget_exhausted")
                            .description("Retries on another pod not made because the pool's retry budget was spent")
                            .tag("pool", n).register(registry));
            for (String reason : RETRY_REASONS) {
                s.retries.put(reason, Counter.builder("inference_gateway_upstream_retries")
                        .description("Requests sent to another pod before any byte reached the client, by why")
                        .tag("pool", n).tag("reason", reason).register(registry));
            }
            return s;
        });
        registerFlowControl(name, series);
        pool.healthListener(this);
        syncPods(series, pool.endpoints());
        pool.onEndpointsChanged(p -> syncPods(p));
    }

    /** After a reload: every current pool's pods, and no series of pools that are gone. */
    public void poolsChanged(ModelPools current) {
        Set<String> names = new HashSet<>();
        for (ModelPool p : current.pools()) {
            names.add(p.name());
            syncPods(p);
        }
        for (PoolSeries series : List.copyOf(pools.values())) {
            if (!names.contains(series.pool)) {
                syncPods(series, List.of());
            }
        }
    }

    private void registerPrefixIndex(ModelPool pool) {
        String name = pool.name();
        boolean hasIndex = pool.policy() instanceof PluginPolicy g && g.prefixIndexEntries() >= 0;
        Meter.Id id = new Meter.Id("inference_extension_prefix_indexer_size", Tags.of("pool", name), null, null, Meter.Type.GAUGE);
        if (!hasIndex) {
            registry.remove(id); // a reload may have turned the prefix scorer off
            return;
        }
        Gauge.builder("inference_extension_prefix_indexer_size", state, g -> poolValue(g, name,
                p -> p.policy() instanceof PluginPolicy gpu && gpu.prefixIndexEntries() >= 0
                        ? gpu.prefixIndexEntries() : Double.NaN))
                .description("Prompt blocks the pool's prefix index holds, over all its pods")
                .tag("pool", name).register(registry);
    }

    /**
     * How well the pool's latency predictor did, for pools whose policy predicts (docs/slo.md): its TTFT and TPOT
     * mean absolute percentage error and bias over its last ~200 comparisons, and its samples. Removed when a reload
     * gives the pool a policy that does not predict.
     */
    private void registerPredictor(ModelPool pool) {
        String name = pool.name();
        List<Meter.Id> ids = new ArrayList<>();
        for (String kind : List.of("ttft", "tpot")) {
            ids.add(new Meter.Id("inference_gateway_latency_prediction_mape", Tags.of("pool", name, "kind", kind), null,
                    null, Meter.Type.GAUGE));
            ids.add(new Meter.Id("inference_gateway_latency_prediction_bias", Tags.of("pool", name, "kind", kind), null,
                    null, Meter.Type.GAUGE));
        }
        ids.add(new Meter.Id("inference_gateway_latency_prediction_samples", Tags.of("pool", name), null, null,
                Meter.Type.GAUGE));
        if (!(pool.policy() instanceof PluginPolicy)) {
            ids.forEach(registry::remove);
            return;
        }
        for (String kind : List.of("ttft", "tpot")) {
            boolean ttft = kind.equals("ttft");
            Gauge.builder("inference_gateway_latency_prediction_mape", state, g -> predictorValue(g, name,
                    p -> (ttft ? p.ttftAccuracy() : p.tpotAccuracy()).mape()))
                    .description("Mean |predicted - measured| / measured of the pool's latency predictions, over "
                            + "its last ~200 responses (a fraction; NaN before the first)")
                    .tag("pool", name).tag("kind", kind).register(registry);
            Gauge.builder("inference_gateway_latency_prediction_bias", state, g -> predictorValue(g, name,
                    p -> (ttft ? p.ttftAccuracy() : p.tpotAccuracy()).bias()))
                    .description("Mean (predicted - measured) / measured of the pool's latency predictions: above 0 "
                            + "when they run high (a fraction; NaN before the first)")
                    .tag("pool", name).tag("kind", kind).register(registry);
        }
        Gauge.builder("inference_gateway_latency_prediction_samples", state, g -> predictorValue(g, name,
                LatencyPredictor::samples))
                .description("Streamed responses the pool's latency predictor has learned from; it predicts from "
                        + LatencyPredictor.MIN_SAMPLES + " on")
                .tag("pool", name).register(registry);
    }

    private static double predictorValue(LiveState g, String pool, ToDoubleFunction<LatencyPredictor> value) {
        return poolValue(g, pool, p -> p.policy() instanceof PluginPolicy gpu ? value.applyAsDouble(gpu.predictor())
                : Double.NaN);
    }

    private void syncPods(ModelPool pool) {
        PoolSeries series = pools.get(pool.name());
        if (series != null) {
            syncPods(series, pool.endpoints());
        }
    }

    /** Makes the pool's per-pod series exactly those of {@code endpoints}. */
    private void syncPods(PoolSeries series, List<Endpoint> endpoints) {
        synchronized (series) {
            if (series.seen == endpoints) { // pools replace their list whole, so identity tells
                return;
            }
            series.seen = endpoints;
            Set<Endpoint> current = new HashSet<>(endpoints);
            for (Map.Entry<Endpoint, PodSeries> e : List.copyOf(series.pods.entrySet())) {
                if (!current.contains(e.getKey())) {
                    series.pods.remove(e.getKey());
                    e.getValue().meters.forEach(registry::remove);
                }
            }
            for (Endpoint e : endpoints) {
                if (!series.pods.containsKey(e)) {
                    series.pods.put(e, registerPod(series.pool, e));
                }
            }
        }
    }

    private PodSeries registerPod(String pool, Endpoint endpoint) {
        String pod = endpoint.toString();
        List<Meter> meters = new ArrayList<>();
        meters.add(podGauge(pool, pod, endpoint, "inference_pool_per_pod_queue_size",
                "Requests queued in the pod's engine, as last scraped", m -> known(m.waiting())));
        meters.add(podGauge(pool, pod, endpoint, "inference_pool_per_pod_running_requests",
                "Requests in the pod's running batch, as last scraped", m -> known(m.running())));
        meters.add(podGauge(pool, pod, endpoint, "inference_pool_per_pod_kv_cache_utilization",
                "The pod's KV-cache use (0..1), as last scraped", EndpointMetrics::kvUsage));
        meters.add(podGauge(pool, pod, endpoint, "inference_pool_per_pod_loaded_adapters",
                "LoRA adapters in the pod's running batch, as last scraped", m -> m.runningAdapters().size()));
        meters.add(Gauge.builder("inference_pool_per_pod_metrics_age_seconds", state, g -> {
            EndpointMetrics m = g.metrics().latest(endpoint);
            return m == null ? Double.NaN : Math.max(0, g.clock().nanoTime() - m.scrapeStartedNanos()) / 1e9;
        }).description("Seconds since the pod's last good scrape started (NaN: never scraped)")
                .tag("name", pool).tag("model_server_pod", pod).strongReference(true).register(registry));
        Counter[] scrapes = new Counter[MetricsScraper.Result.values().length];
        for (MetricsScraper.Result r : MetricsScraper.Result.values()) {
            scrapes[r.ordinal()] = Counter.builder("inference_gateway_metrics_scrapes")
                    .description("Scrapes of the pod's /metrics, by how they ended (one result each)")
                    .tag("pool", pool).tag("pod", pod).tag("result", r.label()).register(registry);
            meters.add(scrapes[r.ordinal()]);
        }
        Counter ejections = Counter.builder("inference_gateway_outlier_ejections")
                .description("Times the pod was ejected from its pool as an outlier")
                .tag("pool", pool).tag("pod", pod).register(registry);
        meters.add(ejections);
        return new PodSeries(meters, scrapes, ejections);
    }

    private Meter podGauge(String pool, String pod, Endpoint endpoint, String name,
            String description, ToDoubleFunction<EndpointMetrics> value) {
        return Gauge.builder(name, state, g -> {
            EndpointMetrics m = g.metrics().latest(endpoint);
            return m == null ? Double.NaN : value.applyAsDouble(m);
        }).description(description).tag("name", pool).tag("model_server_pod", pod).strongReference(true)
                .register(registry);
    }

    /** The mean of the known (non-NaN) values; NaN when there is none. */
    private static double average(List<EndpointMetrics> pods, ToDoubleFunction<EndpointMetrics> value) {
        double sum = 0;
        int n = 0;
        for (EndpointMetrics m : pods) {
            double v = value.applyAsDouble(m);
            if (!Double.isNaN(v)) {
                sum += v;
                n++;
            }
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    /** A scraped count, NaN when the engine did not say (-1). */
    private static double known(int count) {
        return count < 0 ? Double.NaN : count;
    }

    private static double poolValue(LiveState g, String pool, ToDoubleFunction<ModelPool> value) {
        ModelPool p = g.pools().get().pool(pool);
        return p == null ? Double.NaN : value.applyAsDouble(p);
    }

    /** One pool's per-pod series and scrape histogram. */
    private static final class PoolSeries {
        final String pool;
        final Timer scrapeDuration;
        final Counter budgetExhausted;
        final Map<String, Counter> retries = new ConcurrentHashMap<>();
        // priority band -> flow control refusals by GatewayError.Dropped ordinal; band + outcome -> queue wait
        final Map<String, Counter[]> dropped = new ConcurrentHashMap<>();
        final Map<String, Timer> queueWaits = new ConcurrentHashMap<>();
        final Map<Endpoint, PodSeries> pods = new ConcurrentHashMap<>();
        List<Endpoint> seen; // guarded by this

        PoolSeries(String pool, Timer scrapeDuration, Counter budgetExhausted) {
            this.pool = pool;
            this.scrapeDuration = scrapeDuration;
            this.budgetExhausted = budgetExhausted;
        }
    }

    private record PodSeries(List<Meter> meters, Counter[] scrapes, Counter ejections) {
    }
}
