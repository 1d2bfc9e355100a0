package io.inferencegateway.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.inferencegateway.config.MountedFileWatcher;
import io.inferencegateway.testing.ConfigMapVolume;

/**
 * The API key file is watched by the gateway's one file watcher: a mounted Secret's symlink swap and a file rewritten
 * in place apply without restart, a file that cannot be read or does not parse keeps the keys read before and says
 * why, and no thread but the watcher's is added.
 */
class ApiKeysTest {

    static final Duration SOON = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final List<Logger> loggers = List.of((Logger) LoggerFactory.getLogger(ApiKeys.class),
            (Logger) LoggerFactory.getLogger(MountedFileWatcher.class));
    private ApiKeys keys;

    ApiKeysTest() {
        log.start();
        loggers.forEach(l -> l.addAppender(log));
    }

    @AfterEach
    void stop() {
        loggers.forEach(l -> l.detachAppender(log));
        if (keys != null) {
            keys.close();
        }
    }

    private List<String> warnings() {
        return log.list.stream().filter(e -> e.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage)
                .toList();
    }

    @Test
    void aKeyRotatedInAMountedSecretIsAcceptedAndTheOldOneRefusedWithoutRestart() throws Exception {
        ConfigMapVolume secret = ConfigMapVolume.create(dir, "api-keys", ApiKeys.line("sk-old", "team-a"));
        keys = ApiKeys.watch(secret.file());
        assertThat(keys.tenantOf("sk-old")).isEqualTo("team-a");

        secret.update(ApiKeys.line("sk-new", "team-a"));

        await().atMost(SOON).until(() -> "team-a".equals(keys.tenantOf("sk-new")));
        assertThat(keys.tenantOf("sk-old")).isNull();
        assertThat(keys.size()).isEqualTo(1);
    }

    @Test
    void aKeyFileRewrittenInPlaceIsReadAgain() throws Exception {
        Path file = dir.resolve("api-keys");
        Files.writeString(file, ApiKeys.line("sk-a", "team-a"));
        keys = ApiKeys.watch(file);

        Files.writeString(file, ApiKeys.line("sk-a", "team-a") + ApiKeys.line("sk-b", "team-b"));

        await().atMost(SOON).until(() -> keys.size() == 2);
        assertThat(keys.tenantOf("sk-b")).isEqualTo("team-b");
    }

    @Test
    void aKeyFileThatDoesNotParseKeepsTheKeysReadBeforeAndSaysWhichLine() throws Exception {
        ConfigMapVolume secret = ConfigMapVolume.create(dir, "api-keys", ApiKeys.line("sk-a", "team-a"));
        keys = ApiKeys.watch(secret.file());

        secret.update(ApiKeys.line("sk-b", "team-b") + "sha256:not-a-hash team-c\n");

        await().atMost(SOON).until(() -> !warnings().isEmpty());
        assertThat(warnings()).containsExactly("API key file " + secret.file() + " not applied: line 2 must be "
                + "'sha256:<64 hex digits> <tenant>'; the keys read before stay");
        assertThat(keys.tenantOf("sk-a")).isEqualTo("team-a");
        assertThat(keys.tenantOf("sk-b")).isNull();

        secret.update(ApiKeys.line("sk-b", "team-b"));
        await().atMost(SOON).until(() -> "team-b".equals(keys.tenantOf("sk-b")));
    }

    @Test
    void aKeyFileThatIsGoneKeepsTheKeysReadBeforeUntilItIsBack() throws Exception {
        Path file = dir.resolve("api-keys");
        Files.writeString(file, ApiKeys.line("sk-a", "team-a"));
        keys = ApiKeys.watch(file);

        Files.delete(file);

        await().atMost(SOON).until(() -> !warnings().isEmpty());
        assertThat(warnings()).containsExactly("API key file " + file + " is gone; what was read before stays");
        assertThat(keys.tenantOf("sk-a")).isEqualTo("team-a");

        Files.writeString(file, ApiKeys.line("sk-b", "team-b"));
        await().atMost(SOON).until(() -> "team-b".equals(keys.tenantOf("sk-b")));
        assertThat(keys.tenantOf("sk-a")).isNull();
    }

    @Test
    void theKeysAreWatchedByTheFileWatchersThreadAloneWhichCloseEnds() throws Exception {
        ConfigMapVolume secret = ConfigMapVolume.create(dir, "api-keys", ApiKeys.line("sk-a", "team-a"));
        Set<Thread> before = Thread.getAllStackTraces().keySet();

        keys = ApiKeys.watch(secret.file());

        Set<Thread> added = new HashSet<>(Thread.getAllStackTraces().keySet());
        added.removeAll(before);
        // the watcher's thread, and the JDK's own for the watch service (Linux: its inotify reader); no timer.
        // Threads other tests' pools start meanwhile (Netty's global executor) are not the watcher's.
        assertThat(added).extracting(Thread::getName)
                .filteredOn(name -> name.startsWith("file-watch") || name.startsWith("FileSystemWatch")
                        || name.startsWith("Timer") || name.contains("api-keys"))
                .containsExactlyInAnyOrder("file-watch-api-keys", "FileSystemWatchService");
        secret.update(ApiKeys.line("sk-b", "team-b"));
        await().atMost(SOON).until(() -> "team-b".equals(keys.tenantOf("sk-b")));

        keys.close();
        await().atMost(SOON).until(() -> added.stream()
                .filter(thread -> thread.getName().equals("file-watch-api-keys")
                        || thread.getName().equals("FileSystemWatchService"))
                .noneMatch(Thread::isAlive));
    }
}
