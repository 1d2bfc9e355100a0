package io.inferencegateway.config;

import java.net.URI;
import java.util.Objects;

/**
 * What the gateway reports about the requests it serves ({@code spec.observability}).
 *
 * @param requestMetrics the per-request meters of {@code GET /metrics} (docs/observability.md); on by default
 * @param accessLog      one JSON line per request on the {@code io.inferencegateway.access} logger; off by default
 * @param tracing        OpenTelemetry spans over OTLP; off by default
 */
public record ObservabilityConfig(boolean requestMetrics, boolean accessLog, TracingConfig tracing) {

    public static final ObservabilityConfig DEFAULT = new ObservabilityConfig(true, false, TracingConfig.OFF);

    public ObservabilityConfig {
        Objects.requireNonNull(tracing, "tracing");
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
}
