package io.inferencegateway.deployed;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.awaitility.core.ConditionTimeoutException;

/**
 * A gateway in a JVM of its own, as it runs when deployed: started from a command line, its output kept in a log
 * file, reachable only over HTTP.
 */
final class ChildJvm implements AutoCloseable {

    private static final Duration START_LIMIT = Duration.ofSeconds(120);
    private static final Pattern ANSI_SGR = Pattern.compile("\u001B\\[[0-9;]*m");

    private final Process process;
    private final Path log;

    private ChildJvm(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** The java launcher of the JVM running the tests, so that both runtimes run on the same JDK. */
    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * Starts {@code command} in {@code workDir} with {@code env} added to this process's environment, and returns once
     * {@code GET healthUrl} answers 200.
     */
    static ChildJvm start(List<String> command, Path workDir, Map<String, String> env, Path log, String healthUrl)
            throws IOException, InterruptedException {
        Files.createDirectories(log.getParent());
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(env);
        ChildJvm jvm = new ChildJvm(builder.start(), log);
        try {
            jvm.awaitHealthy(healthUrl);
        } catch (IOException | InterruptedException | RuntimeException | AssertionError e) {
            jvm.close();
            throw e;
        }
        return jvm;
    }

    private void awaitHealthy(String healthUrl) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest health = HttpRequest.newBuilder(URI.create(healthUrl)).timeout(Duration.ofSeconds(2)).build();
        try {
            await().atMost(START_LIMIT).pollInterval(Duration.ofMillis(200)).until(() -> {
                if (!process.isAlive()) {
                    throw new AssertionError("the gateway exited with " + process.exitValue() + " before serving; "
                            + "its log " + log + " ends:\n" + tail(40));
                }
                return answers(http, health);
            });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("the gateway did not answer " + healthUrl + " within " + START_LIMIT + "; its log "
                    + log + " ends:\n" + tail(40));
        }
    }

    private static boolean answers(HttpClient http, HttpRequest health) throws InterruptedException {
        try {
            return http.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException notListeningYet) {
            return false;
        }
    }

    Process process() {
        return process;
    }

    Path log() {
        return log;
    }

    /** Everything the gateway printed so far, without colours (the Camel K logging trait turns them on). */
    String output() throws IOException {
        return withoutColours(Files.readString(log));
    }

    /** The last {@code lines} lines the gateway printed, without colours. */
    String tail(int lines) throws IOException {
        List<String> all = Files.exists(log) ? Files.readAllLines(log) : List.of();
        return withoutColours(String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size())));
    }

    private static String withoutColours(String text) {
        return ANSI_SGR.matcher(text).replaceAll("");
    }

    /** Stops the gateway as Kubernetes stops a pod: SIGTERM, then SIGKILL if it has not exited after a grace period. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
