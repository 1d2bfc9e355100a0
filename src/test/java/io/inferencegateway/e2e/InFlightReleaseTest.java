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

import org.apache.camel.main.Main;
import org.apache.camel.support.DefaultComponent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.inferencegateway.camel.GatewayServer;
import io.inferencegateway.testing.GatewayHarness;
import io.inferencegateway.testing.TestUpstream;

/**
 * Every way a routed request can end gives its in-flight count back: the gauge on {@code GET /metrics} returns to
 * zero after each. A count left raised would make every later pick shun the pod as if it were busy.
 */
class InFlightReleaseTest {

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

    @Test
    void aJsonAnswer() throws Exception {
        upstream.behave(new TestUpstream.Json(200, "{\"id\":\"x\"}"));
        assertThat(post(gateway.port(), false).statusCode()).isEqualTo(200);
        assertInFlightReturnsToZero(gateway.port());
    }

    @Test
    void anErrorStatusFromTheModelServer() throws Exception {
        upstream.behave(new TestUpstream.Json(500, "{\"error\":{\"message\":\"boom\"}}"));
        assertThat(post(gateway.port(), false).statusCode()).isEqualTo(500);
        assertInFlightReturnsToZero(gateway.port());
    }

    @Test
    void aCompleteStream() throws Exception {
        upstream.behave(new TestUpstream.Sse(3, 10));
        HttpResponse<String> r = post(gateway.port(), true);
        assertThat(r.body()).contains("data: {\"i\":2}");
        assertInFlightReturnsToZero(gateway.port());
    }

    @Test
    void aModelServerThatDiesMidStream() throws Exception {
        upstream.behave(new TestUpstream.DieMidStream(1, 10));
        assertThat(post(gateway.port(), true).body()).contains("upstream_broken");
        assertInFlightReturnsToZero(gateway.port());
    }

    @Test
    void aClientThatLeavesMidStream() throws Exception {
        upstream.behave(new TestUpstream.Sse(50, 100));
        try (Socket s = StreamingProxyTest.rawStreamRequest(gateway.port(), "in-flight")) {
            StreamingProxyTest.readUntil(s.getInputStream(), "data: {\"i\":0}");
        }
        assertInFlightReturnsToZero(gateway.port());
    }

    @Test
    void aClientThatLeavesBeforeTheResponseHeaders() throws Exception {
        upstream.behave(new TestUpstream.Hang());
        int received = upstream.received().size();
        try (Socket s = StreamingProxyTest.rawStreamRequest(gateway.port(), "in-flight")) {
            await().atMost(Duration.ofSeconds(10)).until(() -> upstream.received().size() > received);
        }
        assertInFlightReturnsToZero(gateway.port());
    }

    @Test
    void aModelServerThatNeverAnswers() throws Exception {
        upstream.behave(new TestUpstream.Hang());
        assertThat(post(gateway.port(), false).statusCode()).isEqualTo(504); // routeTimeout 2s
        assertInFlightReturnsToZero(gateway.port());
    }

    @Test
    void everyEndpointRefusingTheConnection() throws Exception {
        int closed = GatewayHarness.freePort();
        try (GatewayHarness refused = GatewayHarness.start(
                GatewayHarness.config("m", "round-robin", "127.0.0.1:" + closed))) {
            assertThat(post(refused.port(), false).statusCode()).isEqualTo(502);
            assertInFlightReturnsToZero(refused.port());
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
            HttpResponse<String> r = post(port, false);
            assertThat(r.statusCode()).isEqualTo(500);
            assertThat(r.body()).contains("\"error\"").doesNotContain("at io.inferencegateway");
            assertInFlightReturnsToZero(port);
        } finally {
            main.stop();
            Files.deleteIfExists(config);
        }
    }

    private static final Pattern IN_FLIGHT =
            Pattern.compile("(?m)^inference_gateway_requests_in_flight\\{pool=\"pool\"} (\\S+)$");

    static void assertInFlightReturnsToZero(int port) {
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(inFlight(port)).isZero());
    }

    static double inFlight(int port) throws Exception {
        String metrics = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = IN_FLIGHT.matcher(metrics);
        assertThat(m.find()).as("the in-flight gauge in %s", metrics).isTrue();
        return Double.parseDouble(m.group(1));
    }

    static HttpResponse<String> post(int port, boolean stream) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/chat/completions"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"stream\":" + stream
                        + ",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"))
                .build(), HttpResponse.BodyHandlers.ofString());
    }
}
