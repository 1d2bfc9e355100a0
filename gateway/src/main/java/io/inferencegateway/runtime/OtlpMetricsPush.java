package io.inferencegateway.runtime;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.inferencegateway.config.ObservabilityConfig;
import io.inferencegateway.config.ObservabilityConfig.MetricsExportConfig;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.registry.otlp.OtlpConfig;
import io.micrometer.registry.otlp.OtlpMeterRegistry;

/**
 * Pushes every meter of the gateway's registry to an OpenTelemetry collector over OTLP/HTTP (protobuf) on an
 * interval ({@code spec.observability.metricsExport}), with Micrometer's OTLP registry: the meter names and labels of
 * {@code GET /metrics} (without the {@code _total} and {@code _seconds} suffixes the Prometheus format adds, which a
 * collector's Prometheus exporter adds back), times in seconds, cumulative sums and explicit-bucket histograms with
 * the same buckets. Pushed from Micrometer's own thread; nothing on the request path waits for it. A push that fails
 * is logged and the next one carries the totals.
 */
final class OtlpMetricsPush implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(OtlpMetricsPush.class);

    private final CompositeMeterRegistry registry;
    private final OtlpMeterRegistry otlp;

    private OtlpMetricsPush(CompositeMeterRegistry registry, OtlpMeterRegistry otlp) {
        this.registry = registry;
        this.otlp = otlp;
    }

    /**
     * Starts pushing every meter of {@code registry}, those made later included, as {@code config} says; null, with a
     * warning, when the registry is not one a push can join (not made by {@link GatewayMeters#newRegistry(String)}
     * for a config that pushes).
     */
    static OtlpMetricsPush start(MetricsExportConfig config, String serviceName, MeterRegistry meters) {
        if (!(meters instanceof CompositeMeterRegistry registry)) {
            LOG.warn("spec.observability.metricsExport is not applied: the meter registry was made for a config "
                    + "without it (it is read at start)");
            return null;
        }
        OtlpMeterRegistry otlp = new OtlpMeterRegistry(new OtlpConfig() {
            @Override
            public String get(String key) {
                return null; // Micrometer's defaults for the rest: cumulative, explicit buckets
            }

            @Override
            public String url() {
                return ObservabilityConfig.signalUrl(config.otlpEndpoint(), "/v1/metrics");
            }

            @Override
            public Duration step() {
                return config.interval();
            }

            @Override
            public Map<String, String> headers() {
                return config.headers();
            }

            @Override
            public Map<String, String> resourceAttributes() {
                return Map.of("service.name", serviceName);
            }

            @Override
            public TimeUnit baseTimeUnit() {
                return TimeUnit.SECONDS; // as GET /metrics
            }
        }, Clock.SYSTEM);
        registry.add(otlp);
        return new OtlpMetricsPush(registry, otlp);
    }

    /** Stops pushing, after one last push of what was counted since the previous one. */
    @Override
    public void close() {
        registry.remove(otlp);
        otlp.close();
    }
}
