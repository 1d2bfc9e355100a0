package io.inferencegateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;

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

/**
 * The rest of vLLM's surface on a simulated pod, over real loopback sockets: the Responses API,
 * rerank and score, tokenize/detokenize, audio and the pooling APIs a generative model refuses.
 */
class PodApiSurfaceTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    private static final String LORA = "llama-3.1-8b-instruct-lora-0";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static SimulatedFleet fleet;
    private static SimulatedPod pod;

    @BeforeAll
    static void start() {
        fleet = SimulatedFleet.start(FleetOptions.builder().pods(1).loras(1).timeScale(20).build());
        pod = fleet.pod(0);
    }

    @AfterAll
    static void stop() {
        fleet.close();
    }

    private static HttpResponse<String> post(String path, String contentType, byte[] body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(pod.baseUrl() + path)).timeout(Duration.ofSeconds(20))
                .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String path, String body) throws Exception {
        return post(path, "application/json", body.getBytes(StandardCharsets.UTF_8));
    }

    private static JsonNode ok(String path, String body) throws Exception {
        HttpResponse<String> res = post(path, body);
        assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
        return JSON.readTree(res.body());
    }

    private static double successes() throws Exception {
        String text = HTTP.send(HttpRequest.newBuilder(URI.create(pod.baseUrl() + "/metrics")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        return new PromSamples(text).value("vllm:request_success_total", "finished_reason=\"length\"");
    }

    @Test
    void responsesPromptIsBuiltLikeChatAndHitsThePrefixCache() throws Exception {
        String content = "y".repeat(1500);
        String items = "[{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\""
                + content + "\"}]}]";
        String body = "{\"model\":\"" + MODEL + "\",\"instructions\":\"be brief\",\"input\":" + items
                + ",\"max_output_tokens\":3}";
        JsonNode first = ok("/v1/responses", body);
        JsonNode second = ok("/v1/responses", body);
        JsonNode chat = ok("/v1/chat/completions", "{\"model\":\"" + MODEL + "\",\"max_tokens\":1,\"messages\":["
                + "{\"role\":\"system\",\"content\":\"be brief\"},{\"role\":\"user\",\"content\":\"" + content + "\"}]}");

        assertThat(first.get("object").asText()).isEqualTo("response");
        assertThat(first.get("id").asText()).startsWith("resp_");
        assertThat(first.get("status").asText()).isEqualTo("completed");
        assertThat(first.get("model").asText()).isEqualTo(MODEL);
        assertThat(first.at("/output/0/type").asText()).isEqualTo("message");
        assertThat(first.at("/output/0/role").asText()).isEqualTo("assistant");
        assertThat(first.at("/output/0/content/0/type").asText()).isEqualTo("output_text");
        assertThat(first.at("/output/0/content/0/text").asText()).hasSize(12);
        int input = first.at("/usage/input_tokens").asInt();
        assertThat(input).isEqualTo(chat.at("/usage/prompt_tokens").asInt());
        assertThat(first.at("/usage/output_tokens").asInt()).isEqualTo(3);
        assertThat(first.at("/usage/total_tokens").asInt()).isEqualTo(input + 3);
        assertThat(first.at("/usage/output_tokens_details/reasoning_tokens").asInt()).isZero();
        assertThat(first.at("/usage/input_tokens_details/cached_tokens").asInt()).isZero();
        assertThat(second.at("/usage/input_tokens_details/cached_tokens").asInt()).isEqualTo((input - 1) / 16 * 16);
    }

    @Test
    void streamedResponseUsesNamedEventsWithIncreasingSequenceNumbers() throws Exception {
        HttpResponse<String> res = post("/v1/responses",
                "{\"model\":\"" + LORA + "\",\"input\":\"hi\",\"max_output_tokens\":4,\"stream\":true}");
        assertThat(res.statusCode()).isEqualTo(200);
        assertThat(res.headers().firstValue("content-type")).hasValueSatisfying(t -> assertThat(t)
                .startsWith("text/event-stream"));
        List<String> names = new ArrayList<>();
        List<JsonNode> data = new ArrayList<>();
        for (String block : res.body().split("\n\n")) {
            String[] lines = block.split("\n");
            assertThat(lines).hasSize(2);
            assertThat(lines[0]).startsWith("event: ");
            assertThat(lines[1]).startsWith("data: ");
            names.add(lines[0].substring(7));
            data.add(JSON.readTree(lines[1].substring(6)));
        }
        assertThat(names).containsExactly("response.created", "response.in_progress", "response.output_item.added",
                "response.content_part.added", "response.output_text.delta", "response.output_text.delta",
                "response.output_text.delta", "response.output_text.delta", "response.output_text.done",
                "response.content_part.done", "response.output_item.done", "response.completed");
        StringBuilder deltas = new StringBuilder();
        for (int i = 0; i < data.size(); i++) {
            assertThat(data.get(i).get("type").asText()).isEqualTo(names.get(i));
            assertThat(data.get(i).get("sequence_number").asInt()).isEqualTo(i);
            if (names.get(i).equals("response.output_text.delta")) {
                deltas.append(data.get(i).get("delta").asText());
            }
        }
        JsonNode done = data.get(data.size() - 1).get("response");
        assertThat(done.get("status").asText()).isEqualTo("completed");
        assertThat(done.get("model").asText()).isEqualTo(LORA);
        assertThat(done.at("/output/0/content/0/text").asText()).isEqualTo(deltas.toString()).hasSize(16);
        assertThat(done.at("/usage/output_tokens").asInt()).isEqualTo(4);
        assertThat(data.get(0).at("/response/status").asText()).isEqualTo("in_progress");
    }

    @Test
    void responsesCountInMetricsLikeChatWhileRerankDoesNot() throws Exception {
        double before = successes();
        ok("/v1/responses", "{\"model\":\"" + MODEL + "\",\"input\":\"count me\",\"max_output_tokens\":2}");
        ok("/v1/rerank", "{\"model\":\"" + MODEL + "\",\"query\":\"a\",\"documents\":[\"a\",\"b\"]}");
        ok("/tokenize", "{\"model\":\"" + MODEL + "\",\"prompt\":\"abc\"}");
        assertThat(successes()).isEqualTo(before + 1);
    }

    @ParameterizedTest
    @CsvSource({"/v1/rerank", "/v2/rerank", "/rerank"})
    void rerankSortsDocumentsBySharedWords(String path) throws Exception {
        JsonNode r = ok(path, "{\"model\":\"" + MODEL + "\",\"query\":\"capital of France\",\"documents\":["
                + "\"Bananas are yellow\",\"Paris is the capital of France\",\"the capital of Spain\"],\"top_n\":2}");
        assertThat(r.get("model").asText()).isEqualTo(MODEL);
        assertThat(r.get("id").asText()).isNotEmpty();
        JsonNode results = r.get("results");
        assertThat(results).hasSize(2);
        assertThat(results.get(0).get("index").asInt()).isEqualTo(1);
        assertThat(results.get(0).at("/document/text").asText()).isEqualTo("Paris is the capital of France");
        assertThat(results.get(1).get("index").asInt()).isEqualTo(2);
        double s0 = results.get(0).get("relevance_score").asDouble();
        double s1 = results.get(1).get("relevance_score").asDouble();
        assertThat(s0).isGreaterThan(s1).isLessThanOrEqualTo(1.0);
        assertThat(s1).isGreaterThan(0.0);
        assertThat(r.at("/usage/total_tokens").asInt()).isEqualTo(3 * Tokenizer.tokenCount("capital of France")
                + Tokenizer.tokenCount("Bananas are yellow") + Tokenizer.tokenCount("Paris is the capital of France")
                + Tokenizer.tokenCount("the capital of Spain"));
    }

    @Test
    void scorePairsOneQueryWithEachTextOrListsPairwise() throws Exception {
        for (String path : List.of("/v1/score", "/score")) {
            JsonNode s = ok(path, "{\"model\":\"" + MODEL + "\",\"text_1\":\"red apple\","
                    + "\"text_2\":[\"red apple\",\"green apple\",\"blue sky\"]}");
            assertThat(s.get("object").asText()).isEqualTo("list");
            assertThat(s.get("created").asLong()).isPositive();
            JsonNode data = s.get("data");
            assertThat(data).hasSize(3);
            assertThat(data.get(0).get("object").asText()).isEqualTo("score");
            assertThat(data.get(0).get("score").asDouble()).isEqualTo(1.0);
            assertThat(data.get(1).get("score").asDouble()).isBetween(0.01, 0.99);
            assertThat(data.get(2).get("score").asDouble()).isEqualTo(0.0);
            assertThat(s.at("/usage/prompt_tokens").asInt()).isPositive();
        }
        JsonNode pairwise = ok("/score", "{\"model\":\"" + MODEL + "\",\"text_1\":[\"a b\",\"c\"],\"text_2\":[\"a b\",\"d\"]}");
        assertThat(pairwise.at("/data/0/score").asDouble()).isEqualTo(1.0);
        assertThat(pairwise.at("/data/1/score").asDouble()).isEqualTo(0.0);
        assertThat(post("/score", "{\"text_1\":[\"a\",\"b\"],\"text_2\":[\"a\",\"b\",\"c\"]}").statusCode())
                .isEqualTo(400);
    }

    @Test
    void tokenizeFollowsTheTokenizerContractAndDetokenizeInvertsIt() throws Exception {
        String prompt = "The quick brown fox jumps";
        JsonNode t = ok("/tokenize", "{\"model\":\"" + MODEL + "\",\"prompt\":\"" + prompt + "\"}");
        assertThat(t.get("count").asInt()).isEqualTo(Tokenizer.tokenCount(prompt)).isEqualTo(7);
        assertThat(t.get("max_model_len").asInt()).isPositive();
        List<Integer> ids = new ArrayList<>();
        t.get("tokens").forEach(n -> ids.add(n.asInt()));
        assertThat(ids).containsExactlyElementsOf(
                java.util.Arrays.stream(Tokenizer.encode(prompt)).boxed().toList());
        JsonNode d = ok("/detokenize", "{\"model\":\"" + MODEL + "\",\"tokens\":" + t.get("tokens") + "}");
        assertThat(d.get("prompt").asText()).isEqualTo(prompt);

        JsonNode messages = ok("/tokenize", "{\"model\":\"" + MODEL + "\",\"messages\":[{\"role\":\"user\","
                + "\"content\":\"hello\"}]}");
        JsonNode chat = ok("/v1/chat/completions", "{\"model\":\"" + MODEL + "\",\"max_tokens\":1,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}");
        assertThat(messages.get("count").asInt()).isEqualTo(chat.at("/usage/prompt_tokens").asInt());

        int generated = Tokenizer.wordId(Tokenizer.generatedWord(7, 0));
        assertThat(ok("/detokenize", "{\"tokens\":[" + generated + "]}").get("prompt").asText())
                .isEqualTo(Tokenizer.generatedWord(7, 0));
        HttpResponse<String> unknown = post("/detokenize", "{\"tokens\":[-5]}");
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(unknown.body()).get("object").asText()).isEqualTo("error");
    }

    private static byte[] multipart(String boundary, String model, String format, int fileBytes) {
        StringBuilder sb = new StringBuilder();
        sb.append("--").append(boundary).append("\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\n")
                .append(model).append("\r\n");
        if (format != null) {
            sb.append("--").append(boundary)
                    .append("\r\nContent-Disposition: form-data; name=\"response_format\"\r\n\r\n")
                    .append(format).append("\r\n");
        }
        byte[] head = sb.toString().getBytes(StandardCharsets.UTF_8);
        byte[] fileHead = fileBytes < 0 ? new byte[0] : ("--" + boundary + "\r\nContent-Disposition: form-data; "
                + "name=\"file\"; filename=\"a.wav\"\r\nContent-Type: audio/wav\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8);
        byte[] file = new byte[Math.max(0, fileBytes)];
        java.util.Arrays.fill(file, (byte) 0x7f);
        byte[] fileTail = fileBytes < 0 ? new byte[0] : "\r\n".getBytes(StandardCharsets.UTF_8);
        byte[] tail = ("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.writeBytes(head);
        out.writeBytes(fileHead);
        out.writeBytes(file);
        out.writeBytes(fileTail);
        out.writeBytes(tail);
        return out.toByteArray();
    }

    @Test
    void audioAnswersJsonOrPlainTextAndValidatesTheForm() throws Exception {
        String type = "multipart/form-data; boundary=XyZ";
        HttpResponse<String> json = post("/v1/audio/transcriptions", type, multipart("XyZ", MODEL, null, 3000));
        assertThat(json.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(json.body()).get("text").asText()).isEqualTo(InstantApi.stubTranscript(3000, false));
        HttpResponse<String> text = post("/v1/audio/translations", type, multipart("XyZ", MODEL, "text", 3000));
        assertThat(text.statusCode()).isEqualTo(200);
        assertThat(text.headers().firstValue("content-type")).hasValueSatisfying(t -> assertThat(t)
                .startsWith("text/plain"));
        assertThat(text.body()).isEqualTo(InstantApi.stubTranscript(3000, true));

        HttpResponse<String> noFile = post("/v1/audio/transcriptions", type, multipart("XyZ", MODEL, null, -1));
        assertThat(noFile.statusCode()).isEqualTo(400);
        assertThat(noFile.body()).contains("'file'");
        HttpResponse<String> wrongModel = post("/v1/audio/transcriptions", type, multipart("XyZ", "nope", null, 10));
        assertThat(wrongModel.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(wrongModel.body()).get("type").asText()).isEqualTo("NotFoundError");
        assertThat(post("/v1/audio/transcriptions", "{\"model\":\"x\"}").statusCode()).isEqualTo(400);
        assertThat(post("/v1/audio/transcriptions", type, multipart("XyZ", MODEL, "srt", 10)).statusCode())
                .isEqualTo(400);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "responses unknown model | /v1/responses | {\"model\":\"nope\",\"input\":\"x\"}                          | 404 | NotFoundError   | The model `nope` does not exist.",
        "responses bad JSON      | /v1/responses | {not json                                                    | 400 | BadRequestError | JSON decode error",
        "responses no input      | /v1/responses | {\"model\":\"meta-llama/Llama-3.1-8B-Instruct\"}             | 400 | BadRequestError | input",
        "responses tool item     | /v1/responses | {\"input\":[{\"type\":\"function_call_output\",\"output\":\"1\"}]} | 400 | BadRequestError | input",
        "responses zero max      | /v1/responses | {\"input\":\"x\",\"max_output_tokens\":0}                    | 400 | BadRequestError | max_output_tokens",
        "rerank unknown model    | /v1/rerank    | {\"model\":\"nope\",\"query\":\"q\",\"documents\":[\"d\"]}   | 404 | NotFoundError   | does not exist",
        "rerank bad JSON         | /rerank       | {not json                                                    | 400 | BadRequestError | JSON decode error",
        "rerank no documents     | /v2/rerank    | {\"query\":\"q\"}                                            | 400 | BadRequestError | documents",
        "score unknown model     | /score        | {\"model\":\"nope\",\"text_1\":\"a\",\"text_2\":\"b\"}       | 404 | NotFoundError   | does not exist",
        "score bad JSON          | /v1/score     | {not json                                                    | 400 | BadRequestError | JSON decode error",
        "tokenize unknown model  | /tokenize     | {\"model\":\"nope\",\"prompt\":\"a\"}                        | 404 | NotFoundError   | does not exist",
        "detokenize bad JSON     | /detokenize   | {not json                                                    | 400 | BadRequestError | JSON decode error",
        "pooling                 | /pooling      | {\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"input\":\"a\"} | 400 | BadRequestError | The model does not support Pooling API",
        "classify                | /classify     | {\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"input\":\"a\"} | 400 | BadRequestError | The model does not support Classification API"})
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
}
