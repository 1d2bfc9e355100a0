package io.inferencegateway.e2e;

import static io.inferencegateway.testing.ChatRequests.chat;
import static io.inferencegateway.testing.ChatRequests.chatWithSystem;
import static io.inferencegateway.testing.ChatRequests.send;
import static io.inferencegateway.testing.ChatRequests.sendAsync;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.runtime.Gateway;
import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.simulator.SimulatedPod;
import io.inferencegateway.testing.GatewayHarness;

/**
 * The GPU-aware policy end to end: the real gateway over HTTP in front of simulated vLLM pods, steering
 * by what the pods publish on /metrics.
 */
class GpuAwareRoutingTest {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static final HttpClient HTTP = HttpClient.newHttpClient();
    /** The policy counts metrics as stale after four scrape intervals (100 ms each here). */
    static final Duration STALE_AFTER = Duration.ofMillis(400);

    SimulatedFleet fleet;
    GatewayHarness gateway;
    final List<CompletableFuture<?>> background = new ArrayList<>();

    void start(FleetOptions.Builder options) throws Exception {
        fleet = SimulatedFleet.start(options.model(MODEL).build());
        gateway = GatewayHarness.start(GatewayHarness.fleetConfig(fleet, MODEL, "policy: gpu-aware",
                "metricsInterval: 100ms"));
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
    void podWithALongQueueStopsReceiving() throws Exception {
        start(FleetOptions.builder().pods(3).maxNumSeqs(2).timeScale(2));
        SimulatedPod busy = fleet.pod(0);
        for (int i = 0; i < 10; i++) {
            background.add(sendAsync(busy.baseUrl(), chat(MODEL, "keep busy " + i, 4000)));
        }
        awaitScraped(busy, m -> m.waiting() >= 5);

        long[] before = received();
        for (int i = 0; i < 12; i++) {
            assertThat(send(gateway.baseUrl(), chat(MODEL, "q" + i, 2)).statusCode()).isEqualTo(200);
        }
        long[] delta = delta(before);
        assertThat(delta[0]).as("the pod with a queue of %d", busy.waiting()).isZero();
        assertThat(delta[1] + delta[2]).isEqualTo(12);
    }

    @Test
    void podWithTheAdapterLoadedWins() throws Exception {
        start(FleetOptions.builder().pods(3).loras(4).maxLoras(2).timeScale(2));
        String adapter = fleet.adapterNames().get(3);
        SimulatedPod holder = fleet.pod(2);
        background.add(sendAsync(holder.baseUrl(), chat(adapter, "long running adapter request", 4000)));
        awaitScraped(holder, m -> m.runningAdapters().contains(adapter));

        long[] before = received();
        for (int i = 0; i < 8; i++) {
            assertThat(send(gateway.baseUrl(), chat(adapter, "adapter question " + i, 2)).statusCode()).isEqualTo(200);
        }
        assertThat(delta(before)).containsExactly(0, 0, 8);
    }

    @Test
    void requestsSharingALongSystemPromptStickToThePodThatHasIt() throws Exception {
        start(FleetOptions.builder().pods(4).timeScale(4));
        for (int i = 0; i < 4; i++) {
            awaitScraped(fleet.pod(i), m -> true); // fresh metrics everywhere: no stale-metrics fallback
        }
        String system = "You are a careful assistant for the support desk of a bicycle shop. ".repeat(60);
        long[] before = received();
        for (int i = 0; i < 10; i++) {
            assertThat(send(gateway.baseUrl(), chatWithSystem(MODEL, system, "question number " + i)).statusCode()).isEqualTo(200);
        }
        long[] delta = delta(before);
        assertThat(delta).as("all ten on one pod").contains(10L).containsOnly(0L, 10L);
    }

    @Test
    void responsesSharingLongInstructionsStickToOnePodToo() throws Exception {
        start(FleetOptions.builder().pods(4).timeScale(4));
        for (int i = 0; i < 4; i++) {
            awaitScraped(fleet.pod(i), m -> true);
        }
        String instructions = "Answer as the support desk of a bicycle shop, politely and briefly. ".repeat(60);
        long[] before = received();
        for (int i = 0; i < 10; i++) {
            String body = "{\"model\":\"" + MODEL + "\",\"max_output_tokens\":2,\"input\":\"question number " + i
                    + "\",\"instructions\":\"" + instructions + "\"}";
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/v1/responses"))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        }
        long[] delta = delta(before);
        assertThat(delta).as("all ten on one pod").contains(10L).containsOnly(0L, 10L);
    }

    @Test
    void podWhoseMetricsDieIsAvoidedAndComesBackWhenTheyRecover() throws Exception {
        start(FleetOptions.builder().pods(3).timeScale(4));
        SimulatedPod flaky = fleet.pod(1);
        Endpoint flakyEndpoint = endpoint(flaky);
        awaitScraped(flaky, m -> true);
        flaky.failMetrics();
        Gateway g = gateway.server().gateway();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> g.metrics().isStale(flakyEndpoint, System.nanoTime(), STALE_AFTER));

        long[] before = received();
        for (int i = 0; i < 20; i++) {
            assertThat(send(gateway.baseUrl(), chat(MODEL, "u" + i, 2)).statusCode()).isEqualTo(200);
        }
        assertThat(delta(before)[1]).as("requests to the pod with stale metrics").isZero();

        flaky.healMetrics();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !g.metrics().isStale(flakyEndpoint, System.nanoTime(), STALE_AFTER));
        long[] again = received();
        for (int i = 0; i < 30; i++) {
            assertThat(send(gateway.baseUrl(), chat(MODEL, "v" + i, 2)).statusCode()).isEqualTo(200);
        }
        assertThat(delta(again)[1]).as("the recovered pod is used again").isPositive();
    }

