package io.inferencegateway.config;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * What the gateway reports about the requests it serves ({@code spec.observability}).
 *
 * @param requestMetrics the per-request meters of {@code GET /metrics} (docs/observability.md); on by default
 * @param accessLog      one JSON line per request on the {@code io.inferencegateway.access} logger; off by default
 * @param tracing        OpenTelemetry spans over OTLP; off by default
 * @param metricsExport  every meter pushed over OTLP; off by default
 */
public record ObservabilityConfig(boolean requestMetrics, boolean accessLog, TracingConfig tracing,
        MetricsExportConfig metricsExport) {

    public static final ObservabilityConfig DEFAULT = new ObservabilityConfig(true, false, TracingConfig.OFF,
            MetricsExportConfig.OFF);

    public ObservabilityConfig {
        Objects.requireNonNull(tracing, "tracing");
        Objects.requireNonNull(metricsExport, "metricsExport");
    }

    /**
     * @param otlpEndpoint the OTLP/HTTP collector's base URL (meters go to {@code /v1/metrics} under it); null: off
     * @param headers      sent with every push (a tenant header, an API key)
     * @param interval     how often every meter is pushed
     */
    public record MetricsExportConfig(URI otlpEndpoint, Map<String, String> headers, Duration interval) {

        public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(60);
        public static final MetricsExportConfig OFF = new MetricsExportConfig(null, Map.of(), DEFAULT_INTERVAL);

        public MetricsExportConfig {
            headers = Map.copyOf(headers);
            Objects.requireNonNull(interval, "interval");
        }

        public boolean enabled() {
            return otlpEndpoint != null;
        }
    }

    /**
     * @param otlpEndpoint  the OTLP/HTTP collector's base URL (spans go to {@code /v1/traces} under it); null: off
     * @param serviceName   the {@code service.name} of the spans
     * @param samplingRatio the share of traces started here that are sampled, 0..1; a client's sampled
     *                      {@code traceparent} is always followed
     */
    public record TracingConfig(URI otlpEndpoint, String serviceName, double samplingRatio) {

        public static final String DEFAULT_SERVICE_NAME = "inference-gateway";
        public static final TracingConfig OFF = new TracingConfig(null, DEFAULT_SERVICE_NAME, 1.0);

        public boolean enabled() {
            return otlpEndpoint != null;
        }
    }

    /** An OTLP/HTTP signal's URL ({@code /v1/traces}, {@code /v1/metrics}) under a collector's base URL, kept when named. */
    public static String signalUrl(URI collector, String signalPath) {
        String url = collector.toString();
        if (url.endsWith(signalPath)) {
            return url;
        }
        return (url.endsWith("/") ? url.substring(0, url.length() - 1) : url) + signalPath;
    }
}
