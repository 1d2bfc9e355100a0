package io.inferencegateway.lab.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import com.openai.models.completions.Completion;
import com.openai.models.completions.CompletionCreateParams;
import com.openai.models.models.Model;

/** The official OpenAI Java SDK (what the gateway's end-to-end tests use) talks to a pod unchanged. */
class OpenAiSdkCompatibilityTest {

    private static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    private static SimulatedFleet fleet;
    private static OpenAIClient client;

    @BeforeAll
    static void start() {
        fleet = SimulatedFleet.start(FleetOptions.builder().pods(1).loras(1).timeScale(20).build());
        client = OpenAIOkHttpClient.builder().baseUrl(fleet.pod(0).baseUrl() + "/v1").apiKey("unused").build();
    }

    @AfterAll
    static void stop() {
        fleet.close();
    }

    @Test
    void chatCompletion() {
        ChatCompletion c = client.chat().completions().create(ChatCompletionCreateParams.builder().model(MODEL)
                .addUserMessage("hello").maxCompletionTokens(6).build());
        assertThat(c.choices().get(0).message().content()).hasValueSatisfying(t -> assertThat(t).hasSize(24));
        assertThat(c.usage()).hasValueSatisfying(u -> assertThat(u.completionTokens()).isEqualTo(6));
    }

    @Test
    void streamedChatCompletionWithUsage() {
        List<String> deltas = new ArrayList<>();
        long[] usage = {-1};
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(
                ChatCompletionCreateParams.builder().model(MODEL).addUserMessage("hello").maxCompletionTokens(7)
                        .streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build()).build())) {
            stream.stream().forEach(chunk -> {
                chunk.choices().forEach(ch -> ch.delta().content().filter(s -> !s.isEmpty()).ifPresent(deltas::add));
                chunk.usage().ifPresent(u -> usage[0] = u.completionTokens());
            });
        }
        assertThat(deltas).hasSize(7);
        assertThat(usage[0]).isEqualTo(7);
    }

    @Test
    void legacyCompletionAndModels() {
        Completion c = client.completions().create(CompletionCreateParams.builder()
                .model(CompletionCreateParams.Model.of(MODEL)).prompt("abcd").maxTokens(3).build());
        assertThat(c.choices().get(0).text()).hasSize(12);
        List<String> ids = client.models().list().data().stream().map(Model::id).toList();
        assertThat(ids).containsExactly(MODEL, "llama-3.1-8b-instruct-lora-0");
    }
}
