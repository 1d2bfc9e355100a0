package io.inferencegateway.e2e;

import static io.inferencegateway.testing.ChatRequests.chat;
import static io.inferencegateway.testing.ChatRequests.chatWithSystem;
import static io.inferencegateway.testing.ChatRequests.send;
import static io.inferencegateway.testing.ChatRequests.sendAsync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.simulator.SimulatedPod;
import io.inferencegateway.testing.GatewayHarness;

/**
 * The scheduler's and the scrapes' meters as an operator reads them: the real gateway in front of simulated vLLM
 * pods, {@code GET /metrics} over HTTP, compared with what the pods themselves say (docs/observability.md).
 */
class SchedulerMetricsTest {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final Duration PATIENCE = Duration.ofSeconds(15);

    SimulatedFleet fleet;
    GatewayHarness gateway;
    final List<CompletableFuture<?>> background = new ArrayList<>();

    void start(FleetOptions.Builder options) throws Exception {
        fleet = SimulatedFleet.start(options.model(MODEL).build());
        gateway = GatewayHarness.start(config(fleet.endpoints()));
    }

    String config(List<String> endpoints) {
        return GatewayHarness.fleetConfig(MODEL, fleet.adapterNames(), endpoints, "policy: gpu-aware",
                "metricsInterval: 100ms");
    }

    @AfterEach
    void stop() throws Exception {
        background.forEach(f -> f.cancel(true));
        if (gateway != null) {
            gateway.close();
        }
        if (fleet != null) {
            fleet.close();
        }
    }

    @Test
    void perPodGaugesShowWhatThePodsThemselvesReport() throws Exception {
        // a small KV cache (400 blocks of 16 tokens), so that two running long prompts use a visible share of it
        start(FleetOptions.builder().pods(3).maxNumSeqs(2).loras(2).maxLoras(2).kvBlocks(400).timeScale(1));
        SimulatedPod busy = fleet.pod(0);
        SimulatedPod withAdapter = fleet.pod(2);
        String longPrompt = "please keep this in mind ".repeat(100);
        for (int i = 0; i < 5; i++) {
            background.add(sendAsync(busy.baseUrl(), chat(MODEL, i + " " + longPrompt, 4000)));
        }
        background.add(sendAsync(withAdapter.baseUrl(), chat(fleet.adapterNames().get(0), "adapter work", 4000)));

        // the pods' own state is steady while their long requests decode: 2 running and 3 queued on pod 0
        await().atMost(PATIENCE).untilAsserted(() -> {
            Scrape m = scrapeGateway();
            for (SimulatedPod pod : List.of(busy, fleet.pod(1), withAdapter)) {
                String p = pod.host() + ":" + pod.port();
                assertThat(m.value("inference_pool_per_pod_queue_size", "name", "llama", "model_server_pod", p))
                        .as("queue of %s", p).isEqualTo(pod.waiting());
                assertThat(m.value("inference_pool_per_pod_running_requests", "name", "llama", "model_server_pod", p))
                        .as("running on %s", p).isEqualTo(pod.running());
                assertThat(m.value("inference_pool_per_pod_kv_cache_utilization", "name", "llama",
                        "model_server_pod", p)).as("KV use of %s", p).isCloseTo(pod.kvUsage(), within(0.02));
                assertThat(m.value("inference_pool_per_pod_metrics_age_seconds", "name", "llama",
                        "model_server_pod", p)).as("age of %s's metrics", p).isBetween(0.0, 0.4);
            }
            assertThat(m.value("inference_pool_per_pod_queue_size", "name", "llama", "model_server_pod",
                    busy.host() + ":" + busy.port())).isEqualTo(3);
            assertThat(m.value("inference_pool_per_pod_loaded_adapters", "name", "llama", "model_server_pod",
                    withAdapter.host() + ":" + withAdapter.port())).isEqualTo(1);
            assertThat(m.value("inference_pool_per_pod_loaded_adapters", "name", "llama", "model_server_pod",
                    busy.host() + ":" + busy.port())).isZero();
            assertThat(m.value("inference_pool_per_pod_kv_cache_utilization", "name", "llama", "model_server_pod",
                    busy.host() + ":" + busy.port())).as("two long prompts' share of the cache").isGreaterThan(0.05);
            assertThat(m.value("inference_pool_ready_pods", "name", "llama")).isEqualTo(3);
            assertThat(m.value("inference_pool_average_queue_size", "name", "llama")).isEqualTo(1.0);
            assertThat(m.value("inference_pool_average_kv_cache_utilization", "name", "llama"))
                    .isCloseTo((busy.kvUsage() + fleet.pod(1).kvUsage() + withAdapter.kvUsage()) / 3, within(0.02));
        });

        Scrape m = scrapeGateway();
        for (String pod : fleet.endpoints()) {
            assertThat(m.value("inference_gateway_metrics_scrapes_total", "pod", pod, "pool", "llama",
                    "result", "succeeded")).as("good scrapes of %s", pod).isPositive();
            assertThat(m.value("inference_gateway_metrics_scrapes_total", "pod", pod, "pool", "llama",
                    "result", "failed")).isZero();
        }
        double scrapes = m.sum("inference_gateway_metrics_scrapes_total", "pool", "llama", "result", "succeeded");
        assertThat(m.value("inference_gateway_metrics_scrape_duration_seconds_count", "pool", "llama"))
                .as("every answered scrape is in the histogram").isGreaterThanOrEqualTo(scrapes);
        assertThat(m.value("inference_gateway_metrics_scrape_duration_seconds_bucket", "pool", "llama", "le", "+Inf"))
                .isPositive();
    }

