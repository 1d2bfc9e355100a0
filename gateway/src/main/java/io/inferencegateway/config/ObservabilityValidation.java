package io.inferencegateway.config;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** Validates {@code spec.observability}: the request meters, the access log, the tracer's and the meters' collector. */
final class ObservabilityValidation {

    private ObservabilityValidation() {
    }

    static ObservabilityConfig observability(InferenceGatewayConfig.Observability o) throws InvalidConfigException {
        if (o == null) {
            return ObservabilityConfig.DEFAULT;
        }
        return new ObservabilityConfig(!Boolean.FALSE.equals(o.requestMetrics()), Boolean.TRUE.equals(o.accessLog()),
                tracing(o.tracing()), metricsExport(o.metricsExport()));
    }

    private static ObservabilityConfig.MetricsExportConfig metricsExport(InferenceGatewayConfig.MetricsExport m)
            throws InvalidConfigException {
        if (m == null) {
            return ObservabilityConfig.MetricsExportConfig.OFF;
        }
        String at = "spec.observability.metricsExport";
        URI endpoint = m.otlpEndpoint() == null || m.otlpEndpoint().isBlank() ? null
                : ConfigChecks.httpUrl(m.otlpEndpoint(), at + ".otlpEndpoint");
        Duration interval = ConfigChecks.duration(m.interval(), at + ".interval",
                ObservabilityConfig.MetricsExportConfig.DEFAULT_INTERVAL, Duration.ofSeconds(1), Duration.ofHours(1));
        Map<String, String> headers = new LinkedHashMap<>();
        if (m.headers() != null) {
            for (Map.Entry<String, String> h : m.headers().entrySet()) {
                String value = h.getValue();
                if (!ConfigChecks.isHeaderName(h.getKey())) {
                    throw new InvalidConfigException(at + ".headers: '" + h.getKey() + "' is no HTTP header name");
                }
                if (value == null || value.chars().anyMatch(c -> c < 0x20 && c != '\t' || c == 0x7f)) {
                    throw new InvalidConfigException(at + ".headers." + h.getKey()
                            + " must be a value without line breaks or control characters");
                }
                headers.put(h.getKey(), value);
            }
        }
        return new ObservabilityConfig.MetricsExportConfig(endpoint, headers, interval);
    }

    private static ObservabilityConfig.TracingConfig tracing(InferenceGatewayConfig.Tracing t)
            throws InvalidConfigException {
        if (t == null) {
            return ObservabilityConfig.TracingConfig.OFF;
        }
        String at = "spec.observability.tracing";
        URI endpoint = t.otlpEndpoint() == null || t.otlpEndpoint().isBlank() ? null
                : ConfigChecks.httpUrl(t.otlpEndpoint(), at + ".otlpEndpoint");
        double ratio = t.samplingRatio() == null ? 1.0 : t.samplingRatio();
        if (!(ratio >= 0 && ratio <= 1)) {
            throw new InvalidConfigException(at + ".samplingRatio must be between 0 and 1, got " + t.samplingRatio());
        }
        String service = t.serviceName() == null || t.serviceName().isBlank()
                ? ObservabilityConfig.TracingConfig.DEFAULT_SERVICE_NAME : t.serviceName().strip();
        return new ObservabilityConfig.TracingConfig(endpoint, service, ratio);
    }
}