    @Test
    void whenEveryPodsMetricsAreStaleRequestsStillFlowAndTheFallbackMetricSaysSo() throws Exception {
        start(FleetOptions.builder().pods(2).timeScale(4));
        awaitScraped(fleet.pod(0), m -> true);
        awaitScraped(fleet.pod(1), m -> true);
        assertThat(send(gateway.baseUrl(), chat(MODEL, "before", 2)).statusCode()).isEqualTo(200);
        assertThat(gatewayMetric()).contains("inference_gateway_scheduler_fallback{pool=\"llama\"} 0.0");

        fleet.pod(0).failMetrics();
        fleet.pod(1).failMetrics();
        Gateway g = gateway.server().gateway();
        await().atMost(Duration.ofSeconds(10)).until(() -> fleet.endpoints().stream().map(Endpoint::parse)
                .allMatch(e -> g.metrics().isStale(e, System.nanoTime(), STALE_AFTER)));
        assertThat(send(gateway.baseUrl(), chat(MODEL, "during", 2)).statusCode()).isEqualTo(200);
        assertThat(gatewayMetric()).contains("inference_gateway_scheduler_fallback{pool=\"llama\"} 1.0");

        fleet.pod(0).healMetrics();
        fleet.pod(1).healMetrics();
        awaitScraped(fleet.pod(0), m -> m.scrapeStartedNanos() > System.nanoTime() - 100_000_000L);
        assertThat(send(gateway.baseUrl(), chat(MODEL, "after", 2)).statusCode()).isEqualTo(200);
        assertThat(gatewayMetric()).contains("inference_gateway_scheduler_fallback{pool=\"llama\"} 0.0");
    }

    private String gatewayMetric() throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    // ---- helpers --------------------------------------------------------------------------------

    interface MetricsCheck {
        boolean test(io.inferencegateway.metrics.EndpointMetrics m);
    }

    private void awaitScraped(SimulatedPod pod, MetricsCheck check) {
        Endpoint e = endpoint(pod);
        await().atMost(Duration.ofSeconds(15)).until(() -> {
            var m = gateway.server().gateway().metrics().latest(e);
            return m != null && check.test(m);
        });
    }

    private static Endpoint endpoint(SimulatedPod pod) {
        return new Endpoint(pod.host(), pod.port());
    }

    private long[] received() {
        long[] r = new long[fleet.ports().size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = fleet.pod(i).requestsReceived();
        }
        return r;
    }

    private long[] delta(long[] before) {
        long[] now = received();
        for (int i = 0; i < now.length; i++) {
            now[i] -= before[i];
        }
        return now;
    }
}
