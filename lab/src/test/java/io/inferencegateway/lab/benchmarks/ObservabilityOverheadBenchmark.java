package io.inferencegateway.lab.benchmarks;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.net.httpserver.HttpServer;

/**
 * What observability costs on the request path: the same gateway from the jar with request metrics off, with the
 * defaults (metrics on), with the access log, and with traces sampled or not, exporting to a loopback OTLP sink that
 * reads and drops what it is sent. One gateway process per variant in front of the same stub, measured in alternating
 * rounds at a fixed open-loop rate. Reports the added p50 against the direct path and the gateway process's CPU time
 * per request (the scrapes of the stub's /metrics and the span export thread included).
 *
 * <pre>
 * mvn -B -q package -DskipTests
 * java -cp lab/target/test-classes:lab/target/classes:$(cat lab/target/test-classpath.txt) \
 *      io.inferencegateway.lab.benchmarks.ObservabilityOverheadBenchmark
 * </pre>
 * {@code -Dvariants=off,metrics,access-log,traced,unsampled} picks variants; {@code -Drate}, {@code -Dseconds},
 * {@code -Drounds} size the runs. Run it from the top of the repository: the gateways are
 * {@code target/inference-gateway.jar serve} (the same package builds it; {@code -DgatewayJar=path} for another),
 * each a process of its own.
 */
public final class ObservabilityOverheadBenchmark {

    public static void main(String[] args) throws Exception {
        int seconds = Integer.parseInt(System.getProperty("seconds", "10"));
        int rate = Integer.parseInt(System.getProperty("rate", "1000"));
        int rounds = Integer.parseInt(System.getProperty("rounds", "2"));
        List<String> chosen = List.of(System.getProperty("variants", "off,metrics,access-log,traced,unsampled")
                .split(","));
        AtomicLong exports = new AtomicLong();
        AtomicLong exportedBytes = new AtomicLong();
        HttpServer sink = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        sink.createContext("/v1/traces", exchange -> {
            try (exchange) {
                exportedBytes.addAndGet(exchange.getRequestBody().readAllBytes().length);
                exports.incrementAndGet();
                exchange.sendResponseHeaders(200, -1);
            }
        });
        sink.start();
        String otlp = "http://127.0.0.1:" + sink.getAddress().getPort();
        Map<String, String> all = new LinkedHashMap<>();
        all.put("off", "  observability: {requestMetrics: false}\n");
        all.put("metrics", "");
        all.put("access-log", "  observability: {accessLog: true}\n");
        all.put("traced", "  observability: {tracing: {otlpEndpoint: \"" + otlp + "\"}}\n");
        all.put("unsampled", "  observability: {tracing: {otlpEndpoint: \"" + otlp + "\", samplingRatio: 0}}\n");
        try (OverheadStubServer stub = new OverheadStubServer(0, 1, 20, 20)) {
            InetSocketAddress direct = new InetSocketAddress("127.0.0.1", stub.port());
            Map<String, ProxyOverheadBenchmark.GatewayProcess> gateways = new LinkedHashMap<>();
            try {
                for (String v : chosen) {
                    String spec = all.get(v);
                    if (spec == null) {
                        throw new IllegalArgumentException("unknown variant " + v + "; known: " + all.keySet());
                    }
                    gateways.put(v, ProxyOverheadBenchmark.GatewayProcess.start(stub.port(), spec,
                            "observability-gateway-" + v));
                }
                System.out.println("warming up (JIT) for 20 s each ...");
                for (ProxyOverheadBenchmark.GatewayProcess g : gateways.values()) {
                    ProxyOverheadBenchmark.run(address(g), rate, 20, false, 64);
                }
                System.out.printf(Locale.ROOT, "%n%d req/s open loop, %d s per run, 1 KiB responses%n", rate, seconds);
                System.out.println("round | variant | direct p50 ms | gateway p50 / p99 ms | added p50 ms | gateway CPU µs/request");
                for (int round = 1; round <= rounds; round++) {
                    for (Map.Entry<String, ProxyOverheadBenchmark.GatewayProcess> e : gateways.entrySet()) {
                        ProxyOverheadBenchmark.Result d = ProxyOverheadBenchmark.run(direct, rate, seconds, false, 256);
                        long cpuBefore = e.getValue().cpuNanos();
                        ProxyOverheadBenchmark.Result g = ProxyOverheadBenchmark.run(address(e.getValue()), rate,
                                seconds, false, 256);
                        double cpuMicros = (e.getValue().cpuNanos() - cpuBefore) / 1e3 / g.millis().length;
                        System.out.printf(Locale.ROOT, "%5d | %-10s | %6.3f | %6.3f / %6.3f | %6.3f | %6.1f%n", round,
                                e.getKey(), d.p(50), g.p(50), g.p(99), g.p(50) - d.p(50), cpuMicros);
                    }
                }
            } finally {
                gateways.values().forEach(ProxyOverheadBenchmark.GatewayProcess::close);
            }
        } finally {
            sink.stop(0);
        }
        System.out.printf(Locale.ROOT, "%nthe OTLP sink received %d exports, %.1f MB%n", exports.get(),
                exportedBytes.get() / 1e6);
    }

    private static InetSocketAddress address(ProxyOverheadBenchmark.GatewayProcess g) {
        return new InetSocketAddress("127.0.0.1", g.port);
    }
}
