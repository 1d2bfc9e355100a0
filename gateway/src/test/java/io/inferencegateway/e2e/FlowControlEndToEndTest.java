package io.inferencegateway.e2e;

import static io.inferencegateway.testing.ChatRequests.chat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.errors.RateLimitException;
import com.openai.models.chat.completions.ChatCompletionCreateParams;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.simulator.SimulatedPod;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.pool.FlowControl;
import io.inferencegateway.testing.ChatRequests;
import io.inferencegateway.testing.GatewayHarness;

/**
 * Flow control end to end: the gateway in front of one simulated vLLM pod that runs one request at a time and has five
 * waiting (the saturation filter's default limit), so that requests wait in the gateway; the pod serves them in the
 * order the gateway bound them.
 */
class FlowControlEndToEndTest {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static final HttpClient HTTP = HttpClient.newHttpClient();

    SimulatedFleet fleet;
    GatewayHarness gateway;
    final List<CompletableFuture<?>> background = new ArrayList<>();

    void start(String... flowControl) throws Exception {
        fleet = SimulatedFleet.start(FleetOptions.builder().model(MODEL).pods(1).maxNumSeqs(1).timeScale(1).build());
        // metrics count as fresh for 2 s, so that a busy test machine's late scrapes do not look like stale metrics
        // (with which the policy routes by in-flight counts and holds nothing back)
        List<String> lines = new ArrayList<>(List.of("policy: gpu-aware", "metricsStalenessThreshold: 2s",
                "flowControl:", "  enabled: true"));
        for (String line : flowControl) {
            lines.add("  " + line);
        }
        // one I/O thread: requests bound one after the other also reach the pod in that order (with more, each goes
        // out on its own client's thread and two bound together may swap on the way)
        gateway = GatewayHarness.start(GatewayHarness.fleetConfig(fleet, MODEL, lines.toArray(String[]::new)),
                Map.of("gateway.ioThreads", "1"));
    }

    @AfterEach
    void stop() throws Exception {
        if (fleet != null) {
            resume(); // what waits is served quickly, so that the gateway's drain on close is short
        }
        background.forEach(f -> f.cancel(true));
        if (gateway != null) {
            gateway.close();
        }
        if (fleet != null) {
            fleet.close();
        }
    }

    FlowControl queue() {
        return gateway.server().gateway().pools().pool("llama").flowControl();
    }

    CompletableFuture<HttpResponse<String>> send(String text, int maxTokens, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/v1/chat/completions"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(chat(MODEL, text, maxTokens)));
        headers.forEach(b::header);
        CompletableFuture<HttpResponse<String>> f = HTTP.sendAsync(b.build(), HttpResponse.BodyHandlers.ofString());
        background.add(f);
        return f;
    }

