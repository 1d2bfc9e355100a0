package io.inferencegateway.lab.bench.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.inferencegateway.lab.bench.ScenarioCatalog;
import io.inferencegateway.lab.bench.fleet.ExternalServers;
import io.inferencegateway.lab.bench.fleet.FleetSpec;
import io.inferencegateway.lab.bench.fleet.ServerEngine;

/** The rendered YAML as a document; {@code BenchConfigContractTest} feeds it to the gateway's validator. */
class GatewayConfigWriterTest {

    private static final List<InetSocketAddress> PODS = List.of(new InetSocketAddress("127.0.0.1", 9001),
            new InetSocketAddress("127.0.0.1", 9002));

    @Test
    @SuppressWarnings("unchecked")
    void rendersTheDocumentedShape() throws Exception {
        FleetSpec fleet = new FleetSpec("meta-llama/Llama-3.1-8B-Instruct", FleetSpec.pods(2),
                ScenarioCatalog.adapterNames("meta-llama/Llama-3.1-8B-Instruct", 2), 4, 6144, 64, 8192, 1.0);
        String yaml = GatewayConfigWriter.render(fleet, "round-robin", PODS, Duration.ofSeconds(300),
                Duration.ofMillis(50));
        Map<String, Object> doc = new ObjectMapper(new YAMLFactory()).readValue(yaml, Map.class);
        assertThat(doc).containsEntry("apiVersion", "inferencegateway.io/v1alpha1")
                .containsEntry("kind", "InferenceGatewayConfig")
                .containsEntry("metadata", Map.of("name", "bench"));
        Map<String, Object> scheduler = ((List<Map<String, Object>>) ((Map<String, Object>) doc.get("spec"))
                .get("schedulers")).get(0);
        assertThat(scheduler).containsEntry("name", "llama-3-1-8b-instruct")
                .containsEntry("modelName", "meta-llama/Llama-3.1-8B-Instruct")
                .containsEntry("loraAdapters", List.of("llama-3.1-8b-instruct-lora-0", "llama-3.1-8b-instruct-lora-1"))
                .containsEntry("endpoints", List.of("127.0.0.1:9001", "127.0.0.1:9002"))
                .containsEntry("policy", "round-robin")
                .containsEntry("routeTimeout", "300s")
                .containsEntry("metricsInterval", "50ms");
        assertThat(yaml).doesNotStartWith("---");
    }

    @Test
    @SuppressWarnings("unchecked")
    void aUsersOwnServersAreTheStaticEndpointsWithTheirEngineAndModel() throws Exception {
        ExternalServers servers = new ExternalServers(ServerEngine.LLAMACPP, List.of(
                new InetSocketAddress("127.0.0.1", 8081), new InetSocketAddress("localhost", 8082)));
        FleetSpec scenario = ScenarioCatalog.byName("shared-prefix", "qwen2.5-0.5b").orElseThrow().fleet();
        FleetSpec fleet = FleetSpec.onServers(servers, scenario);

        String yaml = GatewayConfigWriter.render(fleet, "gpu-aware", servers.endpoints(), Duration.ofSeconds(300),
                Duration.ofMillis(50));

        Map<String, Object> scheduler = ((List<Map<String, Object>>) ((Map<String, Object>) new ObjectMapper(
                new YAMLFactory()).readValue(yaml, Map.class).get("spec")).get("schedulers")).get(0);
        assertThat(scheduler).containsEntry("modelName", "qwen2.5-0.5b")
                .containsEntry("engineType", "llamacpp")
                .containsEntry("endpoints", List.of("127.0.0.1:8081", "localhost:8082"))
                .containsEntry("routeTimeout", "300s")
                .containsEntry("metricsInterval", "50ms")
                .doesNotContainKey("loraAdapters");
    }

    @Test
    void theSimulatorsPodsNameNoEngineAsBefore() {
        FleetSpec fleet = new FleetSpec("m", FleetSpec.pods(1), List.of(), 0, 100, 8, 8192, 1.0);
        assertThat(GatewayConfigWriter.render(fleet, "gpu-aware", PODS.subList(0, 1), Duration.ofSeconds(1),
                Duration.ofMillis(50))).doesNotContain("engineType");
    }

    @Test
    void noAdaptersNoLoraField() {
        FleetSpec fleet = new FleetSpec("m", FleetSpec.pods(1), List.of(), 0, 100, 8, 8192, 1.0);
        assertThat(GatewayConfigWriter.render(fleet, "gpu-aware", PODS.subList(0, 1), Duration.ofSeconds(1),
                Duration.ofMillis(50))).doesNotContain("loraAdapters");
    }

    @ParameterizedTest(name = "time scale {0}: route timeout {1}, scrape {2}")
    @CsvSource({
        "1.0, 300s, 50ms",
        "0.25, 1200s, 200ms",
        "2.0, 150s, 25ms",
        "10.0, 30s, 10ms",     // 5 ms would be a scrape storm: floored
        "1000.0, 1000ms, 10ms", // the route timeout never drops below a second
        "0.27, 1112s, 185ms",   // 1,111.1 s rounded up to whole seconds
    })
    void durationsAreSimulatedAndScaledToWallTime(double scale, String routeTimeout, String scrape) {
        FleetSpec fleet = new FleetSpec("m", FleetSpec.pods(1), List.of(), 0, 100, 8, 8192, scale);
        String yaml = GatewayConfigWriter.render(fleet, "gpu-aware", PODS.subList(0, 1), Duration.ofSeconds(300),
                Duration.ofMillis(50));
        assertThat(yaml).contains("routeTimeout: " + routeTimeout).contains("metricsInterval: " + scrape);
    }

