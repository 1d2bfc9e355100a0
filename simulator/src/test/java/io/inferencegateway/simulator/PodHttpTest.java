package io.inferencegateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStreamReader;
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

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** vLLM's OpenAI surface of a simulated pod, over real loopback sockets. */
class PodHttpTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    private static SimulatedFleet fleet;
    private static SimulatedPod pod;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void start() {
        fleet = SimulatedFleet.start(FleetOptions.builder().pods(1).loras(2).maxLoras(2).timeScale(20).build());
        pod = fleet.pod(0);
    }

    @AfterAll
    static void stop() {
        fleet.close();
    }

    static HttpResponse<String> post(String path, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(pod.baseUrl() + path)).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(pod.baseUrl() + path)).timeout(Duration.ofSeconds(20)).GET()
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    static String chat(String content, int maxTokens, boolean stream) {
        return "{\"model\":\"" + MODEL + "\",\"messages\":[{\"role\":\"user\",\"content\":" + Json.quote(content)
                + "}],\"max_tokens\":" + maxTokens + ",\"stream\":" + stream
                + (stream ? ",\"stream_options\":{\"include_usage\":true}" : "") + "}";
    }

    /** The JSON payloads of an SSE body, and whether it ended with [DONE]. */
    static List<String> events(String body) {
        List<String> out = new ArrayList<>();
        for (String block : body.split("\n\n")) {
            if (!block.isBlank()) {
                assertThat(block).startsWith("data: ");
                out.add(block.substring(6));
            }
        }
        return out;
    }

    @Test
    void streamsChatInVllmChunkFormat() throws Exception {
        HttpResponse<String> res = post("/v1/chat/completions", chat("hello there", 5, true));
        assertThat(res.statusCode()).isEqualTo(200);
        assertThat(res.headers().firstValue("content-type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/event-stream"));
        List<String> ev = events(res.body());
        assertThat(ev).hasSize(1 + 5 + 1 + 1);
        assertThat(ev.get(ev.size() - 1)).isEqualTo("[DONE]");

        JsonNode role = JSON.readTree(ev.get(0));
        assertThat(role.get("object").asText()).isEqualTo("chat.completion.chunk");
        assertThat(role.get("id").asText()).startsWith("chatcmpl-");
        assertThat(role.at("/choices/0/delta/role").asText()).isEqualTo("assistant");
        assertThat(role.at("/choices/0/delta/content").asText()).isEmpty();
        StringBuilder text = new StringBuilder();
        for (int i = 1; i <= 5; i++) {
            JsonNode c = JSON.readTree(ev.get(i));
            assertThat(c.get("id").asText()).isEqualTo(role.get("id").asText());
            assertThat(c.at("/choices/0/delta/role").isMissingNode()).isTrue();
            text.append(c.at("/choices/0/delta/content").asText());
            assertThat(c.at("/choices/0/finish_reason").isNull()).isEqualTo(i < 5);
        }
        assertThat(JSON.readTree(ev.get(5)).at("/choices/0/finish_reason").asText()).isEqualTo("length");
        assertThat(text).hasSize(20);

        JsonNode usage = JSON.readTree(ev.get(6));
        assertThat(usage.get("choices")).isEmpty();
        // "<|user|>\nhello there\n" is 21 chars = 6 tokens
        assertThat(usage.at("/usage/prompt_tokens").asInt()).isEqualTo(6);
        assertThat(usage.at("/usage/completion_tokens").asInt()).isEqualTo(5);
        assertThat(usage.at("/usage/total_tokens").asInt()).isEqualTo(11);
        assertThat(usage.at("/usage/prompt_tokens_details/cached_tokens").asInt()).isZero();
    }

    @Test
    void streamsCompletionsWithoutUsageUnlessAsked() throws Exception {
        HttpResponse<String> res = post("/v1/completions",
                "{\"model\":\"" + MODEL + "\",\"prompt\":\"abcdefgh\",\"max_tokens\":3,\"stream\":true}");
        List<String> ev = events(res.body());
        assertThat(ev).hasSize(3 + 1);
        JsonNode c = JSON.readTree(ev.get(0));
        assertThat(c.get("object").asText()).isEqualTo("text_completion");
        assertThat(c.at("/choices/0/text").asText()).hasSize(4);
        assertThat(c.get("usage").isNull()).isTrue();
        assertThat(JSON.readTree(ev.get(2)).at("/choices/0/finish_reason").asText()).isEqualTo("length");
    }

    @Test
    void secondIdenticalPromptReportsCachedTokens() throws Exception {
        String content = "x".repeat(2000);
        JsonNode first = JSON.readTree(post("/v1/chat/completions", chat(content, 2, false)).body());
        JsonNode second = JSON.readTree(post("/v1/chat/completions", chat(content, 2, false)).body());
        int promptTokens = first.at("/usage/prompt_tokens").asInt();
        assertThat(promptTokens).isEqualTo((2000 + 10 + 3) / 4);
        assertThat(first.at("/usage/prompt_tokens_details/cached_tokens").asInt()).isZero();
        assertThat(second.at("/usage/prompt_tokens_details/cached_tokens").asInt())
                .isEqualTo((promptTokens - 1) / 16 * 16);
        assertThat(second.at("/choices/0/message/content").asText()).hasSize(8);
        assertThat(second.at("/choices/0/finish_reason").asText()).isEqualTo("length");
        assertThat(second.get("object").asText()).isEqualTo("chat.completion");
    }

    @Test
    void maxTokensSetsTheOutputLengthAndHasDefaults() throws Exception {
        JsonNode chat = JSON.readTree(post("/v1/chat/completions",
                "{\"model\":\"" + MODEL + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}").body());
        assertThat(chat.at("/usage/completion_tokens").asInt()).isEqualTo(PodHttpHandler.DEFAULT_CHAT_MAX_TOKENS);
        JsonNode completion = JSON.readTree(post("/v1/completions",
                "{\"model\":\"" + MODEL + "\",\"prompt\":\"hi\"}").body());
        assertThat(completion.at("/usage/completion_tokens").asInt())
                .isEqualTo(PodHttpHandler.DEFAULT_COMPLETION_MAX_TOKENS);
        JsonNode exact = JSON.readTree(post("/v1/completions",
                "{\"model\":\"" + MODEL + "\",\"prompt\":\"hi\",\"max_tokens\":37}").body());
        assertThat(exact.at("/usage/completion_tokens").asInt()).isEqualTo(37);
    }

    @Test
    void listsBaseModelAndAdaptersWithParent() throws Exception {
        JsonNode models = JSON.readTree(get("/v1/models").body());
        assertThat(models.get("object").asText()).isEqualTo("list");
        List<String> ids = new ArrayList<>();
        models.get("data").forEach(m -> ids.add(m.get("id").asText()));
        assertThat(ids).startsWith(MODEL, "llama-3.1-8b-instruct-lora-0", "llama-3.1-8b-instruct-lora-1");
        assertThat(models.at("/data/0/parent").isNull()).isTrue();
        assertThat(models.at("/data/1/parent").asText()).isEqualTo(MODEL);
    }

    @Test
    void servesAnAdapterAndLoadsAndUnloadsAdapters() throws Exception {
        HttpResponse<String> onAdapter = post("/v1/completions",
                "{\"model\":\"llama-3.1-8b-instruct-lora-1\",\"prompt\":\"hello\",\"max_tokens\":2}");
        assertThat(onAdapter.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(onAdapter.body()).get("model").asText()).isEqualTo("llama-3.1-8b-instruct-lora-1");

        assertThat(post("/v1/load_lora_adapter", "{\"lora_name\":\"extra\",\"lora_path\":\"/x\"}").statusCode())
                .isEqualTo(200);
        HttpResponse<String> again = post("/v1/load_lora_adapter", "{\"lora_name\":\"extra\",\"lora_path\":\"/x\"}");
        assertThat(again.statusCode()).isEqualTo(400);
        assertThat(get("/v1/models").body()).contains("\"id\":\"extra\"");
        assertThat(post("/v1/completions", "{\"model\":\"extra\",\"prompt\":\"hi\",\"max_tokens\":1}").statusCode())
                .isEqualTo(200);
        assertThat(post("/v1/unload_lora_adapter", "{\"lora_name\":\"extra\"}").statusCode()).isEqualTo(200);
        assertThat(post("/v1/unload_lora_adapter", "{\"lora_name\":\"extra\"}").statusCode()).isEqualTo(404);
        assertThat(get("/v1/models").body()).doesNotContain("\"id\":\"extra\"");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "unknown model      | /v1/chat/completions | {\"model\":\"nope\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]} | 404 | NotFoundError   | The model `nope` does not exist.",
        "bad JSON           | /v1/chat/completions | {not json                                                                | 400 | BadRequestError | JSON decode error",
        "no messages        | /v1/chat/completions | {\"model\":\"meta-llama/Llama-3.1-8B-Instruct\"}                         | 400 | BadRequestError | messages",
        "zero max_tokens    | /v1/completions      | {\"prompt\":\"x\",\"max_tokens\":0}                                       | 400 | BadRequestError | max_tokens",
        "context too long   | /v1/completions      | {\"prompt\":\"x\",\"max_tokens\":200000}                                  | 400 | BadRequestError | maximum context length",
        "unknown embed model| /v1/embeddings       | {\"model\":\"nope\",\"input\":\"x\"}                                      | 404 | NotFoundError   | does not exist"})
    void errorsUseVllmsErrorBody(String scenario, String path, String body, int status, String type, String message)
            throws Exception {
        HttpResponse<String> res = post(path, body);
        assertThat(res.statusCode()).isEqualTo(status);
        JsonNode err = JSON.readTree(res.body());
        assertThat(err.get("object").asText()).isEqualTo("error");
        assertThat(err.get("type").asText()).isEqualTo(type);
        assertThat(err.get("code").asInt()).isEqualTo(status);
        assertThat(err.get("param").isNull()).isTrue();
        assertThat(err.get("message").asText()).contains(message);
    }

    @Test
    void healthAndUnknownPath() throws Exception {
        assertThat(get("/health").statusCode()).isEqualTo(200);
        assertThat(get("/nope").statusCode()).isEqualTo(404);
    }

    @Test
    void embeddingsAreDeterministicUnitVectors() throws Exception {
        String body = "{\"model\":\"" + MODEL + "\",\"input\":[\"alpha beta\",\"gamma\"]}";
        JsonNode a = JSON.readTree(post("/v1/embeddings", body).body());
        JsonNode b = JSON.readTree(post("/v1/embeddings", body).body());
        assertThat(a.get("data")).hasSize(2);
        JsonNode v = a.at("/data/0/embedding");
        assertThat(v).hasSize(PodHttpHandler.EMBEDDING_DIM);
        double norm = 0;
        for (JsonNode x : v) {
            norm += x.asDouble() * x.asDouble();
        }
        assertThat(norm).isBetween(0.999, 1.001);
        assertThat(a.get("data")).isEqualTo(b.get("data"));
        assertThat(a.at("/data/0/embedding")).isNotEqualTo(a.at("/data/1/embedding"));
        assertThat(a.at("/usage/prompt_tokens").asInt()).isEqualTo(3 + 2);
    }

    @Test
    void clientDisconnectAbortsTheRequestAndFreesItsBlocks() throws Exception {
        long abortedBefore = pod.abortedRequests();
        String body = chat("y".repeat(4000), 100_000, true);
        try (Socket s = new Socket("127.0.0.1", pod.port())) {
            OutputStream out = s.getOutputStream();
            out.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                    + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            String line;
            int dataLines = 0;
            while ((line = in.readLine()) != null && dataLines < 3) {
                if (line.startsWith("data: ")) {
                    dataLines++;
                }
            }
            assertThat(dataLines).isEqualTo(3);
            assertThat(pod.running()).isEqualTo(1);
            assertThat(pod.kvUsage()).isGreaterThan(0);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> pod.abortedRequests() == abortedBefore + 1);
        assertThat(pod.running()).isZero();
        assertThat(pod.kvUsage()).isZero();
        assertThat(new PromSamples(pod.metricsText()).value("vllm:request_success_total", "finished_reason=\"abort\""))
                .isGreaterThanOrEqualTo(1);
    }

    @Test
    void keepsTheConnectionAliveAcrossRequests() throws Exception {
        String body = "{\"prompt\":\"abcd\",\"max_tokens\":2}";
        String request = "POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                + body.length() + "\r\n\r\n" + body;
        try (Socket s = new Socket("127.0.0.1", pod.port())) {
            s.setSoTimeout(10_000);
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            for (int i = 0; i < 2; i++) {
                s.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
                assertThat(readBody(in)).contains("\"completion_tokens\":2");
            }
        }
    }

    /** Reads one HTTP/1.1 response with a Content-Length from the connection; returns its body. */
    private static String readBody(BufferedReader in) throws Exception {
        assertThat(in.readLine()).isEqualTo("HTTP/1.1 200 OK");
        int length = -1;
        String line;
        while (!(line = in.readLine()).isEmpty()) {
            if (line.toLowerCase().startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        char[] buf = new char[length];
        int read = 0;
        while (read < length) {
            read += in.read(buf, read, length - read);
        }
        return new String(buf);
    }

    @Test
    void answersPipelinedRequestsInOrder() throws Exception {
        // the first is the longer one: answered out of order, the shorter would come back first
        String a = "{\"prompt\":\"abcd\",\"max_tokens\":9}";
        String b = "{\"prompt\":\"efgh\",\"max_tokens\":2}";
        String both = "POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Length: " + a.length() + "\r\n\r\n" + a
                + "POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Length: " + b.length() + "\r\n\r\n" + b;
        try (Socket s = new Socket("127.0.0.1", pod.port())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(both.getBytes(StandardCharsets.UTF_8));
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            List<String> bodies = List.of(readBody(in), readBody(in));
            assertThat(bodies.get(0)).contains("\"completion_tokens\":9");
            assertThat(bodies.get(1)).contains("\"completion_tokens\":2");
        }
    }
}
