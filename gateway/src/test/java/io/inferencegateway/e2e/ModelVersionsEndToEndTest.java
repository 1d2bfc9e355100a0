package io.inferencegateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.models.Model;

import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.testing.GatewayHarness;

/**
 * Weighted model versions end to end (docs/rollouts.md): two pools of simulated vLLM pods, one serving {@code v1} and
 * one {@code v2}, and the rewrites {@code chat} (50/50, a header reaches v2) and {@code chat-named} (50/50, the
 * response names the model asked for), through the OpenAI Java SDK.
 */
class ModelVersionsEndToEndTest {

    static SimulatedFleet v1;
    static SimulatedFleet v2;
    static GatewayHarness gateway;
    static OpenAIClient client;

    @BeforeAll
    static void start() throws Exception {
        v1 = SimulatedFleet.start(FleetOptions.builder().pods(1).timeScale(50).model("v1").build());
        v2 = SimulatedFleet.start(FleetOptions.builder().pods(1).timeScale(50).model("v2").build());
        gateway = GatewayHarness.start("""
                kind: InferenceGatewayConfig
                spec:
                  schedulers:
                    - {name: one, modelName: v1, endpoints: [%s]}
                    - {name: two, modelName: v2, endpoints: [%s]}
                  modelRewrites:
                    - name: chat
                      rules:
                        - matches: [{headers: {x-model-version: v2}}]
                          targets: [{model: v2}]
                        - targets: [{model: v1, weight: 50}, {model: v2, weight: 50}]
                    - name: chat-named
                      responseModel: requested
                      rules:
                        - targets: [{model: v1, weight: 50}, {model: v2, weight: 50}]
                """.formatted(GatewayHarness.quotedList(v1.endpoints()), GatewayHarness.quotedList(v2.endpoints())));
        client = OpenAIOkHttpClient.builder().baseUrl(gateway.baseUrl() + "/v1").apiKey("unused").maxRetries(0).build();
    }

    @AfterAll
    static void stop() throws Exception {
        gateway.close();
        v1.close();
        v2.close();
    }

    private static ChatCompletionCreateParams.Builder turn(String model, String conversation, String text) {
        ChatCompletionCreateParams.Builder b = ChatCompletionCreateParams.builder().model(model).addUserMessage(text)
                .maxCompletionTokens(2);
        return conversation == null ? b : b.promptCacheKey(conversation);
    }

    @Test
    void aTwelveTurnConversationStaysOnOneVersion() {
        for (int c = 0; c < 4; c++) {
            String conversation = "conversation-" + c;
            Set<String> versions = new HashSet<>();
            StringBuilder history = new StringBuilder();
            for (int t = 0; t < 12; t++) {
                history.append("turn ").append(t).append(". ");
                versions.add(client.chat().completions().create(turn("chat", conversation, history.toString())
                        .build()).model());
            }
            assertThat(versions).as(conversation).hasSize(1).containsAnyOf("v1", "v2");
        }
    }

    @Test
    void manyConversationsSplitAboutEvenly() {
        Map<String, Integer> counts = new HashMap<>();
        int conversations = 200;
        for (int c = 0; c < conversations; c++) {
            counts.merge(client.chat().completions().create(turn("chat", "split-" + c, "hello").build()).model(), 1,
                    Integer::sum);
        }
        assertThat(counts.keySet()).containsExactlyInAnyOrder("v1", "v2");
        assertThat(counts.get("v2") / (double) conversations).isBetween(0.38, 0.62);
    }

    @Test
    void responseModelRequestedShowsTheClientTheNameItAskedFor() {
        ChatCompletion whole = client.chat().completions().create(turn("chat-named", "named", "hello").build());
        assertThat(whole.model()).isEqualTo("chat-named");
        assertThat(whole.choices()).isNotEmpty();

        List<String> models = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(
                turn("chat-named", "named-stream", "count to five").maxCompletionTokens(5).build())) {
            stream.stream().forEach(chunk -> {
                models.add(chunk.model());
                chunk.choices().forEach(choice -> choice.delta().content().ifPresent(text::append));
            });
        }
        assertThat(models).hasSizeGreaterThan(1).containsOnly("chat-named");
        assertThat(text).isNotEmpty();
    }

    @Test
    void aHeaderReachesVersionTwoWhateverTheConversation() {
        for (int c = 0; c < 20; c++) {
            ChatCompletion r = client.chat().completions().create(turn("chat", "tester-" + c, "hello")
                    .putAdditionalHeader("x-model-version", "v2").build());
            assertThat(r.model()).isEqualTo("v2");
        }
    }

    @Test
    void theModelListOffersTheRewritesBesideTheServedModels() {
        List<String> ids = client.models().list().data().stream().map(Model::id).toList();
        assertThat(ids).contains("chat", "chat-named", "v1", "v2");
        assertThat(client.models().retrieve("chat").id()).isEqualTo("chat");
    }

    @Test
    void metricsCountTheRequestsEachVersionServed() throws Exception {
        client.chat().completions().create(turn("chat", null, "hello").putAdditionalHeader("x-model-version", "v2")
                .build());
        HttpResponse<String> metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(gateway.baseUrl() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(metrics.body()).containsPattern(
                "inference_gateway_version_requests_total\\{rewrite=\"chat\",target=\"v2\"} [1-9]");
    }
}
