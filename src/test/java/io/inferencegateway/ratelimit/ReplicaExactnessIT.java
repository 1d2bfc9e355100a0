package io.inferencegateway.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.inferencegateway.auth.ApiKeys;
import io.inferencegateway.lab.simulator.FleetOptions;
import io.inferencegateway.lab.simulator.SimulatedFleet;
import io.inferencegateway.lab.bench.gateway.RedisServer;

/**
 * Limits that hold across replicas (docs/auth.md, "Exactness across replicas"): three gateway processes (the packaged
 * jar) in front of simulated vLLM pods, sharing one real Redis; many concurrent streaming clients spread over the
 * three, one tenant limited in tokens per window and one in requests. The tokens and requests admitted in the window
 * must come within 5% of the limit and never pass it by more than one request's reservation. The same load on three
 * gateways counting in their own memory shows the naive failure beside it: about three times the limit.
 *
 * <p>Counts what the clients got: a 200 is an admitted request and its stream's final {@code usage} its real tokens.
 * The load runs inside one window, started just after a window boundary (Redis's clock is this machine's).
 */
class ReplicaExactnessIT {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static final long WINDOW_MILLIS = 30_000;
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

    record Result(long tokensAdmitted, long tpmRequestsAdmitted, long rpmRequestsAdmitted, long refused,
            long oneReservation) {
    }

    @Test
    void limitsHoldAcrossThreeReplicasOnRedisAndNotInLocalMemory() throws Exception {
        Result shared = run(true);
        Result naive = run(false);
        String report = """
                three gateway processes, %d clients per tenant, streaming, max_tokens %d, window %d s
                  Redis:  tokens admitted %d of a %d limit (%.1f%%), requests admitted %d of a %d limit (%.1f%%), %d refused with 429
                  local:  tokens admitted %d of a %d limit (%.1f%%), requests admitted %d of a %d limit (%.1f%%)
                """.formatted(CLIENTS_PER_TENANT, MAX_TOKENS, WINDOW_MILLIS / 1000,
                shared.tokensAdmitted(), TOKEN_LIMIT, 100.0 * shared.tokensAdmitted() / TOKEN_LIMIT,
                shared.rpmRequestsAdmitted(), REQUEST_LIMIT, 100.0 * shared.rpmRequestsAdmitted() / REQUEST_LIMIT,
                shared.refused(),
                naive.tokensAdmitted(), TOKEN_LIMIT, 100.0 * naive.tokensAdmitted() / TOKEN_LIMIT,
                naive.rpmRequestsAdmitted(), REQUEST_LIMIT, 100.0 * naive.rpmRequestsAdmitted() / REQUEST_LIMIT);
        System.out.println(report);
        Files.writeString(Path.of("target", "replica-exactness.txt"), report);

        assertThat(shared.tokensAdmitted()).isBetween((long) (TOKEN_LIMIT * 0.95), TOKEN_LIMIT + shared.oneReservation());
        assertThat(shared.rpmRequestsAdmitted()).isBetween((long) (REQUEST_LIMIT * 0.95), REQUEST_LIMIT);
        // each replica admits the whole limit on its own
        assertThat(naive.tokensAdmitted()).isGreaterThan(TOKEN_LIMIT * 3 / 2);
        assertThat(naive.rpmRequestsAdmitted()).isGreaterThan(REQUEST_LIMIT * 3 / 2);
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
        long now = System.currentTimeMillis();
        Thread.sleep(WINDOW_MILLIS - now % WINDOW_MILLIS + 200); // just after a window starts
        long stopAt = System.currentTimeMillis() + WINDOW_MILLIS - 4_000; // and well before it ends

        AtomicLong tokens = new AtomicLong();
        AtomicLong tpmRequests = new AtomicLong();
        AtomicLong rpmRequests = new AtomicLong();
        AtomicLong refused = new AtomicLong();
        ExecutorService clients = Executors.newFixedThreadPool(2 * CLIENTS_PER_TENANT);
        for (int c = 0; c < 2 * CLIENTS_PER_TENANT; c++) {
            boolean tpm = c % 2 == 0;
            int first = c;
            clients.submit(() -> {
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
                            if (tpm) {
                                Matcher m = TOTAL.matcher(r.body());
                                long total = 0;
                                while (m.find()) {
                                    total = Long.parseLong(m.group(1));
                                }
                                tokens.addAndGet(total);
                                tpmRequests.incrementAndGet();
                            } else {
                                rpmRequests.incrementAndGet();
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
            });
        }
        clients.shutdown();
        assertThat(clients.awaitTermination(2 * WINDOW_MILLIS, TimeUnit.MILLISECONDS)).isTrue();
        return new Result(tokens.get(), tpmRequests.get(), rpmRequests.get(), refused.get(), oneReservation);
    }

    /** The packaged gateway (target/inference-gateway.jar) as a process of its own. */
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
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            String jar = System.getProperty("gateway.jar", "target/inference-gateway.jar");
            Process p = new ProcessBuilder(List.of(java, "-Xmx384m", "-XX:TieredStopAtLevel=1", "-jar", jar, "serve",
                    "--config", file.toString(), "--port", Integer.toString(port)))
                    .redirectErrorStream(true).redirectOutput(new File("target/" + name + ".log")).start();
            return new GatewayProcess(p, port, name);
        }

        String url() {
            return "http://127.0.0.1:" + port;
        }

        void awaitReady() throws Exception {
            HttpClient http = HttpClient.newHttpClient();
            for (int i = 0; i < 240; i++) {
                try {
                    if (http.send(HttpRequest.newBuilder(URI.create(url() + "/ready")).build(),
                            HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                        return;
                    }
                } catch (java.io.IOException notYet) {
                    // still starting
                }
                if (!process.isAlive()) {
                    break;
                }
                Thread.sleep(250);
            }
            throw new IllegalStateException("gateway " + name + " did not start; see target/" + name + ".log");
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