    @ParameterizedTest(name = "{0}: policy {1}, weights {2}")
    @CsvSource(delimiter = '|', value = {
        "gpu-aware-no-slo | gpu-aware     | {latency=0}", // the GPU-aware policy as before latency targets
        "gpu-aware        | gpu-aware     | {}",          // the gateway's defaults: SLO-aware once it knows targets
        "least-request    | least-request | {}",
    })
    @SuppressWarnings("unchecked")
    void aPolicyLabelRendersAsTheGatewaysPolicyAndWeights(String label, String policy, String weights)
            throws Exception {
        FleetSpec fleet = ScenarioCatalog.byName("slo", ScenarioCatalog.DEFAULT_MODEL).orElseThrow().fleet();
        String yaml = GatewayConfigWriter.render(fleet, label, PODS, Duration.ofSeconds(300), Duration.ofMillis(50),
                null, false, true);
        Map<String, Object> scheduler = ((List<Map<String, Object>>) ((Map<String, Object>) new ObjectMapper(
                new YAMLFactory()).readValue(yaml, Map.class).get("spec")).get("schedulers")).get(0);

        assertThat(scheduler).containsEntry("policy", policy);
        assertThat(String.valueOf(scheduler.getOrDefault("weights", Map.of()))).isEqualTo(weights);
        assertThat((Map<String, Object>) scheduler.get("flowControl")).containsEntry("enabled", true);
    }

    @Test
    void theLatencyWeightIsANumberAndTheOnlyWeightWritten() {
        FleetSpec fleet = new FleetSpec("m", FleetSpec.pods(1), List.of(), 0, 100, 8, 8192, 1.0);
        String yaml = GatewayConfigWriter.render(fleet, BenchPolicy.GPU_AWARE_NO_SLO, PODS.subList(0, 1),
                Duration.ofSeconds(1), Duration.ofMillis(50));
        assertThat(yaml).contains("policy: gpu-aware\n").containsPattern("weights:\n +latency: 0\n")
                .doesNotContain("queue:").doesNotContain("prefix:");
    }

    @Test
    void gpuAwareNoSessionIsThePluginPolicyWithSessionAffinityOffAndTheGatewayAcceptsIt() throws Exception {
        FleetSpec fleet = new FleetSpec("m", FleetSpec.pods(1), List.of(), 0, 100, 8, 8192, 1.0);
        String yaml = GatewayConfigWriter.render(fleet, BenchPolicy.GPU_AWARE_NO_SESSION, PODS.subList(0, 1),
                Duration.ofSeconds(1), Duration.ofMillis(50));
        assertThat(yaml).contains("policy: gpu-aware\n").containsPattern("sessionAffinity:\n +enabled: false\n");
        assertThat(io.inferencegateway.config.ConfigLoader.parse(yaml).pools().get(0).sessionAffinity().enabled())
                .isFalse();
        assertThat(io.inferencegateway.config.ConfigLoader.parse(GatewayConfigWriter.render(fleet, "gpu-aware",
                PODS.subList(0, 1), Duration.ofSeconds(1), Duration.ofMillis(50))).pools().get(0).sessionAffinity()
                .enabled()).as("on by default").isTrue();
    }

    @Test
    @SuppressWarnings("unchecked")
    void gpuAwarePredictedTimeIsTheGpuAwarePolicyWithThatPickerInItsSchedulerEntry() throws Exception {
        FleetSpec fleet = new FleetSpec("m", FleetSpec.pods(1), List.of(), 0, 100, 8, 8192, 1.0);
        String yaml = GatewayConfigWriter.render(fleet, BenchPolicy.GPU_AWARE_PREDICTED_TIME, PODS.subList(0, 1),
                Duration.ofSeconds(1), Duration.ofMillis(50));
        // one line of the scheduler entry, beside policy (and weights, where a variant writes them)
        assertThat(yaml).contains("\n    policy: gpu-aware\n    picker: predicted-time\n");
        Map<String, Object> scheduler = ((List<Map<String, Object>>) ((Map<String, Object>) new ObjectMapper(
                new YAMLFactory()).readValue(yaml, Map.class).get("spec")).get("schedulers")).get(0);
        assertThat(scheduler).containsEntry("policy", "gpu-aware").containsEntry("picker", "predicted-time")
                .doesNotContainKey("weights").doesNotContainKey("sessionAffinity");
        assertThat(GatewayConfigWriter.render(fleet, "gpu-aware", PODS.subList(0, 1), Duration.ofSeconds(1),
                Duration.ofMillis(50))).as("the default config leaves the picker to the gateway")
                .doesNotContain("picker");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "meta-llama/Llama-3.1-8B-Instruct, llama-3-1-8b-instruct",
        "Qwen/Qwen2.5-7B, qwen2-5-7b",
        "plain, plain",
        "org/___, bench",
    })
    void schedulerNamesAreKubernetesStyle(String model, String name) {
        assertThat(GatewayConfigWriter.schedulerName(model)).isEqualTo(name);
    }
}
