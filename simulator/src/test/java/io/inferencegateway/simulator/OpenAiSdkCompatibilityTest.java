package io.inferencegateway.simulator;

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
import com.openai.models.audio.transcriptions.Transcription;
import com.openai.models.audio.transcriptions.TranscriptionCreateParams;
import com.openai.models.audio.translations.TranslationCreateParams;
import com.openai.models.models.Model;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseOutputText;
import com.openai.models.responses.ResponseStatus;
import com.openai.models.responses.ResponseStreamEvent;

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

    @Test
    void responsesApi() {
        Response r = client.responses().create(ResponseCreateParams.builder().model(MODEL)
                .instructions("Answer briefly.").input("hello").maxOutputTokens(5).build());
        assertThat(r.id()).startsWith("resp_");
        assertThat(r.status()).contains(ResponseStatus.COMPLETED);
        assertThat(r.instructions()).isPresent();
        String text = r.output().get(0).asMessage().content().get(0).asOutputText().text();
        assertThat(text).hasSize(5 * Tokenizer.CHARS_PER_TOKEN);
        assertThat(r.usage()).hasValueSatisfying(u -> {
            // the prompt is the instructions and the input serialized as chat messages
            assertThat(u.inputTokens()).isEqualTo(
                    Tokenizer.tokenCount("<|system|>\nAnswer briefly.\n<|user|>\nhello\n"));
            assertThat(u.outputTokens()).isEqualTo(5);
            assertThat(u.totalTokens()).isEqualTo(u.inputTokens() + 5);
            assertThat(u.outputTokensDetails().reasoningTokens()).isZero();
        });
    }

    @Test
    void streamedResponsesApi() {
        List<String> deltas = new ArrayList<>();
        List<String> types = new ArrayList<>();
        Response[] completed = {null};
        String[] doneText = {null};
        try (StreamResponse<ResponseStreamEvent> stream = client.responses().createStreaming(
                ResponseCreateParams.builder().model(MODEL).input("hello there").maxOutputTokens(6).build())) {
            stream.stream().forEach(e -> {
                types.add(e.isCreated() ? "created" : e.isInProgress() ? "in_progress"
                        : e.isOutputItemAdded() ? "item_added" : e.isContentPartAdded() ? "part_added"
                        : e.isOutputTextDelta() ? "delta" : e.isOutputTextDone() ? "text_done"
                        : e.isContentPartDone() ? "part_done" : e.isOutputItemDone() ? "item_done"
                        : e.isCompleted() ? "completed" : "other");
                e.outputTextDelta().ifPresent(d -> deltas.add(d.delta()));
                e.outputTextDone().ifPresent(d -> doneText[0] = d.text());
                e.completed().ifPresent(c -> completed[0] = c.response());
            });
        }
        assertThat(deltas).hasSize(6);
        assertThat(doneText[0]).isEqualTo(String.join("", deltas));
        assertThat(completed[0]).isNotNull();
        ResponseOutputText out = completed[0].output().get(0).asMessage().content().get(0).asOutputText();
        assertThat(out.text()).isEqualTo(doneText[0]);
        assertThat(completed[0].usage()).hasValueSatisfying(u -> assertThat(u.outputTokens()).isEqualTo(6));
        assertThat(types).containsExactly("created", "in_progress", "item_added", "part_added", "delta", "delta",
                "delta", "delta", "delta", "delta", "text_done", "part_done", "item_done", "completed");
    }

    @Test
    void audioTranscriptionAndTranslation() {
        byte[] audio = new byte[5 * 1024];
        Transcription t = client.audio().transcriptions().create(TranscriptionCreateParams.builder().file(audio)
                .model(MODEL).language("en").build()).asTranscription();
        assertThat(t.text()).isEqualTo(InstantApi.stubTranscript(audio.length, false)).isNotBlank();
        String translated = client.audio().translations().create(TranslationCreateParams.builder().file(audio)
                .model(MODEL).build()).asTranslation().text();
        assertThat(translated).isEqualTo(InstantApi.stubTranscript(audio.length, true));
    }
}
