package io.inferencegateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.apache.camel.main.Main;
import org.apache.camel.support.DefaultComponent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.camel.GatewayServer;
import io.inferencegateway.testing.GatewayHarness;
import io.inferencegateway.testing.TestUpstream;

/**
 * Every way a request can end, over HTTP, and every count it touched read back from {@code GET /metrics}: the pool's
 * in-flight gauge and running requests return to zero, the request is counted once with the status the client got,
 * and a failure once under its error code. A count left raised would make every later pick shun the pod as if it were
 * busy; one counted twice, or never, would make the dashboards lie. (request/GatewayRequestTest drives the same
 * endings without a network.)
 */
class RequestEndingsTest {

    static TestUpstream upstream;
    static GatewayHarness gateway;
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        upstream = new TestUpstream();
        gateway = GatewayHarness.start(GatewayHarness.config("m", "round-robin", upstream.address()));
    }

    @AfterAll
    static void stop() throws Exception {
        gateway.close();
        upstream.close();
    }

    /** What the client does; returns the status it saw, or 0 when it left before one. */
    @FunctionalInterface
    interface Client {
        int call(int port) throws Exception;
    }

    static Arguments row(String ending, TestUpstream.Behaviour upstream, Client client, int status, String error) {
        return Arguments.of(ending, upstream, client, status, error);
    }

    static Stream<Arguments> endings() {
        return Stream.of(
                row("a JSON answer", new TestUpstream.Json(200, "{\"id\":\"x\"}"),
                        port -> post(port, false).statusCode(), 200, null),
                row("an error status from the model server", new TestUpstream.Json(500, "{\"error\":{}}"),
                        port -> post(port, false).statusCode(), 500, "upstream_5xx"),
                row("a complete stream", new TestUpstream.Sse(3, 10), port -> {
                    HttpResponse<String> r = post(port, true);
                    assertThat(r.body()).contains("data: {\"i\":2}");
                    return r.statusCode();
                }, 200, null),
                row("a model server that dies mid-stream", new TestUpstream.DieMidStream(1, 10), port -> {
                    HttpResponse<String> r = post(port, true);
                    assertThat(r.body()).contains("upstream_broken");
                    return r.statusCode();
                }, 200, "upstream_broken"),
                row("a client that leaves mid-stream", new TestUpstream.Sse(50, 100), port -> {
                    try (Socket s = StreamingProxyTest.rawStreamRequest(port, "leaves")) {
                        StreamingProxyTest.readUntil(s.getInputStream(), "data: {\"i\":0}");
                    }
                    return 0;
                }, 200, "client_closed"),
                row("a client that leaves before the response headers", new TestUpstream.Hang(), port -> {
                    int received = RequestEndingsTest.upstream.received().size();
                    try (Socket s = StreamingProxyTest.rawStreamRequest(port, "leaves-early")) {
                        await().atMost(Duration.ofSeconds(10))
                                .until(() -> RequestEndingsTest.upstream.received().size() > received);
                    }
                    return 0;
                }, 499, "client_closed"),
                row("a model server that never answers (routeTimeout 2s)", new TestUpstream.Hang(),
                        port -> post(port, false).statusCode(), 504, "upstream_timeout"),
                row("refused before a pod: an unknown model", new TestUpstream.Json(200, "{}"),
                        port -> post(port, "{\"model\":\"gpt-9\"}").statusCode(), 404, "model_not_found"),
                row("refused before its body was read: not JSON", new TestUpstream.Json(200, "{}"),
                        port -> post(port, "{\"model\":").statusCode(), 400, "invalid_request"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("endings")
    void everyEndingIsCountedOnceAndGivesItsCountsBack(String ending, TestUpstream.Behaviour behaviour,
            Client client, int status, String error) throws Exception {
        upstream.behave(behaviour);
        Counts before = Counts.read(gateway.port());

        int seen = client.call(gateway.port());

        if (seen != 0) {
            assertThat(seen).as("status the client got").isEqualTo(status);
        }
        assertEndedOnce(gateway.port(), before, status, error);
    }

    @Test
    void everyEndpointRefusingTheConnection() throws Exception {
        int closed = GatewayHarness.freePort();
        try (GatewayHarness refused = GatewayHarness.start(
                GatewayHarness.config("m", "round-robin", "127.0.0.1:" + closed))) {
            Counts before = Counts.read(refused.port());
            assertThat(post(refused.port(), false).statusCode()).isEqualTo(502);
            assertEndedOnce(refused.port(), before, 502, "upstream_unavailable");
        }
    }

    @Test
    void aFailureBetweenThePickAndTheUpstreamCall() throws Exception {
        // the picker has counted the request; then no producer can be made for its endpoint (as on a runtime that
        // does not find the upstream component)
        Path config = Files.createTempFile("gateway-config", ".yaml");
        Files.writeString(config, GatewayHarness.config("m", "round-robin", upstream.address()));
        int port = GatewayHarness.freePort();
        Main main = GatewayServer.newMain(config, port);
        main.bind("upstream", new DefaultComponent() {
            @Override
            protected org.apache.camel.Endpoint createEndpoint(String uri, String remaining,
                    Map<String, Object> parameters) {
                throw new IllegalStateException("no upstream producer in this runtime");
            }
        });
        main.start();
        try {
            Counts before = Counts.read(port);
            HttpResponse<String> r = post(port, false);
            assertThat(r.statusCode()).isEqualTo(500);
            assertThat(r.body()).contains("\"error\"").doesNotContain("at io.inferencegateway");
            assertEndedOnce(port, before, 500, "internal");
        } finally {
            main.stop();
            Files.deleteIfExists(config);
        }
    }

    /** The request is counted once with {@code status} (and {@code error}), and nothing stays in flight. */
    static void assertEndedOnce(int port, Counts before, int status, String error) {
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            Counts after = Counts.read(port);
            assertThat(after.inFlight).as("in flight").isZero();
            assertThat(after.running).as("running requests").isZero();
            assertThat(after.requests - before.requests).as("requests counted").isEqualTo(1);
            assertThat(after.withStatus(status) - before.withStatus(status)).as("counted with status %d", status)
                    .isEqualTo(1);
            assertThat(after.errors - before.errors).as("errors counted").isEqualTo(error == null ? 0 : 1);
            if (error != null) {
                assertThat(after.withError(error) - before.withError(error)).as("counted as %s", error).isEqualTo(1);
            }
        });
    }

    /** The counts a request touches, as {@code GET /metrics} shows them. */
    record Counts(String text, double inFlight, double running, double requests, double errors) {

        private static final Pattern IN_FLIGHT =
                Pattern.compile("(?m)^inference_gateway_requests_in_flight\\{pool=\"pool\"} (\\S+)$");

        static Counts read(int port) throws Exception {
            String text = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                    .build(), HttpResponse.BodyHandlers.ofString()).body();
            Matcher m = IN_FLIGHT.matcher(text);
            assertThat(m.find()).as("the in-flight gauge in %s", text).isTrue();
            return new Counts(text, Double.parseDouble(m.group(1)), sum(text, "inference_objective_running_requests{", ""),
                    sum(text, "inference_objective_request_total{", ""),
                    sum(text, "inference_objective_request_error_total{", ""));
        }

        double withStatus(int status) {
            return sum(text, "inference_objective_request_total{", "status=\"" + status + "\"");
        }

        double withError(String code) {
            return sum(text, "inference_objective_request_error_total{", "error_code=\"" + code + "\"");
        }

        /** The sum of the samples of a series whose labels contain {@code label}. */
        private static double sum(String text, String series, String label) {
            double total = 0;
            for (String line : text.split("\n")) {
                if (line.startsWith(series) && line.contains(label)) {
                    total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                }
            }
            return total;
        }
    }

    static HttpResponse<String> post(int port, boolean stream) throws Exception {
        return post(port, "{\"model\":\"m\",\"stream\":" + stream
                + ",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
    }

    static HttpResponse<String> post(int port, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/chat/completions"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(), HttpResponse.BodyHandlers.ofString());
    }
}
