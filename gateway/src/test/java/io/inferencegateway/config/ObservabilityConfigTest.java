package io.inferencegateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code spec.observability}: what it becomes, its defaults, and each mistake with the path it names. */
class ObservabilityConfigTest {

    private static final String HEAD = """
            kind: InferenceGatewayConfig
            spec:
              schedulers: [{modelName: m, endpoints: ['h:1']}]
            """;

    private static ObservabilityConfig load(String observability) throws InvalidConfigException {
        return ConfigLoader.parse(HEAD + "  observability: " + observability + "\n").observability();
    }

    @Test
    void withoutTheSectionRequestMetricsAreOnAndTheAccessLogAndTracingOff() throws Exception {
        assertThat(ConfigLoader.parse(HEAD).observability()).isEqualTo(ObservabilityConfig.DEFAULT);
        assertThat(load("{}")).isEqualTo(ObservabilityConfig.DEFAULT);
    }

    @Test
    void tracingNamesItsCollectorServiceAndSamplingRatio() throws Exception {
        ObservabilityConfig o = load("{requestMetrics: false, accessLog: true, tracing: "
                + "{otlpEndpoint: ' http://collector:4318 ', serviceName: ' gw ', samplingRatio: 0.25}}");

        assertThat(o).isEqualTo(new ObservabilityConfig(false, true, new ObservabilityConfig.TracingConfig(
                URI.create("http://collector:4318"), "gw", 0.25), ObservabilityConfig.MetricsExportConfig.OFF));
        assertThat(o.tracing().enabled()).isTrue();
    }

    @Test
    void tracingWithoutACollectorIsOffWithTheDefaultServiceName() throws Exception {
        assertThat(load("{tracing: {otlpEndpoint: '', serviceName: ' '}}").tracing())
                .isEqualTo(ObservabilityConfig.TracingConfig.OFF);
    }

    @Test
    void metricsExportNamesItsCollectorHeadersAndInterval() throws Exception {
        ObservabilityConfig.MetricsExportConfig m = load("{metricsExport: {otlpEndpoint: 'https://otlp.example:4318',"
                + " headers: {X-Scope-OrgID: team-a, Authorization: 'Basic dXNlcjpwYXNz'}, interval: 15s}}")
                .metricsExport();

        assertThat(m).isEqualTo(new ObservabilityConfig.MetricsExportConfig(URI.create("https://otlp.example:4318"),
                Map.of("X-Scope-OrgID", "team-a", "Authorization", "Basic dXNlcjpwYXNz"), Duration.ofSeconds(15)));
        assertThat(m.enabled()).isTrue();
        assertThat(load("{metricsExport: {interval: 10s}}").metricsExport().enabled()).as("no collector: off").isFalse();
        assertThat(load("{metricsExport: {otlpEndpoint: 'http://c:4318'}}").metricsExport().interval())
                .isEqualTo(Duration.ofSeconds(60));
    }

    static Stream<Arguments> mistakes() {
        return Stream.of(
                Arguments.of("a metrics collector that is not http", "{metricsExport: {otlpEndpoint: 'c:4317'}}",
                        "spec.observability.metricsExport.otlpEndpoint must be an http(s) URL, got 'c:4317'"),
                Arguments.of("a push every 100 ms", "{metricsExport: {otlpEndpoint: 'http://c:4318', interval: 100ms}}",
                        "spec.observability.metricsExport.interval must be 1s..1h, got '100ms'"),
                Arguments.of("a header name with a space", "{metricsExport: {headers: {'X Org': a}}}",
                        "spec.observability.metricsExport.headers: 'X Org' is no HTTP header name"),
                Arguments.of("a header value with a line break", "{metricsExport: {headers: {X-Org: \"a\\nb\"}}}",
                        "spec.observability.metricsExport.headers.X-Org must be a value without line breaks or "
                                + "control characters"),
                Arguments.of("a collector that is not http", "{tracing: {otlpEndpoint: 'grpc://c:4317'}}",
                        "spec.observability.tracing.otlpEndpoint must be an http(s) URL, got 'grpc://c:4317'"),
                Arguments.of("a collector without a host", "{tracing: {otlpEndpoint: 'http:///v1'}}",
                        "spec.observability.tracing.otlpEndpoint must be an http(s) URL, got 'http:///v1'"),
                Arguments.of("a sampling ratio above 1", "{tracing: {otlpEndpoint: 'http://c:4318', samplingRatio: 1.5}}",
                        "spec.observability.tracing.samplingRatio must be between 0 and 1, got 1.5"),
                Arguments.of("a negative sampling ratio", "{tracing: {samplingRatio: -0.1}}",
                        "spec.observability.tracing.samplingRatio must be between 0 and 1, got -0.1"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void eachMistakeNamesItsPath(String name, String observability, String message) {
        assertThatThrownBy(() -> load(observability)).isInstanceOf(InvalidConfigException.class).hasMessage(message);
    }
}
