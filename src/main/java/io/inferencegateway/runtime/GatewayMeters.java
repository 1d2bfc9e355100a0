package io.inferencegateway.runtime;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToDoubleFunction;

import io.inferencegateway.metrics.MetricsScraper;
import io.inferencegateway.scheduling.SchedulerEvents;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.inferencegateway.pool.ModelPool;

/**
 * The gateway's own Prometheus meters: pool sizes, requests in flight, scheduler fallback and metric
 * scrapes. Gauges read the live state when scraped, so pools added by a reload appear by themselves.
 */
public final class GatewayMeters implements SchedulerEvents {

    private final MeterRegistry registry;
    private final Map<String, AtomicInteger> fallback = new ConcurrentHashMap<>();

    GatewayMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    /** The registry the routes' {@code micrometer:} endpoints and {@code GET /metrics} share. */
    public static PrometheusMeterRegistry newRegistry() {
        return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    }

    @Override
    public void fallbackChanged(String pool, boolean active) {
        fallbackFlag(pool).set(active ? 1 : 0);
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

    /** Registers the meters of one pool; reading them looks the pool up again, so reloads are safe. */
    void registerPool(Gateway gateway, String pool) {
        fallbackFlag(pool);
        Gauge.builder("inference_gateway_pool_endpoints", gateway, g -> poolValue(g, pool, p -> p.endpoints().size()))
                .description("Endpoints the pool can route to").tag("pool", pool).register(registry);
        Gauge.builder("inference_gateway_requests_in_flight", gateway,
                g -> poolValue(g, pool, p -> p.endpoints().stream().mapToLong(g.inFlight()::inFlight).sum()))
                .description("Requests the gateway has sent to the pool's endpoints and not yet seen end")
                .tag("pool", pool).register(registry);
    }

    private static double poolValue(Gateway g, String pool, ToDoubleFunction<ModelPool> value) {
        ModelPool p = g.pools().pool(pool);
        return p == null ? Double.NaN : value.applyAsDouble(p);
    }

    void registerScraper(MetricsScraper scraper) {
        scrapes(scraper, "succeeded", s -> s.stats().succeeded());
        scrapes(scraper, "failed", s -> s.stats().failed());
        scrapes(scraper, "timed_out", s -> s.stats().timedOut());
        scrapes(scraper, "skipped_busy", s -> s.stats().skippedBusy());
    }

    private void scrapes(MetricsScraper scraper, String result, ToDoubleFunction<MetricsScraper> count) {
        FunctionCounter.builder("inference_gateway_metrics_scrapes", scraper, count)
                .description("Scrapes of model servers' /metrics by result").tag("result", result).register(registry);
    }
}
