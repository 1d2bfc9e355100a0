package io.inferencegateway.lab.regions;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.inferencegateway.lab.bench.gateway.GatewayProcess;

/**
 * A global tier ({@code spec.global}) for the end-to-end tests: the runnable jar's {@code serve --config tier.yaml}
 * as a process on the host, where the regions' links listen. Its access log (stdout, one JSON line per request) goes
 * to {@code access.log}, everything else (stderr) to {@code gateway.log}, both in the directory it is given. The
 * config can be rewritten while it runs (a hot reload), and a config can be tried on a tier expected to refuse it.
 */
public final class GlobalTier implements AutoCloseable {

    /** What a tier that refused its config left behind: its exit code and what it printed. */
    public record Refusal(int exitCode, String output) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final Process process;
    private final Path dir;
    private final Path config;
    private final int port;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private GlobalTier(Process process, Path dir, Path config, int port) {
        this.process = process;
        this.dir = dir;
        this.config = config;
        this.port = port;
    }

    /** Writes {@code dir/tier.yaml}, starts the tier on a free port and returns once {@code GET /ready} says 200. */
    public static GlobalTier start(Path dir, String yaml, Duration readyTimeout) throws IOException {
        Files.createDirectories(dir);
        Path config = dir.resolve("tier.yaml");
        Files.writeString(config, yaml);
        int port = GatewayProcess.freePort();
        Process process = new ProcessBuilder(command(config, port))
                .redirectOutput(ProcessBuilder.Redirect.to(dir.resolve("access.log").toFile()))
                .redirectError(ProcessBuilder.Redirect.to(dir.resolve("gateway.log").toFile())).start();
        GlobalTier tier = new GlobalTier(process, dir, config, port);
        try {
            tier.awaitReady(readyTimeout);
        } catch (RuntimeException e) {
            tier.close();
            throw e;
        }
        return tier;
    }

    /**
     * Starts a tier on {@code yaml} (written to {@code dir/<name>.yaml}) that is expected to refuse it, and waits for
     * it to exit; fails if it is still running after {@code timeout}.
     */
    public static Refusal refuse(Path dir, String name, String yaml, Duration timeout) throws IOException,
            InterruptedException {
        Files.createDirectories(dir);
        Path config = dir.resolve(name + ".yaml");
        Files.writeString(config, yaml);
        Path output = dir.resolve(name + ".log");
        Process process = new ProcessBuilder(command(config, GatewayProcess.freePort())).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(output.toFile())).start();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            throw new IllegalStateException("a tier on " + config + " still ran after " + timeout.toSeconds()
                    + " s; its output:\n" + Files.readString(output));
        }
        return new Refusal(process.exitValue(), Files.readString(output));
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Rewrites the config file in one rename, as a ConfigMap update does; the tier's watcher reloads it. */
    public void reload(String yaml) throws IOException {
        Path next = dir.resolve("tier.yaml.next");
        Files.writeString(next, yaml);
        Files.move(next, config, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** {@code GET /metrics}. */
    public String metrics() {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/metrics")).timeout(Duration.ofSeconds(5))
                    .build(), HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The sum of the series of {@code name} whose labels contain every one of {@code labels} ({@code k="v"}). */
    public double metricSum(String name, String... labels) {
        return metrics().lines().filter(l -> l.startsWith(name + "{") || l.startsWith(name + " "))
                .filter(l -> java.util.Arrays.stream(labels).allMatch(l::contains))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    /** The access log's lines so far, each a JSON object. */
    public List<Map<String, Object>> accessLog() {
        List<Map<String, Object>> lines = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(dir.resolve("access.log"), StandardCharsets.UTF_8)) {
                if (line.startsWith("{") && line.endsWith("}")) {
                    lines.add(JSON.readValue(line, new TypeReference<Map<String, Object>>() { }));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return lines;
    }

    /**
     * The access log's line of the request the client sent with {@code x-request-id: requestId}, waiting for it (the
     * log is written off the event loops, so it may trail the response by a moment).
     */
    public Map<String, Object> accessLine(String requestId) {
        return await("the access log line of " + requestId).atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(50)).until(() -> accessLog().stream()
                        .filter(l -> requestId.equals(l.get("request_id"))).findFirst().orElse(null), l -> l != null);
    }

    /** The tier's own log (stderr) so far. */
    public String log() {
        try {
            return Files.readString(dir.resolve("gateway.log"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SIGTERM, then SIGKILL after a grace period. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private void awaitReady(Duration timeout) {
        HttpRequest ready = HttpRequest.newBuilder(URI.create(baseUrl() + "/ready")).timeout(Duration.ofSeconds(2))
                .build();
        await("the tier's /ready").atMost(timeout).pollInterval(Duration.ofMillis(100)).until(() -> {
            if (!process.isAlive()) {
                throw new IllegalStateException("the tier exited with " + process.exitValue() + " before it was "
                        + "ready; its log:\n" + log());
            }
            try {
                return http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
            } catch (IOException notYet) {
                return false;
            }
        });
    }

    private static List<String> command(Path config, int port) {
        List<String> command = new ArrayList<>(GatewayProcess.javaJarCommand(Region.jar(), RegionSpec.SMALL_JVM));
        command.addAll(List.of("serve", "--config", config.toAbsolutePath().toString(), "--port",
                Integer.toString(port)));
        return command;
    }
}
