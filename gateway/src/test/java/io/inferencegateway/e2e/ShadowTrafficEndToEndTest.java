package io.inferencegateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;

import io.inferencegateway.config.ShadowConfig;
import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.shadow.ShadowTraffic;
import io.inferencegateway.testing.GatewayHarness;

/**
 * Shadow traffic end to end: the real gateway in front of two simulated vLLM fleets, the primary model's and the
 * candidate's, clients on the OpenAI SDK. The candidate receives the sampled share of the requests under its own name,
 * the clients get the primary's answers, and a candidate a hundred times slower keeps no client waiting.
 */
class ShadowTrafficEndToEndTest {

    static final String MODEL = "llama-3-8b";
    static final String CANDIDATE = "llama-3-8b-v2";
    static final HttpClient HTTP = HttpClient.newHttpClient();

    SimulatedFleet primary;
    SimulatedFleet candidate;
    GatewayHarness gateway;
    OpenAIClient client;

    void start(double candidateSpeed, String shadow) throws Exception {
        primary = SimulatedFleet.start(FleetOptions.builder().model(MODEL).pods(2).build());
        candidate = SimulatedFleet.start(FleetOptions.builder().model(CANDIDATE).pods(1).speeds(candidateSpeed)
                .build());
        gateway = GatewayHarness.start("""
                kind: InferenceGatewayConfig
                spec:
                  schedulers:
                    - name: llama
                      modelName: %s
                      endpoints: [%s]
                      shadow: %s
                    - name: llama-v2
                      modelName: %s
                      policy: least-request
                      endpoints: [%s]
                """.formatted(MODEL, GatewayHarness.quotedList(primary.endpoints()), shadow, CANDIDATE,
                GatewayHarness.quotedList(candidate.endpoints())));
        client = OpenAIOkHttpClient.builder().baseUrl(gateway.baseUrl() + "/v1").apiKey("unused").maxRetries(0)
                .build();
    }

    @AfterEach
    void stop() throws Exception {
        if (candidate != null) {
            candidate.pods().forEach(p -> p.speed(1)); // the copies still running end soon, and the drain with them
        }
        if (gateway != null) {
            gateway.close();
        }
        if (primary != null) {
            primary.close();
        }
        if (candidate != null) {
            candidate.close();
        }
    }

    ChatCompletion chat(String requestId) {
        return client.chat().completions().create(ChatCompletionCreateParams.builder().model(MODEL)
                .addUserMessage("tell me about request " + requestId).maxCompletionTokens(8)
                .putAdditionalHeader("x-request-id", requestId).build());
    }

    @Test
    void theCandidateReceivesTheSampledShareUnderItsOwnNameAndTheClientsGetThePrimarysAnswers() throws Exception {
        start(1, "{model: " + CANDIDATE + ", percent: 20, maxInFlight: 200}");
        ShadowConfig twenty = new ShadowConfig(CANDIDATE, 20, 200);
        int requests = 200;
        int expected = 0;
        for (int i = 0; i < requests; i++) {
            String id = "req-" + i;
            expected += ShadowTraffic.sampled(twenty, id) ? 1 : 0;
            ChatCompletion answer = chat(id);
            assertThat(answer.model()).isEqualTo(MODEL);
            assertThat(answer.choices().get(0).message().content()).isPresent();
        }
        int copies = expected;

        assertThat(copies / (double) requests).isBetween(0.12, 0.28);
        assertThat(primary.requestsServed()).isEqualTo(requests);
        // the simulated candidate answers 404 to any model but its own: its 200s are copies that named it
        await().atMost(Duration.ofSeconds(20)).until(() -> metric("inference_gateway_shadow_requests_total",
                "outcome=\"sent\"") == copies);
        assertThat(candidate.pod(0).requestsReceived()).isEqualTo(copies);
        assertThat(metric("inference_gateway_shadow_responses_total", "status=\"200\"")).isEqualTo(copies);
        assertThat(metric("inference_gateway_shadow_ttft_seconds_count", "candidate=\"" + CANDIDATE + "\""))
                .isEqualTo(copies);
        assertThat(metric("inference_gateway_shadow_tokens_total", "type=\"output\"")).isPositive();
        // the copies are not the clients' requests: the candidate model served none in the request meters
        assertThat(metrics()).doesNotContain("inference_objective_request_total{model_name=\"" + CANDIDATE);
    }

    @Test
    void aCandidateAHundredTimesSlowerKeepsNoClientWaiting() throws Exception {
        start(0.01, "{model: " + CANDIDATE + ", percent: 100, maxInFlight: 4}");
        int requests = 12;
        for (int i = 0; i < requests; i++) {
            assertThat(chat("slow-" + i).model()).isEqualTo(MODEL);
        }

        // every client has its answer, while not one copy has been answered: nobody waited for the candidate
        assertThat(metric("inference_gateway_shadow_requests_total", "outcome=\"sent\"")).isZero();
        assertThat(metric("inference_gateway_shadow_in_flight", "pool=\"llama\"")).isEqualTo(4);
        assertThat(metric("inference_gateway_shadow_requests_total", "outcome=\"dropped_budget\"")).isEqualTo(8);
        assertThat(candidate.pod(0).requestsReceived()).isEqualTo(4);
    }

    String metrics() throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    /** The sum of a series' samples whose labels contain {@code label}. */
    double metric(String name, String label) throws Exception {
        double sum = 0;
        for (String line : metrics().split("\n")) {
            if (line.startsWith(name + "{") && line.contains(label)) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }
}
