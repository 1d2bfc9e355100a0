package io.inferencegateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.models.chat.completions.ChatCompletionCreateParams;

import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.testing.GatewayHarness;
import io.inferencegateway.testing.OtlpCollector;
import io.inferencegateway.testing.OtlpCollector.ReceivedMetric;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Metric;

/**
 * {@code spec.observability.metricsExport} end to end: the real gateway in front of simulated vLLM pods pushes every
 * meter of {@code GET /metrics}, those made by the first request included, to a loopback collector over OTLP/HTTP
 * protobuf, with their labels, the configured headers and the service name.
 */
class MetricsPushEndToEndTest {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    /** Pushes every second; allow for a loaded machine. */
    static final Duration PUSHED = Duration.ofSeconds(30);

    @Test
    void everyMeterIsPushedWithItsLabelsAndTheConfiguredHeaders() throws Exception {
        try (OtlpCollector collector = new OtlpCollector();
             SimulatedFleet fleet = SimulatedFleet.start(FleetOptions.builder().pods(2).model(MODEL).build());
             GatewayHarness gateway = GatewayHarness.start("""
                     kind: InferenceGatewayConfig
                     spec:
                       observability:
                         tracing: {serviceName: gateway-under-test}
                         metricsExport:
                           otlpEndpoint: %s
                           interval: 1s
                           headers: {X-Scope-OrgID: team-a}
                       schedulers:
                         - name: llama
                           modelName: %s
                           metricsInterval: 100ms
                           endpoints: [%s]
                     """.formatted(collector.baseUrl(), MODEL, GatewayHarness.quotedList(fleet.endpoints())))) {
            OpenAIClient client = OpenAIOkHttpClient.builder().baseUrl(gateway.baseUrl() + "/v1").apiKey("unused")
                    .maxRetries(0).build();
            client.chat().completions().create(ChatCompletionCreateParams.builder().model(MODEL)
                    .addUserMessage("hello").maxCompletionTokens(8).build());
            List<Meter> meters = gateway.server().gateway().meterRegistry().getMeters();
            Set<String> names = meters.stream().map(m -> m.getId().getName()).collect(Collectors.toSet());
            assertThat(names).contains("inference_objective_request", "inference_gateway_scheduler_picks");

            await().atMost(PUSHED).untilAsserted(() -> assertThat(pushedNames(collector)).containsAll(names));

            for (Meter m : meters) { // and each with the labels it has on /metrics
                Set<String> keys = m.getId().getTags().stream().map(Tag::getKey).collect(Collectors.toSet());
                assertThat(collector.metrics().stream().filter(r -> r.name().equals(m.getId().getName()))
                        .anyMatch(r -> attributeKeys(r.metric()).contains(keys)))
                        .as("%s with %s", m.getId().getName(), keys).isTrue();
            }
            assertThat(collector.metrics()).allMatch(r -> "gateway-under-test".equals(r.serviceName()));
            assertThat(collector.metricsHeader("X-Scope-OrgID")).isEqualTo("team-a");
        }
    }

    private static Set<String> pushedNames(OtlpCollector collector) {
        return collector.metrics().stream().map(ReceivedMetric::name).collect(Collectors.toSet());
    }

    /** The attribute keys of each data point of a metric, whatever its kind. */
    private static Set<Set<String>> attributeKeys(Metric metric) {
        List<List<KeyValue>> points = switch (metric.getDataCase()) {
            case GAUGE -> metric.getGauge().getDataPointsList().stream().map(p -> p.getAttributesList()).toList();
            case SUM -> metric.getSum().getDataPointsList().stream().map(p -> p.getAttributesList()).toList();
            case HISTOGRAM -> metric.getHistogram().getDataPointsList().stream().map(p -> p.getAttributesList())
                    .toList();
            case SUMMARY -> metric.getSummary().getDataPointsList().stream().map(p -> p.getAttributesList()).toList();
            case EXPONENTIAL_HISTOGRAM -> metric.getExponentialHistogram().getDataPointsList().stream()
                    .map(p -> p.getAttributesList()).toList();
            default -> List.of();
        };
        Set<Set<String>> keys = new HashSet<>();
        for (List<KeyValue> point : points) {
            keys.add(point.stream().map(KeyValue::getKey).collect(Collectors.toSet()));
        }
        return keys;
    }
}
