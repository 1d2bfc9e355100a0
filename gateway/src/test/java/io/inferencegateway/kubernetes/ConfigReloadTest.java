package io.inferencegateway.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.camel.CamelContext;
import org.apache.camel.Route;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.inferencegateway.config.ConfigFileWatcher;
import io.inferencegateway.testing.ConfigMapVolume;
import io.inferencegateway.testing.GatewayHarness;
import io.inferencegateway.testing.MockCluster;
import io.inferencegateway.testing.TestUpstream;

/**
 * The gateway re-applies its InferenceGatewayConfig when the mounted ConfigMap changes (the kubelet's {@code ..data}
 * symlink swap), while clients keep sending: no request fails because of a reload, an invalid config changes
 * nothing, and per-pool routes follow the pools.
 */
class ConfigReloadTest {

    // a bound, not a goal: reloads apply within ~0.2 s here, but a busy 2-core box can stall a few seconds
    private static final Duration APPLIED = Duration.ofSeconds(15);

    @TempDir
    Path mount;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final TestUpstream first = new TestUpstream();
    private final TestUpstream second = new TestUpstream();
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger watcherLog = (Logger) LoggerFactory.getLogger(ConfigFileWatcher.class);
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private GatewayHarness gateway;

    ConfigReloadTest() throws Exception {
        log.start();
        watcherLog.addAppender(log);
    }

    @AfterEach
    void stop() throws Exception {
        watcherLog.detachAppender(log);
        if (gateway != null) {
            gateway.close();
        }
        for (AutoCloseable c : closeables) {
            c.close();
        }
        first.close();
        second.close();
    }

    private static String config(String schedulers) {
        return """
                apiVersion: inferencegateway.io/v1alpha1
                kind: InferenceGatewayConfig
                metadata: {name: reload}
                spec:
                  schedulers:
                """ + schedulers;
    }

