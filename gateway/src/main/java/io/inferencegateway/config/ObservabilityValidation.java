package io.inferencegateway.config;

import java.net.URI;

/** Validates {@code spec.observability}: the request meters, the access log and the tracer's collector. */
final class ObservabilityValidation {

    private ObservabilityValidation() {
    }

    static ObservabilityConfig observability(InferenceGatewayConfig.Observability o) throws InvalidConfigException {
        if (o == null) {
            return ObservabilityConfig.DEFAULT;
        }
        return new ObservabilityConfig(!Boolean.FALSE.equals(o.requestMetrics()), Boolean.TRUE.equals(o.accessLog()),
                tracing(o.tracing()));
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
