package io.inferencegateway.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.net.ServerSocket;
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
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.inferencegateway.auth.ApiKeys;
import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.simulator.RedisServer;
import io.inferencegateway.testing.ServeCommandLine;

/**
 * Limits that hold across replicas (docs/auth.md, "Exactness across replicas"): three gateway processes (the packaged
 * jar) in front of simulated vLLM pods, sharing one real Redis; many concurrent streaming clients spread over the
 * three, one tenant limited in tokens per window and one in requests. The tokens and requests admitted in a window
 * must never pass the limit by more than one request's reservation, and in the window the load covered longest they
 * must come within 5% of it. The same load on three gateways counting in their own memory shows the naive failure
 * beside it: about three times the limit.
 *
 * <p>Counts what the clients got: a 200 is an admitted request and its stream's final {@code usage} its real tokens,
 * counted in the window its {@code x-ratelimit-reset-*} header points at ({@link RateLimitWindows}). The load starts
 * whenever the gateways are ready and runs a second longer than a window, so that one window gets half of it or more.
 */
class ReplicaExactnessIT {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static final long WINDOW_MILLIS = 30_000;
    static final long LOAD_MILLIS = WINDOW_MILLIS + 1_000;
    static final long TOKEN_LIMIT = 6_000;
    static final long REQUEST_LIMIT = 120;
    static final int MAX_TOKENS = 40;
    static final int CLIENTS_PER_TENANT = 12;
    static final Pattern TOTAL = Pattern.compile("\"total_tokens\":(\\d+)");

    static SimulatedFleet fleet;
    static RedisServer redis;
    static Path keys;

    @BeforeAll
    static void start() throws Exception {
        fleet = SimulatedFleet.start(FleetOptions.builder().pods(2).timeScale(200).maxNumSeqs(256).model(MODEL).build());
        redis = RedisServer.start();
        keys = Files.createTempFile("api-keys", ".txt");
        Files.writeString(keys, ApiKeys.line("sk-tpm", "tpm") + ApiKeys.line("sk-rpm", "rpm"));
    }

    @AfterAll
    static void stop() throws Exception {
        fleet.close();
        redis.close();
    }

    /** What the clients were admitted in one window, counted as their responses arrive. */
    record Admitted(AtomicLong tokens, AtomicLong tpmRequests, AtomicLong rpmRequests) {
        Admitted() {
            this(new AtomicLong(), new AtomicLong(), new AtomicLong());
        }
    }

    /** What the clients got in one window, and how much of the window the load ran in. */
    record Window(long number, long loadedMillis, long tokensAdmitted, long tpmRequestsAdmitted,
            long rpmRequestsAdmitted) {
    }

    /** Every window the load ran in, in order. */
    record Result(List<Window> windows, long refused, long oneReservation) {

        /** The window the load ran in longest: at least half the load, whatever the phase it started at. */
        Window longest() {
            Window longest = windows.get(0);
            for (Window w : windows) {
                longest = w.loadedMillis() > longest.loadedMillis() ? w : longest;
            }
            return longest;
        }
    }

    @Test
    void limitsHoldAcrossThreeReplicasOnRedisAndNotInLocalMemory() throws Exception {
        Result shared = run(true);
        Result naive = run(false);
        String report = ("three gateway processes, %d clients per tenant, streaming, max_tokens %d, window %d s, "
                + "load %d s\n").formatted(CLIENTS_PER_TENANT, MAX_TOKENS, WINDOW_MILLIS / 1000, LOAD_MILLIS / 1000)
                + report("Redis", shared) + "  Redis: " + shared.refused() + " refused with 429\n"
                + report("local", naive);
        System.out.println(report);
        Files.writeString(Path.of("target", "replica-exactness.txt"), report);

        for (Window w : shared.windows()) {
            assertThat(w.tokensAdmitted()).as("tokens in %s", w)
                    .isLessThanOrEqualTo(TOKEN_LIMIT + shared.oneReservation());
            assertThat(w.rpmRequestsAdmitted()).as("requests in %s", w).isLessThanOrEqualTo(REQUEST_LIMIT);
        }
        assertThat(shared.longest().tokensAdmitted()).isGreaterThanOrEqualTo((long) (TOKEN_LIMIT * 0.95));
        assertThat(shared.longest().rpmRequestsAdmitted()).isGreaterThanOrEqualTo((long) (REQUEST_LIMIT * 0.95));
        // each replica admits the whole limit on its own
        assertThat(naive.longest().tokensAdmitted()).isGreaterThan(TOKEN_LIMIT * 3 / 2);
        assertThat(naive.longest().rpmRequestsAdmitted()).isGreaterThan(REQUEST_LIMIT * 3 / 2);
    }

