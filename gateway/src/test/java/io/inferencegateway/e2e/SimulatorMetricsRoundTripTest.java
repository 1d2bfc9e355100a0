package io.inferencegateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.metrics.EngineDialect;
import io.inferencegateway.metrics.EngineDialects;
import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.MetricsDialect;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.simulator.SimulatedPod;

/** What the simulator publishes for each engine, the gateway's own parser reads back as the engine's state. */
class SimulatorMetricsRoundTripTest {

    static final HttpClient HTTP = HttpClient.newHttpClient();

    record Snapshot(String text, int running, int waiting, double kvUsage) {
    }

    @ParameterizedTest
    @EnumSource(MetricsDialect.class)
    void gatewayParserReadsTheSimulatedEngineState(MetricsDialect engine) throws Exception {
        FleetOptions options = FleetOptions.builder().pods(1).maxNumSeqs(2).loras(2).engine(engine).timeScale(1)
                .build();
        try (SimulatedFleet fleet = SimulatedFleet.start(options)) {
            SimulatedPod pod = fleet.pod(0);
            String adapter = fleet.adapterNames().get(0);
            for (int i = 0; i < 5; i++) {
                String model = i == 0 ? adapter : "meta-llama/Llama-3.1-8B-Instruct";
                HTTP.sendAsync(HttpRequest.newBuilder(URI.create(pod.baseUrl() + "/v1/completions"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + model
                                + "\",\"prompt\":\"" + "p".repeat(400) + i + "\",\"max_tokens\":5000}")).build(),
                        HttpResponse.BodyHandlers.discarding());
                if (i == 0) { // the adapter's request first, so that it is one of the two running
                    await().atMost(Duration.ofSeconds(10)).until(() -> pod.running() == 1);
                }
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> pod.running() == 2 && pod.waiting() == 3);

            Snapshot s = pod.onLoop(() -> new Snapshot(pod.metricsText(), pod.running(), pod.waiting(), pod.kvUsage()));
            EngineDialect dialect = EngineDialects.forEngine(engine.cliName());
            byte[] text = s.text().getBytes(StandardCharsets.UTF_8);
            EngineDialect.Parsed parsed = dialect.read(text, 0, text.length, 0, InFlightRequests.Counters.ZERO);
            EndpointMetrics m = parsed.metrics();

            assertThat(parsed.stats().garbageLines()).isZero();
            assertThat(m.running()).isEqualTo(s.running());
            assertThat(m.waiting()).isEqualTo(s.waiting());
            if (engine == MetricsDialect.TGI || engine == MetricsDialect.LLAMACPP) {
                assertThat(m.kvUsage()).as(engine + " publishes no KV use").isNaN();
            } else {
                assertThat(m.kvUsage()).isCloseTo(s.kvUsage(), org.assertj.core.data.Offset.offset(1e-6));
            }
            if (engine == MetricsDialect.VLLM) {
                assertThat(m.runningAdapters()).containsExactly(adapter);
                assertThat(m.maxLora()).isEqualTo(4);
                assertThat(m.kvBlockSize()).isEqualTo(16);
            }

            // and it is served where the gateway scrapes that engine
            HttpResponse<String> served = HTTP.send(HttpRequest.newBuilder(
                    URI.create(pod.baseUrl() + dialect.metricsPath())).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(served.statusCode()).isEqualTo(200);
            byte[] servedText = served.body().getBytes(StandardCharsets.UTF_8);
            assertThat(dialect.read(servedText, 0, servedText.length, 0, InFlightRequests.Counters.ZERO).metrics()
                    .running()).isEqualTo(2);

            if (dialect.capacityPath() != null) { // llama.cpp: its slots and their context, where the gateway asks
                HttpResponse<byte[]> props = HTTP.send(HttpRequest.newBuilder(
                        URI.create(pod.baseUrl() + dialect.capacityPath())).build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                EngineDialect.KvGeometry g = dialect.readCapacity(props.body(), 0, props.body().length);
                assertThat(g.blocks()).as("slots").isEqualTo(2);
                assertThat(g.blockTokens() * g.blocks()).as("the pod's KV cache in tokens")
                        .isEqualTo((long) options.engineConfig(0).numGpuBlocks() * options.engineConfig(0).blockSize());
            }
        }
    }
}
