package io.inferencegateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Fault injection through the Java API and the fleet admin API, over real sockets. */
class FleetFaultTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private SimulatedFleet fleet;

    @BeforeEach
    void start() {
        fleet = SimulatedFleet.start(FleetOptions.builder().pods(3).adminPort(0).speeds(1, 0.5).timeScale(20).build());
    }

    @AfterEach
    void stop() {
        fleet.close();
    }

    private static HttpResponse<String> send(String url, String method) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20));
        b = method.equals("POST") ? b.POST(HttpRequest.BodyPublishers.noBody()) : b.GET();
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private String admin(String path) {
        return "http://127.0.0.1:" + fleet.adminPort() + path;
    }

    @Test
    void podsListenOnTheirOwnPortsWithTheirSpeeds() throws Exception {
        assertThat(fleet.ports()).hasSize(3).doesNotHaveDuplicates();
        assertThat(fleet.pod(0).speed()).isEqualTo(1.0);
        assertThat(fleet.pod(1).speed()).isEqualTo(0.5);
        assertThat(fleet.pod(2).speed()).isEqualTo(0.5);
        for (SimulatedPod p : fleet.pods()) {
            assertThat(send(p.baseUrl() + "/health", "GET").statusCode()).isEqualTo(200);
        }
        assertThat(send(admin("/pods"), "GET").body()).contains("\"port\":" + fleet.pod(2).port());
    }

    @Test
    void killedPodRefusesConnectionsBreaksStreamsAndRevivesEmpty() throws Exception {
        SimulatedPod pod = fleet.pod(0);
        send(pod.baseUrl() + "/v1/completions", "GET");
        String body = "{\"prompt\":\"" + "z".repeat(400) + "\",\"max_tokens\":100000,\"stream\":true}";
        try (Socket s = new Socket("127.0.0.1", pod.port())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(("POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length()
                    + "\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8));
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null && !line.startsWith("data: ")) {
                // headers, then the first event
            }
            assertThat(line).startsWith("data: ");
            pod.kill();
            String rest;
            boolean sawDone = false;
            try {
                while ((rest = in.readLine()) != null) {
                    sawDone |= rest.contains("[DONE]");
                }
            } catch (IOException broken) {
                // a reset connection is a broken stream too
            }
            assertThat(sawDone).isFalse();
        }
        assertThat(pod.isKilled()).isTrue();
        assertThatThrownBy(() -> new Socket("127.0.0.1", pod.port()).close()).isInstanceOf(ConnectException.class);
        assertThat(pod.abortedRequests()).isZero();

        pod.revive();
        assertThat(send(pod.baseUrl() + "/health", "GET").statusCode()).isEqualTo(200);
        PromSamples m = new PromSamples(send(pod.baseUrl() + "/metrics", "GET").body());
        assertThat(m.value("vllm:num_requests_running")).isZero();
        assertThat(m.value("vllm:generation_tokens_total")).isZero();
    }

    @Test
    void metricsFaultsFailOrDelayTheScrape() throws Exception {
        SimulatedPod pod = fleet.pod(1);
        pod.failMetrics();
        assertThat(send(pod.baseUrl() + "/metrics", "GET").statusCode()).isEqualTo(500);
        assertThat(send(pod.baseUrl() + "/health", "GET").statusCode()).isEqualTo(200);

        pod.slowMetrics(300);
        long t0 = System.nanoTime();
        HttpResponse<String> slow = send(pod.baseUrl() + "/metrics", "GET");
        assertThat(slow.statusCode()).isEqualTo(200);
        assertThat((System.nanoTime() - t0) / 1_000_000).isGreaterThanOrEqualTo(300);

        pod.healMetrics();
        assertThat(send(pod.baseUrl() + "/metrics", "GET").body()).contains("vllm:num_requests_running");
    }

    @Test
    void adminApiKillsRevivesSlowsAndBreaksMetrics() throws Exception {
        SimulatedPod pod = fleet.pod(2);
        assertThat(send(admin("/pods/2/kill"), "POST").body()).contains("\"alive\":false");
        assertThatThrownBy(() -> new Socket("127.0.0.1", pod.port()).close()).isInstanceOf(ConnectException.class);
        assertThat(send(admin("/pods/2/revive"), "POST").statusCode()).isEqualTo(200);
        assertThat(send(pod.baseUrl() + "/health", "GET").statusCode()).isEqualTo(200);

        assertThat(send(admin("/pods/2/speed?factor=0.25"), "POST").body()).contains("\"speed\":0.25");
        assertThat(pod.speed()).isEqualTo(0.25);
        assertThat(pod.onLoop(() -> pod.engine().speed())).isEqualTo(0.25);

        assertThat(send(admin("/pods/2/metrics?fault=fail"), "POST").statusCode()).isEqualTo(200);
        assertThat(send(pod.baseUrl() + "/metrics", "GET").statusCode()).isEqualTo(500);
        assertThat(send(admin("/pods/2/metrics?fault=none"), "POST").statusCode()).isEqualTo(200);
        assertThat(send(pod.baseUrl() + "/metrics", "GET").statusCode()).isEqualTo(200);

        assertThat(send(admin("/pods/9/kill"), "POST").statusCode()).isEqualTo(404);
        assertThat(send(admin("/pods/2/metrics?fault=maybe"), "POST").statusCode()).isEqualTo(400);
    }

    @Test
    void adminApiMakesInferenceAnswer503AndGarblesMetricsWhileHealthStaysUp() throws Exception {
        SimulatedPod pod = fleet.pod(0);
        HttpRequest chat = HttpRequest.newBuilder(URI.create(pod.baseUrl() + "/v1/chat/completions"))
                .timeout(Duration.ofSeconds(20)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":2}"))
                .build();
        assertThat(send(admin("/pods/0/inference?fault=unavailable"), "POST").body())
                .contains("\"inferenceUnavailable\":true");
        HttpResponse<String> refused = HTTP.send(chat, HttpResponse.BodyHandlers.ofString());
        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.body()).contains("\"type\":\"ServiceUnavailableError\"");
        assertThat(send(pod.baseUrl() + "/health", "GET").statusCode()).isEqualTo(200);
        assertThat(send(admin("/pods/0/inference?fault=none"), "POST").statusCode()).isEqualTo(200);
        assertThat(HTTP.send(chat, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);

        assertThat(send(admin("/pods/0/metrics?fault=garbled"), "POST").statusCode()).isEqualTo(200);
        HttpResponse<String> garbled = send(pod.baseUrl() + "/metrics", "GET");
        assertThat(garbled.statusCode()).isEqualTo(200);
        assertThat(garbled.body()).doesNotContain("vllm:num_requests_running");
        assertThat(send(admin("/pods/0/inference?fault=maybe"), "POST").statusCode()).isEqualTo(400);
    }

    @Test
    void adminApiMakesAShareOfInferenceRequestsAnswer500() throws Exception {
        SimulatedPod pod = fleet.pod(0);
        HttpRequest chat = HttpRequest.newBuilder(URI.create(pod.baseUrl() + "/v1/chat/completions"))
                .timeout(Duration.ofSeconds(20)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":1}"))
                .build();
        assertThat(send(admin("/pods/0/inference?fault=errors&share=0.25"), "POST").body())
                .contains("\"inferenceErrorShare\":0.25");
        int failed = 0;
        for (int i = 0; i < 8; i++) {
            HttpResponse<String> r = HTTP.send(chat, HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 500) {
                assertThat(r.body()).contains("\"type\":\"InternalServerError\"");
                failed++;
            } else {
                assertThat(r.statusCode()).isEqualTo(200);
            }
        }
        assertThat(failed).as("a quarter of 8, spread evenly").isEqualTo(2);
        assertThat(send(admin("/pods/0/inference?fault=none"), "POST").body()).contains("\"inferenceErrorShare\":0.0");
        assertThat(HTTP.send(chat, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
        assertThat(send(admin("/pods/0/inference?fault=errors&share=2"), "POST").statusCode()).isEqualTo(400);
    }

    @Test
    void aKillRemembersTheRequestIdsOfTheStreamsItCut() throws Exception {
        SimulatedPod pod = fleet.pod(1);
        String body = "{\"prompt\":\"" + "z".repeat(400) + "\",\"max_tokens\":100000,\"stream\":true}";
        try (Socket s = new Socket("127.0.0.1", pod.port())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(("POST /v1/completions HTTP/1.1\r\nHost: x\r\nX-Request-Id: cut-me\r\n"
                    + "Content-Length: " + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8));
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null && !line.startsWith("data: ")) {
                // headers, then the first event
            }
            assertThat(line).startsWith("data: ");
            pod.kill();
        }
        // the pod hears of each closed connection on its event loop, just after kill() has closed them
        await().atMost(Duration.ofSeconds(5)).until(() -> !pod.requestsCutByKill().isEmpty());
        assertThat(pod.requestsCutByKill()).containsExactly("cut-me");
    }
}