    private static String report(String store, Result result) {
        StringBuilder lines = new StringBuilder();
        for (Window w : result.windows()) {
            lines.append(("  %s:  window %d, load in it %.1f s: tokens admitted %d of a %d limit (%.1f%%), "
                    + "requests admitted %d of a %d limit (%.1f%%)\n").formatted(store, w.number(),
                    w.loadedMillis() / 1000.0, w.tokensAdmitted(), TOKEN_LIMIT,
                    100.0 * w.tokensAdmitted() / TOKEN_LIMIT, w.rpmRequestsAdmitted(), REQUEST_LIMIT,
                    100.0 * w.rpmRequestsAdmitted() / REQUEST_LIMIT));
        }
        return lines.toString();
    }

    Result run(boolean onRedis) throws Exception {
        String config = """
                kind: InferenceGatewayConfig
                spec:
                  schedulers:
                    - {modelName: "%s", endpoints: [%s], policy: least-request}
                  auth:
                    apiKeys: {file: "%s"}
                  tenants:
                    - name: tpm
                      limits: {tokensPerMinute: %d}
                    - name: rpm
                      limits: {requestsPerMinute: %d}
                  rateLimits:
                    window: %ds
                """.formatted(MODEL, String.join(", ", fleet.endpoints().stream().map(e -> "\"" + e + "\"").toList()),
                keys, TOKEN_LIMIT, REQUEST_LIMIT, WINDOW_MILLIS / 1000)
                + (onRedis ? "    redis: {url: \"" + redis.url() + "\", failMode: closed}\n" : "");
        List<GatewayProcess> gateways = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                gateways.add(GatewayProcess.launch(config, "exactness-" + (onRedis ? "redis" : "local") + "-" + i));
            }
            for (GatewayProcess g : gateways) {
                g.awaitReady();
            }
            return load(gateways);
        } finally {
            for (GatewayProcess g : gateways) {
                g.close();
            }
        }
    }

    Result load(List<GatewayProcess> gateways) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        String prompt = "Count the requests a tenant may send";
        String body = "{\"model\":\"" + MODEL + "\",\"stream\":true,\"stream_options\":{\"include_usage\":true},"
                + "\"max_tokens\":" + MAX_TOKENS + ",\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt + "\"}]}";
        long oneReservation = MAX_TOKENS + (prompt.length() + "user".length() + 8) / 4 + 16; // generous upper bound
        // warm each gateway up (JIT, connections) with a tenant-free probe of /v1/models... which needs a key
        for (GatewayProcess g : gateways) {
            http.send(HttpRequest.newBuilder(URI.create(g.url() + "/v1/models")).header("Authorization", "Bearer sk-rpm")
                    .build(), HttpResponse.BodyHandlers.discarding());
        }
        long startedAt = System.currentTimeMillis();
        long stopAt = startedAt + LOAD_MILLIS;

        Map<Long, Admitted> admitted = new ConcurrentHashMap<>(); // by window
        AtomicLong refused = new AtomicLong();
        ExecutorService clients = Executors.newFixedThreadPool(2 * CLIENTS_PER_TENANT);
        List<Future<?>> running = new ArrayList<>();
        for (int c = 0; c < 2 * CLIENTS_PER_TENANT; c++) {
            boolean tpm = c % 2 == 0;
            int first = c;
            running.add(clients.submit(() -> {
                int n = first;
                while (System.currentTimeMillis() < stopAt) {
                    GatewayProcess g = gateways.get(n++ % gateways.size());
                    try {
                        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(g.url()
                                        + "/v1/chat/completions")).header("Content-Type", "application/json")
                                .header("Authorization", tpm ? "Bearer sk-tpm" : "Bearer sk-rpm")
                                .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                                HttpResponse.BodyHandlers.ofString());
                        if (r.statusCode() == 200) {
                            OptionalLong window = RateLimitWindows.window(r, System.currentTimeMillis(), WINDOW_MILLIS);
                            Admitted in = admitted.computeIfAbsent(window.orElseThrow(), w -> new Admitted());
                            if (tpm) {
                                Matcher m = TOTAL.matcher(r.body());
                                long total = 0;
                                while (m.find()) {
                                    total = Long.parseLong(m.group(1));
                                }
                                in.tokens().addAndGet(total);
                                in.tpmRequests().incrementAndGet();
                            } else {
                                in.rpmRequests().incrementAndGet();
                            }
                        } else if (r.statusCode() == 429) {
                            refused.incrementAndGet();
                            Thread.sleep(20);
                        } else {
                            throw new AssertionError("HTTP " + r.statusCode() + ": " + r.body());
                        }
                    } catch (InterruptedException e) {
                        return null;
                    }
                }
                return null;
            }));
        }
        clients.shutdown();
        assertThat(clients.awaitTermination(2 * LOAD_MILLIS, TimeUnit.MILLISECONDS)).isTrue();
        for (Future<?> client : running) {
            client.get(); // a client that failed fails the test
        }
        // window n runs from (n - 1) × WINDOW_MILLIS to n × WINDOW_MILLIS; a request sent just before the load
        // stopped may have been admitted in the window after
        long first = startedAt / WINDOW_MILLIS + 1;
        long last = (stopAt - 1) / WINDOW_MILLIS + 1;
        assertThat(admitted.keySet()).as("windows requests were admitted in")
                .allMatch(n -> n >= first && n <= last + 1);
        List<Window> windows = new ArrayList<>();
        for (long n = first; n <= last || admitted.containsKey(n); n++) {
            long loaded = Math.max(0,
                    Math.min(stopAt, n * WINDOW_MILLIS) - Math.max(startedAt, (n - 1) * WINDOW_MILLIS));
            Admitted in = admitted.getOrDefault(n, new Admitted());
            windows.add(new Window(n, loaded, in.tokens().get(), in.tpmRequests().get(), in.rpmRequests().get()));
        }
        return new Result(windows, refused.get(), oneReservation);
    }

    /** The packaged gateway, running by itself as a process of its own (ServeCommandLine). */
    static final class GatewayProcess implements AutoCloseable {
        final Process process;
        final int port;
        final String name;

        private GatewayProcess(Process process, int port, String name) {
            this.process = process;
            this.port = port;
            this.name = name;
        }

        static GatewayProcess launch(String config, String name) throws Exception {
            Path file = Files.createTempFile(name, ".yaml");
            Files.writeString(file, config);
            int port;
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort();
            }
            Process p = new ProcessBuilder(ServeCommandLine.of(List.of("-Xmx384m", "-XX:TieredStopAtLevel=1"), file, port))
                    .redirectErrorStream(true).redirectOutput(new File("target/" + name + ".log")).start();
            return new GatewayProcess(p, port, name);
        }

        String url() {
            return "http://127.0.0.1:" + port;
        }

        void awaitReady() {
            HttpClient http = HttpClient.newHttpClient();
            try {
                await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(250)).until(() -> {
                    if (!process.isAlive()) {
                        throw new IllegalStateException("gateway " + name + " exited; see target/" + name + ".log");
                    }
                    try {
                        return http.send(HttpRequest.newBuilder(URI.create(url() + "/ready")).build(),
                                HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
                    } catch (java.io.IOException notYet) {
                        return false; // still starting
                    }
                });
            } catch (ConditionTimeoutException e) {
                throw new IllegalStateException("gateway " + name + " did not start; see target/" + name + ".log");
            }
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
