package io.inferencegateway.deployed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.inferencegateway.testing.TestUpstream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A rolling restart as Kubernetes does it: the gateway's serve command (ServeCommandLine) gets SIGTERM while 50
 * streams are running through it. It must report not-ready at once, finish every stream whole, refuse new work, and
 * exit 0 within its drain timeout.
 */
class GracefulDrainIT {

    static final String MODEL = "paced-model";
    static final int STREAMS = 50;
    static final int EVENTS = 20;
    static final long GAP_MILLIS = 250; // each stream runs ~5 s
    static final Duration DRAIN_DELAY = Duration.ofSeconds(1);
    static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(25);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private TestUpstream pod;
    private DeployedGateway gateway;

    @AfterEach
    void stop() throws Exception {
        if (gateway != null) {
            gateway.close();
        }
        if (pod != null) {
            pod.close();
        }
    }

    @Test
    void sigtermDuringFiftyLiveStreamsLetsEveryOneFinishAndExitsZero() throws Exception {
        pod = new TestUpstream().behave(new TestUpstream.ChatSse(MODEL, EVENTS, GAP_MILLIS));
        Path workDir = Path.of("target", "runtime-it", "drain").toAbsolutePath();
        if (Files.exists(workDir)) {
            try (var old = Files.walk(workDir)) {
                for (Path p : old.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        Files.createDirectories(workDir);
        gateway = CamelMainLauncher.deploy(workDir, """
                apiVersion: inferencegateway.io/v1alpha1
                kind: InferenceGatewayConfig
                metadata: {name: drain}
                spec:
                  schedulers:
                    - name: paced
                      modelName: %s
                      policy: round-robin
                      routeTimeout: 60s
                      endpoints: ["%s"]
                """.formatted(MODEL, pod.address()), Map.of(
                "gateway.drainDelay", DRAIN_DELAY.toSeconds() + "s",
                "gateway.drainTimeout", DRAIN_TIMEOUT.toSeconds() + "s"));
        assertThat(get("/ready").statusCode()).isEqualTo(200);

        List<CompletableFuture<HttpResponse<String>>> streams = new ArrayList<>();
        for (int i = 0; i < STREAMS; i++) {
            streams.add(http.sendAsync(chat(), HttpResponse.BodyHandlers.ofString()));
        }
        await("every stream reached the pod").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                .until(() -> pod.received().size() == STREAMS);
        Thread.sleep(2 * GAP_MILLIS); // their first events are on the way
        assertThat(streams).as("the streams are live when SIGTERM comes").noneMatch(CompletableFuture::isDone);

        Process process = gateway.process();
        long sigterm = System.nanoTime();
        process.destroy(); // SIGTERM

        // not ready at once (the signal reaches the JVM a few ms after destroy()), while the listener still takes
        // requests for the drain delay
        HttpResponse<String> ready = await("/ready stops answering 200 within the drain delay").atMost(DRAIN_DELAY)
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10))
                .until(() -> get("/ready"), response -> response.statusCode() != 200);
        assertThat(ready.statusCode()).isEqualTo(503);
        assertThat(ready.body()).contains("draining");
        assertThat(System.nanoTime() - sigterm).isLessThan(DRAIN_DELAY.toNanos());

        // past the delay, new work is refused in the OpenAI shape while the streams still run
        Thread.sleep(DRAIN_DELAY.toMillis() + 200);
        HttpResponse<String> refused = http.send(chat(), HttpResponse.BodyHandlers.ofString());
        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.body()).contains("\"code\":\"shutting_down\"");
        assertThat(streams).as("the streams are still running when new work is refused")
                .anyMatch(s -> !s.isDone());

        for (CompletableFuture<HttpResponse<String>> s : streams) {
            HttpResponse<String> response = s.get(DRAIN_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            assertThat(response.statusCode()).isEqualTo(200);
            String body = response.body();
            assertThat(body.split("\"chat.completion.chunk\"", -1)).as("events of one stream").hasSize(EVENTS + 1);
            assertThat(body).contains(TestUpstream.chatChunkContent(EVENTS - 1));
            assertThat(body.strip()).endsWith("data: [DONE]");
        }

        assertThat(process.waitFor(DRAIN_TIMEOUT.toSeconds(), TimeUnit.SECONDS))
                .as("the gateway exits within its drain timeout; its log ends:\n%s", gateway.tail(30)).isTrue();
        assertThat(process.exitValue()).as("exit code; log:\n%s", gateway.tail(30)).isZero();
        assertThat(Duration.ofNanos(System.nanoTime() - sigterm)).isLessThan(DRAIN_TIMEOUT);
        assertThat(pod.clientsGoneMidResponse()).as("streams the gateway cut at the pod").isZero();
        assertThat(gateway.output()).contains("Drained in");

        // the listener is closed: new connections are refused
        assertThatThrownBy(() -> get("/ready")).isInstanceOf(ConnectException.class);
    }

    private HttpRequest chat() {
        return HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/v1/chat/completions"))
                .timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("""
                        {"model":"%s","stream":true,"messages":[{"role":"user","content":"hi"}]}""".formatted(MODEL)))
                .build();
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path)).timeout(Duration.ofSeconds(5))
                .build(), HttpResponse.BodyHandlers.ofString());
    }
}