    /**
     * Gives the pod, straight and not through the gateway, one request to run and five to queue, and slows it to a
     * hundredth of its speed so that nothing ends until {@link #resume()}; waits until the gateway's scrape shows the
     * five: from then on the pod is saturated in the gateway's eyes, and every request sent through it waits.
     */
    void saturate() {
        SimulatedPod pod = fleet.pod(0);
        pod.speed(0.01);
        for (int i = 0; i < 6; i++) {
            background.add(ChatRequests.sendAsync(pod.baseUrl(), chat(MODEL, "fill " + i, 8)));
        }
        Endpoint endpoint = Endpoint.parse(fleet.endpoints().get(0));
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            EndpointMetrics m = gateway.server().gateway().metrics().latest(endpoint);
            return m != null && m.waiting() >= 5;
        });
    }

    void resume() {
        fleet.pod(0).speed(1);
    }

    /** Sends a request and waits until it is queued, so that arrivals keep the test's order. */
    CompletableFuture<HttpResponse<String>> queued(String text, Map<String, String> headers) {
        int before = queue().queued();
        CompletableFuture<HttpResponse<String>> f = send(text, 4, headers);
        await().atMost(Duration.ofSeconds(5)).until(() -> queue().queued() == before + 1);
        return f;
    }

    @Test
    void whileThePodIsSaturatedCriticalOvertakesStandardAndSheddableIsRefusedWithRetryAfter() throws Exception {
        start();
        saturate();
        ConcurrentLinkedQueue<String> served = new ConcurrentLinkedQueue<>();
        for (String priority : List.of("standard", "critical")) {
            for (int i = 0; i < 3; i++) {
                String name = priority + "-" + i;
                queued(name, Map.of("x-gateway-priority", priority)).thenAccept(r -> served.add(name + " " + r.statusCode()));
            }
        }
        assertThat(queue().queued("critical")).isEqualTo(3);

        OpenAIClient client = OpenAIOkHttpClient.builder().baseUrl(gateway.baseUrl() + "/v1").apiKey("unused")
                .maxRetries(0).build();
        ChatCompletionCreateParams sheddable = ChatCompletionCreateParams.builder().model(MODEL)
                .addUserMessage("may wait for nobody").maxCompletionTokens(4)
                .putAdditionalHeader("x-gateway-priority", "sheddable").build();
        assertThatThrownBy(() -> client.chat().completions().create(sheddable))
                .isInstanceOfSatisfying(RateLimitException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(429);
                    assertThat(e.headers().values("Retry-After")).containsExactly("1");
                    assertThat(e.headers().values("x-gateway-dropped-reason")).containsExactly("sheddable_saturated");
                    assertThat(e.code()).contains("overloaded");
                });

        resume();
        await().atMost(Duration.ofSeconds(60)).until(() -> served.size() == 6);
        assertThat(served).containsExactly("critical-0 200", "critical-1 200", "critical-2 200",
                "standard-0 200", "standard-1 200", "standard-2 200");
        assertThat(scrape()).contains(
                "inference_gateway_flow_control_dropped_total{pool=\"llama\",priority=\"sheddable\","
                        + "reason=\"sheddable_saturated\"} 1.0")
                .contains("inference_extension_flow_control_request_queue_duration_seconds_count{outcome=\"dispatched\","
                        + "pool=\"llama\",priority=\"critical\"} 3");
        await().atMost(Duration.ofSeconds(60)).until(() -> queue().queued() == 0);
    }

    @Test
    void withinOnePriorityTwoTenantsTakeTurns() throws Exception {
        start();
        saturate();
        ConcurrentLinkedQueue<String> served = new ConcurrentLinkedQueue<>();
        for (String name : List.of("a1", "a2", "a3", "b1", "b2")) {
            queued(name, Map.of("x-gateway-fairness-id", "tenant-" + name.charAt(0))).thenAccept(r -> served.add(name));
        }

        resume();
        await().atMost(Duration.ofSeconds(60)).until(() -> served.size() == 5);
        assertThat(served).containsExactly("a1", "b1", "a2", "b2", "a3");
    }

    @Test
    void aRequestThatWaitsPastTheQueueTimeoutGets429QueueTimeout() throws Exception {
        start("queueTimeout: 300ms", "retryAfter: 3s");
        saturate();

        HttpResponse<String> late = send("too late", 4, Map.of()).get();

        assertThat(late.statusCode()).isEqualTo(429);
        assertThat(late.headers().firstValue("Retry-After")).contains("3");
        assertThat(late.headers().firstValue("x-gateway-dropped-reason")).contains("queue_timeout");
        assertThat(late.body()).contains("\"type\":\"server_error\"").contains("\"code\":\"overloaded\"");
    }

    @Test
    void aFullQueueRefusesAtOnceAndABadPriorityHeaderIsA400() throws Exception {
        start("maxQueued: 1");
        saturate();
        queued("first in", Map.of());

        HttpResponse<String> full = send("no room", 4, Map.of()).get();
        assertThat(full.statusCode()).isEqualTo(429);
        assertThat(full.headers().firstValue("x-gateway-dropped-reason")).contains("queue_full");

        HttpResponse<String> bad = send("what priority", 4, Map.of("x-gateway-priority", "urgent")).get();
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("x-gateway-priority");
    }

    @Test
    void aClientThatHangsUpWhileQueuedLeavesTheQueue() throws Exception {
        start();
        saturate();
        int before = queue().queued();
        byte[] body = chat(MODEL, "I will not wait", 4).getBytes(StandardCharsets.UTF_8);
        try (Socket socket = new Socket("127.0.0.1", gateway.port())) { // a request, then a hang-up while it waits
            OutputStream out = socket.getOutputStream();
            out.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            await().atMost(Duration.ofSeconds(5)).until(() -> queue().queued() == before + 1);
        }

        await().atMost(Duration.ofSeconds(5)).until(() -> queue().queued() == before);
        assertThat(scrape()).contains("inference_extension_flow_control_request_queue_duration_seconds_count{"
                + "outcome=\"cancelled\",pool=\"llama\",priority=\"standard\"} 1");
    }

    String scrape() throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }
}
