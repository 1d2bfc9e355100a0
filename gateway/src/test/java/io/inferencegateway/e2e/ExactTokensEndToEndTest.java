package io.inferencegateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.errors.BadRequestException;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.completions.CompletionCreateParams;

import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.testing.GatewayHarness;
import io.inferencegateway.tokenize.PromptTokenizerTest;

/**
 * A pool that names its model's tokenizer counts each prompt as the engine will (docs/tokenization.md): through the
 * OpenAI SDK and the real gateway, a chat request of Qwen2.5 is counted at the 35 tokens Hugging Face's reference gives
 * for it (tokenizers/qwen2.5/reference.json, "one user message"), a completion at its text's tokens, and a template
 * that refuses the messages answers 400 with its reason.
 */
class ExactTokensEndToEndTest {

    static final String MODEL = "Qwen/Qwen2.5-7B-Instruct";

    static SimulatedFleet fleet;

    @TempDir
    Path qwen;
    @TempDir
    Path strict;

    @BeforeAll
    static void startPods() {
        fleet = SimulatedFleet.start(FleetOptions.builder().pods(2).model(MODEL).build());
    }

    @AfterAll
    static void stopPods() {
        fleet.close();
    }

    /** A gateway whose config holds these scheduler entries. */
    static GatewayHarness gateway(String schedulers) throws Exception {
        return GatewayHarness.start("kind: InferenceGatewayConfig\nspec:\n  schedulers:\n"
                + schedulers.indent(4));
    }

    static OpenAIClient client(GatewayHarness gateway) {
        return OpenAIOkHttpClient.builder().baseUrl(gateway.baseUrl() + "/v1").apiKey("unused").maxRetries(0).build();
    }

    @Test
    void promptsAreCountedInTheEnginesTokensAndATemplatesRefusalIsA400() throws Exception {
        PromptTokenizerTest.copyModel(qwen);
        PromptTokenizerTest.copyModel(strict);
        Files.writeString(strict.resolve("tokenizer_config.json"), """
                {"chat_template": "{% for m in messages %}{% if m.role == 'system' %}{{ raise_exception('System \
                messages are not supported') }}{% endif %}<|im_start|>{{ m.role }}\\n{{ m.content }}<|im_end|>\\n\
                {% endfor %}"}
                """);
        try (GatewayHarness gateway = gateway("""
                - name: qwen
                  modelName: %s
                  endpoints: [%s]
                  tokenizer: {path: '%s'}
                - name: strict
                  modelName: strict-model
                  endpoints: [%2$s]
                  tokenizer: {path: '%s', cacheTokens: 0}
                """.formatted(MODEL, GatewayHarness.quotedList(fleet.endpoints()), qwen, strict))) {
            OpenAIClient client = client(gateway);
            client.chat().completions().create(ChatCompletionCreateParams.builder().model(MODEL)
                    .addUserMessage("Hello, how are you?").maxCompletionTokens(4).build());
            assertThat(gateway.metric("inference_gateway_prompt_tokens_sum", "pool=\"qwen\"")).isEqualTo(35);

            client.completions().create(CompletionCreateParams.builder().model(MODEL).prompt("Hello world")
                    .maxTokens(4).build());
            assertThat(gateway.metric("inference_gateway_prompt_tokens_sum", "pool=\"qwen\"")).isEqualTo(37);
            assertThat(gateway.metric("inference_gateway_prompt_tokens_count", "pool=\"qwen\"")).isEqualTo(2);
            assertThat(gateway.metric("inference_gateway_tokenizer_cached_tokens", "pool=\"qwen\"")).isPositive();

            assertThatThrownBy(() -> client.chat().completions().create(ChatCompletionCreateParams.builder()
                    .model("strict-model").addSystemMessage("Be brief.").addUserMessage("Hi").build()))
                    .isInstanceOfSatisfying(BadRequestException.class, e -> assertThat(e.getMessage())
                            .contains("chat template refused the messages: System messages are not supported"));
        }
    }

    @Test
    void aPoolWhoseEngineTokenizesCountsWhatItsPodsAnswer() throws Exception {
        try (GatewayHarness gateway = gateway("""
                - name: qwen
                  modelName: %s
                  endpoints: [%s]
                  tokenizer: {source: engine}
                """.formatted(MODEL, GatewayHarness.quotedList(fleet.endpoints())))) {
            String messages = """
                    [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hello, how are you?"}]""";
            HttpResponse<String> asked = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://" + fleet.endpoints().get(0) + "/tokenize"))
                    .POST(HttpRequest.BodyPublishers.ofString("""
                            {"model": "%s", "messages": %s}""".formatted(MODEL, messages))).build(),
                    HttpResponse.BodyHandlers.ofString());
            int engineCount = new ObjectMapper().readTree(asked.body()).path("count").asInt();
            assertThat(engineCount).isPositive();

            client(gateway).chat().completions().create(ChatCompletionCreateParams.builder().model(MODEL)
                    .addSystemMessage("Be brief.").addUserMessage("Hello, how are you?").maxCompletionTokens(4)
                    .build());
            assertThat(gateway.metric("inference_gateway_prompt_tokens_sum", "pool=\"qwen\"")).isEqualTo(engineCount);
            assertThat(gateway.metric("inference_gateway_prompt_tokenize_skipped_total", "pool=\"qwen\"")).isZero();
        }
    }
}
