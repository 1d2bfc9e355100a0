package io.inferencegateway.runtime;

import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The registry of a gateway that pushes its meters ({@code spec.observability.metricsExport};
 * {@link GatewayMeters#newRegistry(String)}): {@code GET /metrics} reads its Prometheus side ({@link #scrape()}), and
 * the push joins it as another side, so both carry every meter, the routes' {@code micrometer:} ones included.
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
