package io.inferencegateway.metrics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.pool.ModelPools;
import io.inferencegateway.pool.PodSeries;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The scrapes' meters and what they found (docs/observability.md, "Pools and pods"): each scrape of a pod by how it
 * ended and how long it took, and each pool's and pod's engine state as last scraped (ready pods, KV-cache use,
 * queues, running requests, adapters, the age of the last good scrape). It is the scraper's {@link
 * MetricsScraper.Listener}.
 *
 * <p>Gauges read the metrics cache when Prometheus scrapes, through the pool of the name as it is now, so they cost
 * the scrapes nothing. Per-pod series follow each pool's membership ({@link PodSeries}); a scrape's counter is one
 * map read by pool and one by pod away.
 */
public final class ScrapeMeters implements MeterBinder, MetricsScraper.Listener {

    /** Bucket bounds of the scrape-duration histogram: the scrape timeout is 1 s by default. */
    private static final Duration[] SCRAPE_BUCKETS = {Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5),
        Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100),
        Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500)};

    private final Supplier<ModelPools> current;
    private final MetricsCache metrics;
    private final NanoClock clock;
    private final Map<String, PoolScrapes> pools = new ConcurrentHashMap<>();
    private volatile MeterRegistry registry;

    /**
     * @param current the pools as they are now (a reload replaces them), read when Prometheus scrapes
     * @param metrics what each pod last reported
     * @param clock   the scrapes' clock, for the age of a pod's metrics and the pools' ready pods
     */
    public ScrapeMeters(Supplier<ModelPools> current, MetricsCache metrics, NanoClock clock) {
        this.current = current;
        this.metrics = metrics;
        this.clock = clock;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void scraped(String pool, Endpoint endpoint, MetricsScraper.Result result, long durationNanos) {
        PoolScrapes series = pools.get(pool);
        if (series == null) {
            return;
        }
        PodScrapes pod = series.pods.get(endpoint);
        if (pod != null) { // null: the pod left the pool while its scrape ran
            pod.scrapes[result.ordinal()].increment();
        }
        if (result != MetricsScraper.Result.SKIPPED_BUSY) {
            series.duration.record(durationNanos, TimeUnit.NANOSECONDS);
        }
    }

    /**
     * Registers the meters of a pool just built (at start or by a reload) and its pods' series; reading the pool's
     * gauges looks the pool up by name again, so a rebuilt pool keeps its series.
     */
    public void registerPool(ModelPool pool) {
        String name = pool.name();
        Gauge.builder("inference_pool_ready_pods", this, m -> m.poolValue(name, p -> m.readyPods(p).size()))
                .description("Pods of the pool whose metrics are fresher than the staleness threshold")
                .tag("name", name).register(registry);
        Gauge.builder("inference_pool_average_kv_cache_utilization", this,
                m -> m.poolValue(name, p -> average(m.readyPods(p), EndpointMetrics::kvUsage)))
                .description("Mean KV-cache use (0..1) of the pool's ready pods, as last scraped")
                .tag("name", name).register(registry);
        Gauge.builder("inference_pool_average_queue_size", this,
                m -> m.poolValue(name, p -> average(m.readyPods(p), e -> known(e.waiting()))))
                .description("Mean engine queue of the pool's ready pods, as last scraped")
                .tag("name", name).register(registry);
        PoolScrapes series = pools.computeIfAbsent(name, PoolScrapes::new);
        series.pods.follow(pool.endpoints());
        pool.onEndpointsChanged(this::followPods);
    }

    /** After a reload: every current pool's pods, and no series of pools that are gone. */
    public void poolsChanged(ModelPools now) {
        PodSeries.poolsChanged(now, pools, series -> series.pods);
    }

    private void followPods(ModelPool pool) {
        PodSeries.follow(pool, pools, series -> series.pods);
    }

    private PodScrapes registerPod(String pool, Endpoint endpoint) {
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
        meters.add(Gauge.builder("inference_pool_per_pod_metrics_age_seconds", this, s -> {
            EndpointMetrics m = s.metrics.latest(endpoint);
            return m == null ? Double.NaN : Math.max(0, s.clock.nanoTime() - m.scrapeStartedNanos()) / 1e9;
        }).description("Seconds since the pod's last good scrape started (NaN: never scraped)")
                .tag("name", pool).tag("model_server_pod", pod).strongReference(true).register(registry));
        Counter[] scrapes = new Counter[MetricsScraper.Result.values().length];
        for (MetricsScraper.Result r : MetricsScraper.Result.values()) {
            scrapes[r.ordinal()] = Counter.builder("inference_gateway_metrics_scrapes")
                    .description("Scrapes of the pod's /metrics, by how they ended (one result each)")
                    .tag("pool", pool).tag("pod", pod).tag("result", r.label()).register(registry);
            meters.add(scrapes[r.ordinal()]);
        }
        return new PodScrapes(meters, scrapes);
    }

    private Meter podGauge(String pool, String pod, Endpoint endpoint, String name,
            String description, ToDoubleFunction<EndpointMetrics> value) {
        return Gauge.builder(name, this, s -> {
            EndpointMetrics m = s.metrics.latest(endpoint);
            return m == null ? Double.NaN : value.applyAsDouble(m);
        }).description(description).tag("name", pool).tag("model_server_pod", pod).strongReference(true)
                .register(registry);
    }

    private List<EndpointMetrics> readyPods(ModelPool pool) {
        return metrics.fresh(pool.endpoints(), clock.nanoTime(), pool.config().metricsStalenessThreshold());
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

    private double poolValue(String pool, ToDoubleFunction<ModelPool> value) {
        ModelPool p = current.get().pool(pool);
        return p == null ? Double.NaN : value.applyAsDouble(p);
    }

    /** One pool's scrape histogram and its pods' series. */
    private final class PoolScrapes {
        final String pool;
        final Timer duration;
        final PodSeries<PodScrapes> pods;

        PoolScrapes(String pool) {
            this.pool = pool;
            this.duration = Timer.builder("inference_gateway_metrics_scrape_duration")
                    .description("Time of one scrape of a model server's /metrics, answered or failed")
                    .serviceLevelObjectives(SCRAPE_BUCKETS).tag("pool", pool).register(registry);
            this.pods = new PodSeries<>(pod -> registerPod(pool, pod), s -> s.meters().forEach(registry::remove));
        }
    }

    /** One pod's meters, and its scrape counters by result. */
    private record PodScrapes(List<Meter> meters, Counter[] scrapes) {
    }
}
