package io.inferencegateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.inferencegateway.testing.GatewayHarness;
import io.inferencegateway.testing.TestUpstream;

class StreamingProxyTest {

    static TestUpstream upstream;
    static GatewayHarness gateway;
    static HttpClient http = HttpClient.newHttpClient();

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
    void nonStreamingResponseIsRelayed() throws Exception {
        upstream.behave(new TestUpstream.Json(200, "{\"id\":\"cmpl-1\"}"));
        HttpResponse<String> r = http.send(post("{\"model\":\"m\",\"prompt\":\"hi\"}"), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("{\"id\":\"cmpl-1\"}");
    }

    @Test
    void firstEventArrivesBeforeTheSecondIsSent() throws Exception {
        upstream.behave(new TestUpstream.Sse(3, 400));
        upstream.eventSentNanos().clear();
        HttpResponse<java.io.InputStream> r = http.send(post("{\"model\":\"m\",\"stream\":true}"),
                HttpResponse.BodyHandlers.ofInputStream());
        try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            String first = in.readLine();
            long firstSeen = System.nanoTime();
            assertThat(first).isEqualTo("data: {\"i\":0}");
            // event 1 is sent 400 ms after event 0: holding event 0 before it exists proves no buffering
            assertThat(upstream.eventSentNanos()).hasSize(1);
            StringBuilder rest = new StringBuilder();
            String line;
            while ((line = in.readLine()) != null) {
                rest.append(line).append('\n');
            }
            assertThat(rest.toString()).contains("{\"i\":1}", "{\"i\":2}");
            assertThat(upstream.eventSentNanos().get(1)).isGreaterThan(firstSeen);
        }
    }

    private HttpRequest post(String json) {
        return HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/v1/completions"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build();
    }
}