    private String pool(String name, String extra, TestUpstream upstream) {
        return "    - {name: %s, modelName: model-%s, routeTimeout: 5s, endpoints: ['%s']%s}\n"
                .formatted(name, name, upstream.address(), extra);
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

    private String models() throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/v1/models")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    /** Clients sending requests for {@code models} in a loop until stopped; every status is kept. */
    private final class Load implements AutoCloseable {
        final Queue<String> outcomes = new ConcurrentLinkedQueue<>();
        final AtomicBoolean running = new AtomicBoolean(true);
        final ExecutorService threads = Executors.newFixedThreadPool(4);

        Load(String... models) {
            for (int i = 0; i < 4; i++) {
                String model = models[i % models.length];
                threads.submit(() -> {
                    while (running.get()) {
                        try {
                            outcomes.add(model + " " + status(model));
                        } catch (Exception e) {
                            outcomes.add(model + " " + e);
                        }
                    }
                });
            }
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            threads.shutdown();
            assertThat(threads.awaitTermination(15, TimeUnit.SECONDS)).isTrue();
        }
    }

    private boolean applied(int times) {
        return log.list.stream().filter(e -> e.getFormattedMessage().startsWith("applied config ")).count() >= times;
    }

    private List<String> warnings() {
        return log.list.stream().filter(e -> e.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage).toList();
    }

    private List<String> routeIds() {
        CamelContext context = gateway.server().camelContext();
        return context.getRoutes().stream().map(Route::getRouteId).toList();
    }

    @Test
    void aValidChangeIsAppliedWhileRequestsRunAndNoneFails() throws Exception {
        ConfigMapVolume volume = ConfigMapVolume.create(mount, "config.yaml", config(
                pool("kept", "", first) + pool("changed", ", policy: round-robin", first)
                // scraped all the time: its route is removed while it runs
                + pool("removed", ", metricsInterval: 10ms", second)));
        gateway = GatewayHarness.startWithConfigFile(volume.file(), Map.of());
        first.behave(new TestUpstream.Json(200, "{\"ok\":true}"));
        await().atMost(APPLIED).until(() -> routeIds().contains("metrics-scrape-removed"));
        HttpClient streaming = HttpClient.newHttpClient();
        second.behave(new TestUpstream.Sse(8, 150));
        CompletableFuture<HttpResponse<String>> inFlight = streaming.sendAsync(chat("model-removed", true),
                HttpResponse.BodyHandlers.ofString());
        await().atMost(APPLIED).until(() -> !second.received().isEmpty());

        Load load = new Load("model-kept", "model-changed");
        await().atMost(APPLIED).until(() -> load.outcomes.size() > 20);
        volume.update(config(pool("kept", "", first)
                + pool("changed", ", policy: least-request, loraAdapters: [changed-sql]", first)
                + pool("added", "", second)));
        await().atMost(APPLIED).until(() -> applied(1)); // pools swapped and per-pool routes brought in line
        assertThat(status("model-added")).isEqualTo(200);
        int afterReload = load.outcomes.size();
        await().atMost(APPLIED).until(() -> load.outcomes.size() > afterReload + 20);
        load.close();

        assertThat(load.outcomes).isNotEmpty().allSatisfy(outcome -> assertThat(outcome).endsWith(" 200"));
        assertThat(status("changed-sql")).as("the changed pool's new adapter").isEqualTo(200);
        assertThat(status("model-removed")).isEqualTo(404);
        assertThat(models()).contains("model-kept", "model-changed", "changed-sql", "model-added")
                .doesNotContain("model-removed");
        assertThat(routeIds()).contains("metrics-scrape-kept", "metrics-scrape-changed", "metrics-scrape-added")
                .doesNotContain("metrics-scrape-removed");
        HttpResponse<String> stream = inFlight.get(10, TimeUnit.SECONDS);
        assertThat(stream.statusCode()).as("a stream on a removed pool finishes").isEqualTo(200);
        assertThat(stream.body()).endsWith(TestUpstream.sseEvent(7));
        assertThat(warnings()).isEmpty();
    }

    @Test
    void anInvalidChangeIsRejectedWithOneLineAndTheRunningConfigKeepsServing() throws Exception {
        ConfigMapVolume volume = ConfigMapVolume.create(mount, "config.yaml", config(pool("a", "", first)));
        gateway = GatewayHarness.startWithConfigFile(volume.file(), Map.of());
        String modelsBefore = models();

        try (Load load = new Load("model-a")) {
            volume.update(config(pool("a", "", first) + "    - {name: b, modelName: model-a, endpoints: ['"
                    + second.address() + "']}\n"));
            await().atMost(APPLIED).until(() -> !warnings().isEmpty());
            int afterRejection = load.outcomes.size();
            await().atMost(APPLIED).until(() -> load.outcomes.size() > afterRejection + 20);
            load.close();
            assertThat(load.outcomes).isNotEmpty().allSatisfy(outcome -> assertThat(outcome).endsWith(" 200"));
        }
        assertThat(warnings()).containsExactly("rejected config " + volume.file().toAbsolutePath()
                + ": spec.schedulers[1].modelName 'model-a' duplicates spec.schedulers[0].modelName"
                + "; still running the previous config");
        assertThat(models()).isEqualTo(modelsBefore);
        assertThat(second.received()).isEmpty();

        volume.update(config(pool("a", "", second)));
        await().atMost(APPLIED).until(() -> {
            status("model-a");
            return !second.received().isEmpty();
        });
    }

    @Test
    void aDiscoveredPoolKeepsItsPodsThroughAReloadAndFollowsANewSelector() throws Exception {
        MockCluster cluster = new MockCluster();
        closeables.add(cluster);
        cluster.createPod("models", "llama-0", Map.of("app", "llama"), "127.0.0.1", true);
        String discovered = """
                    - name: llama
                      modelName: llama
                      namespace: models
                      modelSelector: {matchLabels: {app: %s}}
                      targetPort: %d
                      policy: %s
                      routeTimeout: 5s
                """;
        ConfigMapVolume volume = ConfigMapVolume.create(mount, "config.yaml",
                config(discovered.formatted("llama", first.port(), "round-robin")));
        gateway = GatewayHarness.startWithConfigFile(volume.file(), Map.of(
                "gateway.kubernetes.masterUrl", cluster.masterUrl(), "gateway.kubernetes.resyncPeriod", "600000"));
        await().atMost(APPLIED).until(() -> status("llama") == 200);
        Route watchBefore = gateway.server().camelContext().getRoute("model-server-pods-llama");

        try (Load load = new Load("llama")) {
            await().atMost(APPLIED).until(() -> load.outcomes.size() > 20);
            volume.update(config(discovered.formatted("llama", first.port(), "least-request")));
            await().atMost(APPLIED).until(() -> gateway.server().gateway().pools().pool("llama").config().policy()
                    .configName().equals("least-request"));
            int afterReload = load.outcomes.size();
            await().atMost(APPLIED).until(() -> load.outcomes.size() > afterReload + 20);
            load.close();
            assertThat(load.outcomes).isNotEmpty().allSatisfy(outcome -> assertThat(outcome).endsWith(" 200"));
        }
        assertThat(gateway.server().camelContext().getRoute("model-server-pods-llama"))
                .as("same selector: the watch kept running").isSameAs(watchBefore);

        cluster.createPod("models", "llama-v2-0", Map.of("app", "llama-v2"), "127.0.0.1", false);
        volume.update(config(discovered.formatted("llama-v2", first.port(), "least-request")));
        await().atMost(APPLIED).until(() -> gateway.server().camelContext().getRoute("model-server-pods-llama")
                != watchBefore);
        await().atMost(APPLIED).until(() -> status("llama") == 503); // the new selector's only pod is not ready
        cluster.setReady("models", "llama-v2-0", true);
        await().atMost(APPLIED).until(() -> status("llama") == 200);

        volume.update(config(pool("a", "", first)));
        await().atMost(APPLIED).until(() -> routeIds().contains("metrics-scrape-a"));
        assertThat(routeIds()).as("the removed pool's watch, the Kamelet's route under it, its resync, its scrape")
                .doesNotContain("pod-watch-llama", "model-server-pods-llama", "pod-resync-llama", "metrics-scrape-llama");
        assertThat(warnings()).isEmpty();
    }
}
