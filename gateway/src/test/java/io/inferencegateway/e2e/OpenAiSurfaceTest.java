package io.inferencegateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.errors.NotFoundException;
import com.openai.models.audio.transcriptions.TranscriptionCreateParams;
import com.openai.models.models.Model;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseStreamEvent;

import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.testing.GatewayHarness;

/**
 * The rest of the OpenAI surface vLLM serves, through the gateway to simulated vLLM pods and routed by the body's
 * model like chat: the Responses API (JSON and its stream of named events), one model by id, audio uploads, rerank,
 * score, tokenize and detokenize.
 */
class OpenAiSurfaceTest {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static SimulatedFleet fleet;
    static GatewayHarness gateway;
    static OpenAIClient client;

    @BeforeAll
    static void start() throws Exception {
        fleet = SimulatedFleet.start(FleetOptions.builder().pods(2).loras(1).timeScale(20).model(MODEL).build());
        gateway = GatewayHarness.start(GatewayHarness.fleetConfig(fleet, MODEL));
        client = OpenAIOkHttpClient.builder().baseUrl(gateway.baseUrl() + "/v1").apiKey("unused").maxRetries(0).build();
    }

    @AfterAll
    static void stop() throws Exception {
        gateway.close();
        fleet.close();
    }

    @Test
    void responsesCreate() {
        Response r = client.responses().create(ResponseCreateParams.builder().model(MODEL)
                .instructions("Be brief.").input("hello").maxOutputTokens(5L).build());
        assertThat(r.model().asString()).isEqualTo(MODEL);
        assertThat(r.output()).isNotEmpty();
        assertThat(r.usage()).hasValueSatisfying(u -> assertThat(u.outputTokens()).isEqualTo(5));
    }

    @Test
    void responsesStreamArrivesEventByEvent() {
        List<String> deltas = new ArrayList<>();
        List<String> kinds = new ArrayList<>();
        try (StreamResponse<ResponseStreamEvent> stream = client.responses().createStreaming(
                ResponseCreateParams.builder().model(MODEL).input("count to six").maxOutputTokens(6L).build())) {
            stream.stream().forEach(event -> {
                event.outputTextDelta().ifPresent(d -> deltas.add(d.delta()));
                if (event.isCompleted()) {
                    kinds.add("completed");
                }
            });
        }
        assertThat(deltas).as("one delta event per token").hasSize(6);
        assertThat(kinds).containsExactly("completed");
    }

    @Test
    void retrieveOneModelByItsIdSlashesAndAll() {
        Model base = client.models().retrieve(MODEL);
        assertThat(base.id()).isEqualTo(MODEL);

        String adapter = fleet.adapterNames().get(0);
        Model lora = client.models().retrieve(adapter);
        assertThat(lora.id()).isEqualTo(adapter);
        assertThat(lora._additionalProperties().get("parent").asString()).hasValue(MODEL);
    }

    @Test
    void retrieveAnUnknownModelIsNotFound() {
        assertThatThrownBy(() -> client.models().retrieve("gpt-9"))
                .isInstanceOfSatisfying(NotFoundException.class, e -> assertThat(e.code()).hasValue("model_not_found"));
    }

    @Test
    void anAudioTranscriptionUploadIsRoutedByItsModelField() {
        byte[] audio = new byte[64 * 1024];
        String text = client.audio().transcriptions().create(TranscriptionCreateParams.builder().file(audio)
                .model(MODEL).build()).asTranscription().text();
        assertThat(text).isNotBlank();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "/v1/rerank  | {\"model\":\"%s\",\"query\":\"bikes\",\"documents\":[\"bikes and wheels\",\"cats\"]} | results",
            "/v2/rerank  | {\"model\":\"%s\",\"query\":\"bikes\",\"documents\":[\"bikes\",\"cats\"],\"top_n\":1} | results",
            "/v1/score   | {\"model\":\"%s\",\"text_1\":\"bikes\",\"text_2\":\"bikes and wheels\"} | data",
            "/tokenize   | {\"model\":\"%s\",\"prompt\":\"hello there\"} | tokens",
    })
    void poolingAndTokenizerPathsAreRoutedByModel(String path, String body, String field) throws Exception {
        JsonNode answer = post(path, body.formatted(MODEL));
        assertThat(answer.has(field)).as(answer.toString()).isTrue();
    }

    @Test
    void detokenizeReturnsWhatTokenizeTook() throws Exception {
        JsonNode tokens = post("/tokenize", "{\"model\":\"" + MODEL + "\",\"prompt\":\"round trip\"}").get("tokens");
        JsonNode text = post("/detokenize", "{\"model\":\"" + MODEL + "\",\"tokens\":" + tokens + "}");
        assertThat(text.get("prompt").asText()).isEqualTo("round trip");
    }

    static JsonNode post(String path, String body) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }
}
