package io.inferencegateway.lab.benchmarks;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.testing.GatewayHarness;

/**
 * The clients' latency distribution through a gateway without a shadow and through one that copies half the requests
 * to a candidate twenty times slower, at the same open-loop load on the same simulated primary pods, in alternating
 * rounds (docs/shadow.md). Prints a Markdown table and the shadow's meters. {@code -Dbench.rate} (requests a second,
 * 20), {@code -Dbench.seconds} (a run, 30) and {@code -Dbench.rounds} (2):
 *
 * <pre>
 * mvn -B -q package -DskipTests
 * java -Dbench.rate=20 -Dbench.seconds=30 -Dbench.rounds=2 \
 *      -cp lab/target/test-classes:lab/target/classes:$(cat lab/target/test-classpath.txt) \
 *      io.inferencegateway.lab.benchmarks.ShadowLatencyBenchmark
 * </pre>
 */
public final class ShadowLatencyBenchmark {

    static final String MODEL = "llama-3-8b";
    static final String CANDIDATE = "llama-3-8b-v2";

    private ShadowLatencyBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int rate = Integer.getInteger("bench.rate", 20);
        int seconds = Integer.getInteger("bench.seconds", 30);
        int rounds = Integer.getInteger("bench.rounds", 2);
        try (SimulatedFleet primary = SimulatedFleet.start(FleetOptions.builder().model(MODEL).pods(2).build());
                SimulatedFleet candidate = SimulatedFleet.start(FleetOptions.builder().model(CANDIDATE).pods(1)
                        .speeds(0.05).build())) {
            String pools = """
                    kind: InferenceGatewayConfig
                    spec:
                      schedulers:
                        - name: llama
                          modelName: %s
                          endpoints: [%s]
                    %s
                        - name: llama-v2
                          modelName: %s
                          endpoints: [%s]
                    """;
            String without = pools.formatted(MODEL, GatewayHarness.quotedList(primary.endpoints()), "", CANDIDATE,
                    GatewayHarness.quotedList(candidate.endpoints()));
            String with = pools.formatted(MODEL, GatewayHarness.quotedList(primary.endpoints()),
                    "      shadow: {model: " + CANDIDATE + ", percent: 50, maxInFlight: 8}", CANDIDATE,
                    GatewayHarness.quotedList(candidate.endpoints()));
            try (GatewayHarness plain = GatewayHarness.start(without);
                    GatewayHarness shadowed = GatewayHarness.start(with)) {
                run(plain, rate, 5); // warm-up, both
                run(shadowed, rate, 5);
                System.out.printf(Locale.ROOT, "%nopen loop %d req/s, %d s a run, 8 output tokens; candidate 20x slower, "
                        + "50 %% copied, maxInFlight 8%n", rate, seconds);
                System.out.println("| round | gateway | requests | p50 ms | p90 ms | p99 ms |");
                System.out.println("|---|---|---:|---:|---:|---:|");
                for (int r = 1; r <= rounds; r++) {
                    report(r, "no shadow", run(plain, rate, seconds));
                    report(r, "shadow 50 %", run(shadowed, rate, seconds));
                }
                System.out.println(metricLines(shadowed));
            }
        }
    }

    static void report(int round, String name, List<Double> ms) {
        Collections.sort(ms);
        System.out.printf(Locale.ROOT, "| %d | %s | %d | %.1f | %.1f | %.1f |%n", round, name, ms.size(), pct(ms, 50),
                pct(ms, 90), pct(ms, 99));
    }

    static double pct(List<Double> sorted, double p) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100 * sorted.size()) - 1));
    }

    /** Requests at {@code rate} a second, open loop, each timed from its send to its last byte. */
    static List<Double> run(GatewayHarness gateway, int rate, int seconds) {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        ConcurrentLinkedQueue<Double> latencies = new ConcurrentLinkedQueue<>();
        List<CompletableFuture<?>> all = new ArrayList<>();
        long interval = 1_000_000_000L / rate;
        long start = System.nanoTime();
        for (int i = 0; i < rate * seconds; i++) {
            long due = start + i * interval;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            String body = "{\"model\":\"" + MODEL + "\",\"max_tokens\":8,\"messages\":[{\"role\":\"user\","
                    + "\"content\":\"question " + i + " about the weather\"}]}";
            HttpRequest req = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/v1/chat/completions"))
                    .header("content-type", "application/json").timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build();
            long sent = System.nanoTime();
            all.add(http.sendAsync(req, HttpResponse.BodyHandlers.ofString()).thenAccept(r -> {
                if (r.statusCode() == 200) {
                    latencies.add((System.nanoTime() - sent) / 1e6);
                }
            }));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
        return new ArrayList<>(latencies);
    }

    static String metricLines(GatewayHarness gateway) throws Exception {
        String text = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(gateway.baseUrl()
                + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
        StringBuilder sb = new StringBuilder();
        for (String line : text.split("\n")) {
            if (line.startsWith("inference_gateway_shadow_requests_total")
                    || line.startsWith("inference_gateway_shadow_duration_seconds_count")
                    || line.startsWith("inference_gateway_shadow_duration_seconds_sum")) {
                sb.append(line).append('\n');
            }
        }
        return sb.toString();
    }
}
