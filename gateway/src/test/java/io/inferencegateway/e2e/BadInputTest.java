package io.inferencegateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.inferencegateway.testing.GatewayHarness;
import io.inferencegateway.testing.TestUpstream;

/** Every bad input gets the right status and an OpenAI error body, never a stack trace. */
class BadInputTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static TestUpstream alive;
    static TestUpstream hanging;
    static GatewayHarness gateway;
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        alive = new TestUpstream().behave(new TestUpstream.Json(200, "{\"ok\":true}"));
        hanging = new TestUpstream().behave(new TestUpstream.Hang());
        String dead1 = "127.0.0.1:" + GatewayHarness.freePort();
        String dead2 = "127.0.0.1:" + GatewayHarness.freePort();
        gateway = GatewayHarness.start("""
                apiVersion: inferencegateway.io/v1alpha1
                kind: InferenceGatewayConfig
                metadata: {name: bad-input}
                spec:
                  bbr: {maxRequestBodyBytes: 1024}
                  schedulers:
                    - {modelName: ok, endpoints: ["%s"], policy: round-robin}
                    - {modelName: no-pods, modelSelector: {matchLabels: {app: none}}}
                    - {modelName: all-dead, endpoints: ["%s", "%s"], policy: round-robin}
                    - {modelName: one-dead, endpoints: ["%s", "%s"], policy: round-robin}
                    - {modelName: hangs, endpoints: ["%s"], routeTimeout: 300ms}
                """.formatted(alive.address(), dead1, dead2, dead1, alive.address(), hanging.address()));
    }

    @AfterAll
    static void stop() throws Exception {
        gateway.close();
        alive.close();
        hanging.close();
    }

    static Stream<Arguments> badRequests() {
        String big = "{\"model\":\"ok\",\"prompt\":\"" + "x".repeat(2000) + "\"}";
        String form = "multipart/form-data; boundary=b";
        String bigUpload = "--b\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\nok\r\n--b\r\n"
                + "Content-Disposition: form-data; name=\"file\"; filename=\"a.wav\"\r\n\r\n" + "x".repeat(2000)
                + "\r\n--b--\r\n";
        String noModel = "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.wav\"\r\n\r\nRIFF\r\n--b--\r\n";
        return Stream.of(
                Arguments.of("invalid JSON", "POST", "/v1/chat/completions", "application/json", "{\"model\":", 400, null),
                Arguments.of("JSON that is not an object", "POST", "/v1/completions", "application/json", "[1,2]", 400, null),
                Arguments.of("trailing garbage", "POST", "/v1/completions", "application/json", "{\"model\":\"ok\"} x", 400, null),
                Arguments.of("missing model", "POST", "/v1/chat/completions", "application/json", "{\"messages\":[]}", 400, null),
                Arguments.of("model not a string", "POST", "/v1/embeddings", "application/json", "{\"model\":42}", 400, null),
                Arguments.of("empty body", "POST", "/v1/completions", "application/json", "", 400, null),
                Arguments.of("unknown model", "POST", "/v1/chat/completions", "application/json", "{\"model\":\"gpt-9\"}", 404, "model_not_found"),
                Arguments.of("body over the limit", "POST", "/v1/completions", "application/json", big, 413, "request_too_large"),
                Arguments.of("upload over the limit", "POST", "/v1/audio/transcriptions", form, bigUpload, 413, "request_too_large"),
                Arguments.of("upload without a model field", "POST", "/v1/audio/transcriptions", form, noModel, 400, null),
                Arguments.of("upload without a boundary", "POST", "/v1/audio/translations", "multipart/form-data", noModel, 400, null),
                Arguments.of("form content type", "POST", "/v1/completions", "application/x-www-form-urlencoded", "{\"model\":\"ok\"}", 415, "unsupported_media_type"),
                Arguments.of("no content type", "POST", "/v1/completions", null, "{\"model\":\"ok\"}", 415, "unsupported_media_type"),
                Arguments.of("GET on an inference path", "GET", "/v1/chat/completions", null, null, 405, "method_not_allowed"),
                Arguments.of("POST on the model list", "POST", "/v1/models", "application/json", "{}", 405, "method_not_allowed"),
                Arguments.of("unknown path", "GET", "/v2/whatever", null, null, 404, "unknown_url"),
                Arguments.of("pool without endpoints", "POST", "/v1/completions", "application/json", "{\"model\":\"no-pods\"}", 503, "no_endpoint"),
                Arguments.of("every endpoint refuses connections", "POST", "/v1/completions", "application/json", "{\"model\":\"all-dead\"}", 502, "upstream_unavailable"),
                Arguments.of("model server does not answer in the route timeout", "POST", "/v1/completions", "application/json", "{\"model\":\"hangs\"}", 504, "upstream_timeout"));
    }

    @ParameterizedTest(name = "{0} -> {5}")
    @MethodSource("badRequests")
    void badRequestGetsOpenAiError(String scenario, String method, String path, String contentType, String body,
            int status, String code) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());

        assertThat(r.statusCode()).as(scenario).isEqualTo(status);
        assertThat(r.headers().firstValue("content-type")).hasValue("application/json");
        JsonNode error = JSON.readTree(r.body()).get("error");
        assertThat(error).as("OpenAI error body: " + r.body()).isNotNull();
        assertThat(error.fieldNames()).toIterable().containsExactlyInAnyOrder("message", "type", "param", "code");
        assertThat(error.get("message").asText()).isNotBlank().doesNotContain("Exception", "\tat ");
        assertThat(error.get("type").asText()).isEqualTo(status >= 500 ? "server_error" : "invalid_request_error");
        if (code != null) {
            assertThat(error.get("code").asText()).isEqualTo(code);
        }
        if (status == 405) {
            assertThat(r.headers().firstValue("allow")).isPresent();
        }
    }

    @ParameterizedTest(name = "{0} {1} -> Allow: {2}")
    @CsvSource({"GET, /v1/chat/completions, POST", "PUT, /v1/embeddings, POST", "POST, /v1/models, GET",
            "DELETE, /health, GET", "HEAD, /ready, GET"})
    void wrongMethodAnswersWithTheAllowedOne(String method, String path, String allow) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path))
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(r.statusCode()).isEqualTo(405);
        assertThat(r.headers().firstValue("allow")).hasValue(allow);
    }

    @Test
    void connectFailureMovesTheRequestToTheNextEndpoint() throws Exception {
        int before = alive.received().size();
        for (int i = 0; i < 4; i++) {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/v1/completions"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"one-dead\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
        }
        assertThat(alive.received().size() - before).isEqualTo(4);
    }

    @Test
    void chunkedBodyOverTheLimitIsRefusedWhileItArrives() throws Exception {
        try (Socket s = new Socket("127.0.0.1", gateway.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(("POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String chunk = "x".repeat(600);
            for (int i = 0; i < 2; i++) {
                out.write((Integer.toHexString(chunk.length()) + "\r\n" + chunk + "\r\n").getBytes(StandardCharsets.US_ASCII));
            }
            out.flush();
            InputStream in = s.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            assertThat(response).startsWith("HTTP/1.1 413").contains("\"code\":\"request_too_large\"");
        }
    }
}
