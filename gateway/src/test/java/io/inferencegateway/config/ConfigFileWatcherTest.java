package io.inferencegateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.inferencegateway.testing.ConfigMapVolume;

/** The config file is re-read when Kubernetes swaps a ConfigMap volume's {@code ..data} symlink. */
class ConfigFileWatcherTest {

    @TempDir
    Path dir;

    private final List<GatewayConfig> applied = new CopyOnWriteArrayList<>();
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(ConfigFileWatcher.class);
    private ConfigFileWatcher watcher;

    static String config(String model) {
        return """
                kind: InferenceGatewayConfig
                spec:
                  schedulers:
                    - modelName: %s
                      endpoints: ["127.0.0.1:8000"]
                """.formatted(model);
    }

    ConfigFileWatcherTest() {
        log.start();
        logger.addAppender(log);
    }

    @AfterEach
    void stop() {
        logger.detachAppender(log);
        if (watcher != null) {
            watcher.close();
        }
    }

    private ConfigFileWatcher watch(Path file) {
        return ConfigFileWatcher.start(file, next -> {
            applied.add(next);
            return "ok";
        });
    }

    private List<String> warnings() {
        return log.list.stream().filter(e -> e.getLevel().toString().equals("WARN")).map(ILoggingEvent::getFormattedMessage)
                .toList();
    }

    @Test
    void configMapSymlinkSwapIsAppliedOnce() throws Exception {
        ConfigMapVolume volume = ConfigMapVolume.create(dir, "config.yaml", config("a"));
        watcher = watch(volume.file());

        volume.update(config("b"));

        await().atMost(Duration.ofSeconds(5)).until(() -> applied.size() == 1);
        assertThat(applied.get(0).pools().get(0).modelName()).isEqualTo("b");
        // the watcher logs the outcome after the config was applied, on its own thread
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(log.list)
                .extracting(ILoggingEvent::getFormattedMessage)
                .contains("applied config " + volume.file().toAbsolutePath() + ": ok"));
    }

    @Test
    void invalidConfigIsRejectedWithOneLineAndTheNextValidOneStillApplies() throws Exception {
        ConfigMapVolume volume = ConfigMapVolume.create(dir, "config.yaml", config("a"));
        watcher = watch(volume.file());

        volume.update(config(" "));
        await().atMost(Duration.ofSeconds(5)).until(() -> !warnings().isEmpty());
        assertThat(warnings()).containsExactly("rejected config " + volume.file().toAbsolutePath()
                + ": spec.schedulers[0].modelName is required; still running the previous config");
        assertThat(applied).isEmpty();

        volume.update(config("c"));
        await().atMost(Duration.ofSeconds(5)).until(() -> applied.size() == 1);
        assertThat(applied.get(0).pools().get(0).modelName()).isEqualTo("c");
        assertThat(warnings()).hasSize(1);
    }

    static Stream<Arguments> strictRefusals() {
        return Stream.of(
                Arguments.of("apiVersion: apiextensions.k8s.io/v1\n" + config("a"),
                        "apiVersion must be inferencegateway.io/v1alpha1, got 'apiextensions.k8s.io/v1'"),
                Arguments.of(config("a").replace("endpoints:", "endpoint:"),
                        "spec.schedulers[0].endpoint is not a known field; did you mean endpoints?"),
                Arguments.of(config("a") + "      routeTimeout: 24000h\n",
                        "spec.schedulers[0].routeTimeout must be at most 24h, got '24000h'"),
                Arguments.of(config("a") + "      weights: {queue: 1000000000}\n",
                        "spec.schedulers[0].weights.queue must be at most 1000, got 1000000000"));
    }

    @ParameterizedTest
    @MethodSource("strictRefusals")
    void aReloadTheStricterLoaderRefusesKeepsTheRunningConfig(String yaml, String problem) throws Exception {
        ConfigMapVolume volume = ConfigMapVolume.create(dir, "config.yaml", config("a"));
        watcher = watch(volume.file());

        volume.update(yaml);
        await().atMost(Duration.ofSeconds(5)).until(() -> !warnings().isEmpty());
        assertThat(warnings()).containsExactly("rejected config " + volume.file().toAbsolutePath() + ": " + problem
                + "; still running the previous config");
        assertThat(applied).isEmpty();

        volume.update(config("c"));
        await().atMost(Duration.ofSeconds(5)).until(() -> applied.size() == 1);
        assertThat(applied.get(0).pools().get(0).modelName()).isEqualTo("c");
    }

    @Test
    void aPlainFileRewrittenInPlaceIsAppliedAndSameContentIsNot() throws Exception {
        Path file = dir.resolve("gateway.yaml");
        Files.writeString(file, config("a"));
        watcher = watch(file);

        Files.writeString(file, config("a")); // touched, same content
        Files.writeString(dir.resolve("unrelated.txt"), "x");
        Files.writeString(file, config("d"));

        await().atMost(Duration.ofSeconds(5)).until(() -> applied.size() == 1);
        assertThat(applied.get(0).pools().get(0).modelName()).isEqualTo("d");
        // the same content written again is not applied twice
        watcher.check();
        assertThat(applied).hasSize(1);
    }
}
