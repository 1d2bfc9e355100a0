package io.inferencegateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.errors.NotFoundException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import com.openai.models.completions.Completion;
import com.openai.models.completions.CompletionCreateParams;
import com.openai.models.embeddings.CreateEmbeddingResponse;
import com.openai.models.embeddings.EmbeddingCreateParams;
import com.openai.models.models.Model;

import io.inferencegateway.lab.simulator.FleetOptions;
import io.inferencegateway.lab.simulator.SimulatedFleet;
import io.inferencegateway.testing.GatewayHarness;

/** An unmodified OpenAI SDK client, through the gateway, to simulated vLLM pods. */
class OpenAiSdkTest {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static final String ADAPTER = "llama-3.1-8b-instruct-lora-0";
    static SimulatedFleet fleet;
    static GatewayHarness gateway;
    static OpenAIClient client;

    @BeforeAll
    static void start() throws Exception {
        fleet = SimulatedFleet.start(FleetOptions.builder().pods(2).loras(2).timeScale(20).build());
        gateway = GatewayHarness.start(GatewayHarness.fleetConfig(fleet, MODEL));
        client = OpenAIOkHttpClient.builder().baseUrl(gateway.baseUrl() + "/v1").apiKey("unused").maxRetries(0).build();
    }

    @AfterAll
    static void stop() throws Exception {
        gateway.close();
        fleet.close();
    }

    @Test
    void chat() {
        ChatCompletion c = client.chat().completions().create(ChatCompletionCreateParams.builder().model(MODEL)
                .addUserMessage("hello").maxCompletionTokens(6).build());
        assertThat(c.model()).isEqualTo(MODEL);
        assertThat(c.choices().get(0).message().content()).hasValueSatisfying(t -> assertThat(t).hasSize(24));
        assertThat(c.usage()).hasValueSatisfying(u -> assertThat(u.completionTokens()).isEqualTo(6));
    }

    @Test
    void streamingChatArrivesTokenByTokenWithUsage() {
        List<String> deltas = new ArrayList<>();
        long[] usage = {-1};
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(
                ChatCompletionCreateParams.builder().model(MODEL).addUserMessage("tell me").maxCompletionTokens(9)
                        .streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build()).build())) {
            stream.stream().forEach(chunk -> {
                chunk.choices().forEach(ch -> ch.delta().content().filter(s -> !s.isEmpty()).ifPresent(deltas::add));
                chunk.usage().ifPresent(u -> usage[0] = u.completionTokens());
            });
        }
        assertThat(deltas).hasSize(9);
        assertThat(usage[0]).isEqualTo(9);
    }

    @Test
    void chatWithALoraAdapterGoesToTheBaseModelsPool() {
        ChatCompletion c = client.chat().completions().create(ChatCompletionCreateParams.builder().model(ADAPTER)
                .addUserMessage("hello").maxCompletionTokens(3).build());
        assertThat(c.model()).isEqualTo(ADAPTER);
    }

    @Test
    void completions() {
        Completion c = client.completions().create(CompletionCreateParams.builder()
                .model(CompletionCreateParams.Model.of(MODEL)).prompt("abcd").maxTokens(3).build());
        assertThat(c.choices().get(0).text()).hasSize(12);
    }

    @Test
    void embeddings() {
        CreateEmbeddingResponse r = client.embeddings().create(EmbeddingCreateParams.builder()
                .model(MODEL).input("embed this").build());
        assertThat(r.data()).hasSize(1);
        assertThat(r.data().get(0).embedding()).isNotEmpty();
    }

    @Test
    void modelsListNamesTheBaseModelAndItsAdaptersWithTheirParent() {
        List<Model> models = client.models().list().data();
        assertThat(models).extracting(Model::id).containsExactly(MODEL, fleet.adapterNames().get(0),
                fleet.adapterNames().get(1));
        assertThat(models.get(1)._additionalProperties().get("parent").asString()).hasValue(MODEL);
    }

    @Test
    void unknownModelIsTheSdksNotFoundError() {
        assertThatThrownBy(() -> client.chat().completions().create(ChatCompletionCreateParams.builder()
                .model("gpt-9").addUserMessage("hello").build()))
                .isInstanceOfSatisfying(NotFoundException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(404);
                    assertThat(e.getMessage()).contains("gpt-9");
                });
    }
}
