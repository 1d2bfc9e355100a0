package io.inferencegateway.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.inferencegateway.testing.GatewayHarness;
import io.inferencegateway.testing.MockCluster;
import io.inferencegateway.testing.TestUpstream;

/**
 * Pod discovery end to end: the real gateway (YAML routes, the model-server-pods-source Kamelet, camel-kubernetes)
 * against fabric8's mock API server, with requests over HTTP. Each model pool has one pod, 127.0.0.1 on the
 * pool's targetPort, which is a {@link TestUpstream}'s port; whether requests for the pool's model get through
 * (200) or find no endpoint (503) shows what discovery did.
 */
class KubernetesDiscoveryTest {

    // how long a pod change may take to reach routing: generous, since a loaded 2-core CI box stalls for seconds
    private static final Duration CHANGE_SEEN = Duration.ofSeconds(15);
    private static final Map<String, String> LLAMA = Map.of("app", "llama", "tier", "gpu");
    private static final Map<String, String> QWEN = Map.of("app", "qwen");
    private static final long WATCH_ONLY = 600_000; // resync so rare that only the watch can explain a change

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final MockCluster cluster = new MockCluster();
    private final TestUpstream llamaServer = new TestUpstream();
    private final TestUpstream qwenServer = new TestUpstream();
    private GatewayHarness gateway;

    KubernetesDiscoveryTest() throws Exception {
    }

    @AfterEach
    void stop() throws Exception {
        if (gateway != null) {
            gateway.close();
        }
        llamaServer.close();
        qwenServer.close();
        cluster.close();
    }

    private void startGateway(long resyncMillis) throws Exception {
        String config = """
                apiVersion: inferencegateway.io/v1alpha1
                kind: InferenceGatewayConfig
                metadata: {name: discovery}
                spec:
                  schedulers:
                    - name: llama
                      modelName: llama
                      namespace: models
                      modelSelector: {matchLabels: {app: llama, tier: gpu}}
                      targetPort: %d
                      policy: round-robin
                      routeTimeout: 5s
                    - name: qwen
                      modelName: qwen
                      namespace: models
                      modelSelector: {matchLabels: {app: qwen}}
                      targetPort: %d
                      policy: round-robin
                      routeTimeout: 5s
                """.formatted(llamaServer.port(), qwenServer.port());
        gateway = GatewayHarness.start(config, Map.of(
                "gateway.kubernetes.masterUrl", cluster.masterUrl(),
                "gateway.kubernetes.resyncPeriod", Long.toString(resyncMillis)));
    }

    private HttpRequest chat(String model, boolean stream) {
        return HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/v1/chat/completions"))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + model + "\",\"stream\":" + stream
                        + ",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"))
                .build();
    }

    private int status(String model) throws Exception {
        return http.send(chat(model, false), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Test
    void podsThatExistAtStartAreRoutedAndPodsOfAnotherLabelOrNamespaceAreNot() throws Exception {
        cluster.createPod("models", "qwen-0", QWEN, "127.0.0.1", true);
        cluster.createPod("models", "llama-cpu-0", Map.of("app", "llama", "tier", "cpu"), "127.0.0.1", true);
        cluster.createPod("elsewhere", "llama-0", LLAMA, "127.0.0.1", true);

        startGateway(WATCH_ONLY);

        await().atMost(CHANGE_SEEN).until(() -> status("qwen") == 200);
        assertThat(qwenServer.received()).isNotEmpty();
        await().during(Duration.ofSeconds(1)).atMost(CHANGE_SEEN).until(() -> status("llama") == 503);
        assertThat(llamaServer.received()).isEmpty();
        assertThat(gateway.server().camelContext().getRoute("pod-watch-llama")).isNotNull();
        assertThat(gateway.server().camelContext().getRoute("model-server-pods-llama")).isNotNull();
        assertThat(gateway.server().camelContext().getRoute("pod-resync-qwen")).isNotNull();
    }

    @Test
    void aPodAddedTurningReadyNotReadyAndDeletedIsReflectedInRouting() throws Exception {
        startGateway(WATCH_ONLY);
        assertThat(status("llama")).isEqualTo(503);

        cluster.createPod("models", "llama-0", LLAMA, "127.0.0.1", false);
        cluster.setReady("models", "llama-0", true);
        await().atMost(CHANGE_SEEN).until(() -> status("llama") == 200);

        cluster.setReady("models", "llama-0", false);
        await().atMost(CHANGE_SEEN).until(() -> status("llama") == 503);

        cluster.setReady("models", "llama-0", true);
        await().atMost(CHANGE_SEEN).until(() -> status("llama") == 200);

        cluster.deletePod("models", "llama-0");
        await().atMost(CHANGE_SEEN).until(() -> status("llama") == 503);
        assertThat(status("qwen")).as("the other pool never had a pod").isEqualTo(503);
    }

    @Test
    void aStreamInFlightOnADeletedPodCompletes() throws Exception {
        cluster.createPod("models", "llama-0", LLAMA, "127.0.0.1", true);
        startGateway(WATCH_ONLY);
        await().atMost(CHANGE_SEEN).until(() -> status("llama") == 200);
        llamaServer.behave(new TestUpstream.Sse(6, 250));
        int before = llamaServer.received().size();

        CompletableFuture<HttpResponse<String>> stream = http.sendAsync(chat("llama", true),
                HttpResponse.BodyHandlers.ofString());
        await().atMost(CHANGE_SEEN).until(() -> llamaServer.received().size() > before);
        cluster.deletePod("models", "llama-0");
        await().atMost(CHANGE_SEEN).until(() -> status("llama") == 503);

        HttpResponse<String> response = stream.get(10, TimeUnit.SECONDS);
        assertThat(response.statusCode()).isEqualTo(200);
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            all.append(TestUpstream.sseEvent(i));
        }
        assertThat(response.body()).isEqualTo(all.toString());
    }

    @Test
    void aWatchTheServerEndsIsMadeGoodByTheResyncAndReopened() throws Exception {
        cluster.expireNextWatch("models", "app", "llama");
        startGateway(300);
        await().atMost(CHANGE_SEEN).until(() -> cluster.watchesOpened("models") >= 2); // llama's (ended) and qwen's
        long watchesBefore = cluster.watchesOpened("models");

        cluster.createPod("models", "llama-0", LLAMA, "127.0.0.1", true);

        await().atMost(CHANGE_SEEN).until(() -> status("llama") == 200);
        await().atMost(CHANGE_SEEN).until(() -> cluster.watchesOpened("models") > watchesBefore);
        cluster.deletePod("models", "llama-0");
        await().atMost(CHANGE_SEEN).until(() -> status("llama") == 503);
    }
}