    @Test
    void filterCountersMoveWhileAPodIsSaturatedAndThePrefixIndexGrows() throws Exception {
        start(FleetOptions.builder().pods(3).maxNumSeqs(2).timeScale(2));
        SimulatedPod busy = fleet.pod(0);
        for (int i = 0; i < 10; i++) {
            background.add(sendAsync(busy.baseUrl(), chat(MODEL, "keep busy " + i, 4000)));
        }
        String busyPod = busy.host() + ":" + busy.port();
        await().atMost(PATIENCE).until(() -> scrapeGateway().value("inference_pool_per_pod_queue_size", "name",
                "llama", "model_server_pod", busyPod) >= 5);

        Scrape before = scrapeGateway();
        String system = "You are a careful assistant for the support desk of a bicycle shop. ".repeat(20);
        for (int i = 0; i < 6; i++) {
            assertThat(send(gateway.baseUrl(), chatWithSystem(MODEL, system, "question " + i)).statusCode()).isEqualTo(200);
        }
        Scrape after = scrapeGateway();
        String[] saturated = {"filter", "saturation-filter", "outcome", "saturated", "pool", "llama"};
        assertThat(after.value("inference_gateway_scheduler_filtered_total", saturated)
                - before.valueOrZero("inference_gateway_scheduler_filtered_total", saturated))
                .as("the saturated pod was removed from each of the 6 requests' candidates").isEqualTo(6);
        assertThat(after.value("inference_extension_prefix_indexer_size", "pool", "llama"))
                .as("the system prompt's blocks, recorded against the pod they went to")
                .isGreaterThanOrEqualTo(system.length() / 64);
        assertThat(after.value("inference_gateway_scheduler_fallback", "pool", "llama")).isZero();
    }

    @Test
    void aPodThatLeavesThePoolLeavesMetrics() throws Exception {
        start(FleetOptions.builder().pods(3).timeScale(4));
        String leaving = fleet.endpoints().get(2);
        await().atMost(PATIENCE).until(() -> scrapeGateway().value("inference_pool_ready_pods", "name", "llama") == 3);
        assertThat(scrapeGateway().text()).contains("model_server_pod=\"" + leaving + "\"", "pod=\"" + leaving + "\"");

        Files.writeString(gateway.configFile(), config(fleet.endpoints().subList(0, 2))); // the gateway watches it
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(scrapeGateway().text())
                .doesNotContain(leaving));
        Scrape m = scrapeGateway();
        assertThat(m.value("inference_gateway_pool_endpoints", "pool", "llama")).isEqualTo(2);
        for (String staying : fleet.endpoints().subList(0, 2)) {
            assertThat(m.value("inference_pool_per_pod_queue_size", "name", "llama", "model_server_pod", staying))
                    .as("%s still has its series", staying).isNotNaN();
        }
        await().atMost(PATIENCE).until(() -> scrapeGateway().value("inference_pool_ready_pods", "name", "llama") == 2);
    }

    // ---- helpers --------------------------------------------------------------------------------

    /** One read of the gateway's /metrics. */
    record Scrape(String text, List<Sample> samples) {

        record Sample(String name, Map<String, String> labels, double value) {
        }

        private static final Pattern LINE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})? (\\S+)$");
        private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

        static Scrape parse(String text) {
            List<Sample> samples = new ArrayList<>();
            for (String line : text.split("\n")) {
                Matcher m = LINE.matcher(line);
                if (line.startsWith("#") || !m.matches()) {
                    continue;
                }
                Map<String, String> labels = new HashMap<>();
                if (m.group(3) != null) {
                    Matcher l = LABEL.matcher(m.group(3));
                    while (l.find()) {
                        labels.put(l.group(1), l.group(2));
                    }
                }
                samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(4))));
            }
            return new Scrape(text, samples);
        }

        /** The one sample of {@code name} whose labels are exactly these pairs; fails when there is none. */
        double value(String name, String... labelPairs) {
            Map<String, String> wanted = pairs(labelPairs);
            return samples.stream().filter(s -> s.name().equals(name) && s.labels().equals(wanted))
                    .mapToDouble(Sample::value).findFirst()
                    .orElseThrow(() -> new AssertionError("no sample " + name + wanted + " in\n" + text));
        }

        double valueOrZero(String name, String... labelPairs) {
            Map<String, String> wanted = pairs(labelPairs);
            return samples.stream().filter(s -> s.name().equals(name) && s.labels().equals(wanted))
                    .mapToDouble(Sample::value).findFirst().orElse(0);
        }

        /** The sum over samples of {@code name} that carry at least these pairs. */
        double sum(String name, String... labelPairs) {
            Map<String, String> wanted = pairs(labelPairs);
            return samples.stream().filter(s -> s.name().equals(name)
                    && s.labels().entrySet().containsAll(wanted.entrySet())).mapToDouble(Sample::value).sum();
        }

        private static Map<String, String> pairs(String... labelPairs) {
            Map<String, String> m = new HashMap<>();
            for (int i = 0; i < labelPairs.length; i += 2) {
                m.put(labelPairs[i], labelPairs[i + 1]);
            }
            return m;
        }
    }

    private Scrape scrapeGateway() throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        return Scrape.parse(r.body());
    }
}
