package io.inferencegateway.runtime;

import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The registry every meter of the gateway is made in: {@code GET /metrics} reads its Prometheus side
 * ({@link #scrape()}), and a push to a collector ({@code spec.observability.metricsExport}) joins it as another side,
 * so both carry every meter, the routes' {@code micrometer:} ones included.
 */
public final class GatewayRegistry extends CompositeMeterRegistry {

    private final PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    public GatewayRegistry() {
        add(prometheus);
    }

    /** Every meter in the Prometheus text format, as {@code GET /metrics} serves it. */
    public String scrape() {
        return prometheus.scrape();
    }
}
