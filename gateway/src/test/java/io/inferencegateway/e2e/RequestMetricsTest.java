package io.inferencegateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.errors.NotFoundException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseStreamEvent;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.testing.GatewayHarness;

/**
 * Known traffic through the gateway over simulated vLLM pods, read back from {@code GET /metrics} and the access log:
 * the counts, the tokens (equal to what the pods themselves count) and the latency histograms.
 */
class RequestMetricsTest {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final ObjectMapper JSON = new ObjectMapper();
    static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*})?\\s+(\\S+)$");

    static SimulatedFleet fleet;
    static GatewayHarness gateway;
    static OpenAIClient client;
    static final ListAppender<ILoggingEvent> ACCESS = new ListAppender<>();

    @BeforeAll
    static void start() throws Exception {
        ACCESS.start();
        ((Logger) LoggerFactory.getLogger("io.inferencegateway.access")).addAppender(ACCESS);
        fleet = SimulatedFleet.start(FleetOptions.builder().pods(2).timeScale(20).model(MODEL).build());
        gateway = GatewayHarness.start(GatewayHarness.fleetConfig(fleet, MODEL, "streamUsage: true")
                + "  observability:\n    accessLog: true\n");
        client = OpenAIOkHttpClient.builder().baseUrl(gateway.baseUrl() + "/v1").apiKey("unused").maxRetries(0).build();
    }

    @AfterAll
    static void stop() throws Exception {
        ((Logger) LoggerFactory.getLogger("io.inferencegateway.access")).detachAppender(ACCESS);
        gateway.close();
        fleet.close();
    }

    @Test
    void knownTrafficIsCountedWithTheTokensThePodsCounted() throws Exception {
        Map<String, Double> before = scrape();
        long promptBefore = podsTotal("vllm:prompt_tokens_total");
        long generatedBefore = podsTotal("vllm:generation_tokens_total");
        int logBefore = ACCESS.list.size();

        for (int i = 0; i < 3; i++) {
            ChatCompletion c = client.chat().completions().create(ChatCompletionCreateParams.builder().model(MODEL)
                    .addUserMessage("plain question " + i).maxCompletionTokens(5).build());
            assertThat(c.usage()).isPresent();
        }
        for (int i = 0; i < 2; i++) {
            assertThat(stream("stream without usage " + i, false)).as("the client did not ask for usage").isZero();
        }
        assertThat(stream("stream with usage", true)).as("usage chunks the client asked for").isEqualTo(1);
        Response r = client.responses().create(ResponseCreateParams.builder().model(MODEL).input("a response")
                .maxOutputTokens(4L).build());
        assertThat(r.usage()).isPresent();
        try (StreamResponse<ResponseStreamEvent> events = client.responses().createStreaming(ResponseCreateParams
                .builder().model(MODEL).input("a streamed response").maxOutputTokens(4L).build())) {
            assertThat(events.stream().count()).isPositive();
        }
        assertThatThrownBy(() -> client.chat().completions().create(ChatCompletionCreateParams.builder()
                .model("no-such-model").addUserMessage("hi").build())).isInstanceOf(NotFoundException.class);

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                delta(before, scrape(), "inference_objective_request_total", l -> true)).isEqualTo(9));
        Map<String, Double> after = scrape();
        Predicate<String> ok = l -> l.contains("status=\"200\"");
        assertThat(delta(before, after, "inference_objective_request_total", ok)).isEqualTo(8);
        assertThat(delta(before, after, "inference_objective_request_total",
                l -> l.contains("model_name=\"unknown\"") && l.contains("status=\"404\"") && l.contains("pod=\"none\"")))
                .isEqualTo(1);
        assertThat(delta(before, after, "inference_objective_request_error_total",
                l -> l.contains("error_code=\"model_not_found\""))).isEqualTo(1);

        long prompt = podsTotal("vllm:prompt_tokens_total") - promptBefore;
        long generated = podsTotal("vllm:generation_tokens_total") - generatedBefore;
        assertThat(prompt).isPositive();
        assertThat(delta(before, after, "inference_objective_input_tokens_sum", l -> true))
                .as("prompt tokens, streams included").isEqualTo(prompt);
        assertThat(delta(before, after, "inference_objective_output_tokens_sum", l -> true))
                .as("output tokens, streams included").isEqualTo(generated);
        assertThat(delta(before, after, "inference_objective_input_tokens_count", l -> true)).isEqualTo(8);
        assertThat(delta(before, after, "inference_objective_cached_tokens_count", l -> true)).isEqualTo(8);

        assertThat(delta(before, after, "inference_objective_request_ttft_seconds_count", l -> true)).isEqualTo(8);
        assertThat(delta(before, after, "inference_objective_request_tpot_seconds_count", l -> true))
                .as("one per stream of more than one token").isEqualTo(4);
        assertThat(delta(before, after, "inference_objective_request_duration_seconds_count", l -> true)).isEqualTo(9);
        assertThat(delta(before, after, "inference_gateway_scheduler_picks_total", l -> true)).isEqualTo(8);
        assertThat(delta(before, after, "inference_extension_scheduler_e2e_duration_seconds_count", l -> true))
                .isEqualTo(8);
        assertThat(sum(after, "inference_objective_running_requests", l -> true)).isZero();

        List<JsonNode> lines = new ArrayList<>();
        for (ILoggingEvent e : ACCESS.list.subList(logBefore, ACCESS.list.size())) {
            lines.add(JSON.readTree(e.getFormattedMessage()));
        }
        assertThat(lines).hasSize(9);
        JsonNode strippedStream = lines.stream().filter(l -> l.path("stream").asBoolean()).findFirst().orElseThrow();
        assertThat(strippedStream.path("output_tokens").asInt()).as("tokens of a stream whose client asked for none")
                .isEqualTo(6);
        assertThat(strippedStream.path("pod").asText()).isIn(fleet.endpoints());
        assertThat(strippedStream.path("pick_reason").asText()).isNotEmpty();
        assertThat(strippedStream.path("ttft_ms").asDouble()).isPositive()
                .isLessThanOrEqualTo(strippedStream.path("duration_ms").asDouble());
        JsonNode unknown = lines.get(lines.size() - 1);
        assertThat(unknown.path("status").asInt()).isEqualTo(404);
        assertThat(unknown.path("error").asText()).isEqualTo("model_not_found");
        assertThat(unknown.path("pod").isNull()).isTrue();
    }

    @Test
    void aStreamOfAClientThatAskedForNoUsageLooksAsIfTheGatewayWereNotThere() throws Exception {
        String body = "{\"model\":\"" + MODEL + "\",\"stream\":true,\"max_tokens\":3,\"seed\":7,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"same bytes\"}]}";
        String viaGateway = post(gateway.baseUrl(), body);
        String direct = post(fleet.pod(0).baseUrl(), body);
        assertThat(viaGateway).doesNotContain("\"usage\":{").endsWith("data: [DONE]\n\n");
        assertThat(events(viaGateway)).hasSameSizeAs(events(direct));
    }

    /** Streams a chat; returns how many chunks carried usage. */
    static int stream(String prompt, boolean includeUsage) {
        ChatCompletionCreateParams.Builder params = ChatCompletionCreateParams.builder().model(MODEL)
                .addUserMessage(prompt).maxCompletionTokens(6);
        if (includeUsage) {
            params.streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build());
        }
        int[] usage = {0};
        int[] content = {0};
        try (StreamResponse<ChatCompletionChunk> s = client.chat().completions().createStreaming(params.build())) {
            s.stream().forEach(chunk -> {
                if (chunk.usage().isPresent()) {
                    usage[0]++;
                }
                content[0] += chunk.choices().size();
            });
        }
        assertThat(content[0]).isPositive();
        return usage[0];
    }

    static String post(String baseUrl, String body) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(baseUrl + "/v1/chat/completions"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        return r.body();
    }

    static List<String> events(String sse) {
        return List.of(sse.split("\n\n"));
    }

    static long podsTotal(String counter) {
        long total = 0;
        for (int i = 0; i < fleet.size(); i++) {
            for (String line : fleet.pod(i).metricsText().split("\n")) {
                Matcher m = SAMPLE.matcher(line);
                if (m.matches() && m.group(1).equals(counter)) {
                    total += (long) Double.parseDouble(m.group(3));
                }
            }
        }
        return total;
    }

    static Map<String, Double> scrape() throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        Map<String, Double> series = new HashMap<>();
        for (String line : r.body().split("\n")) {
            Matcher m = SAMPLE.matcher(line);
            if (!line.startsWith("#") && m.matches()) {
                series.put(m.group(1) + (m.group(2) == null ? "" : m.group(2)), Double.parseDouble(m.group(3)));
            }
        }
        return series;
    }

    static double sum(Map<String, Double> series, String name, Predicate<String> labels) {
        double total = 0;
        for (Map.Entry<String, Double> e : series.entrySet()) {
            String key = e.getKey();
            int brace = key.indexOf('{');
            String n = brace < 0 ? key : key.substring(0, brace);
            if (n.equals(name) && labels.test(brace < 0 ? "" : key.substring(brace))) {
                total += e.getValue();
            }
        }
        return total;
    }

    static double delta(Map<String, Double> before, Map<String, Double> after, String name, Predicate<String> labels) {
        return sum(after, name, labels) - sum(before, name, labels);
    }
}
