package io.inferencegateway.benchmarks;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.net.httpserver.HttpServer;

/**
 * What traces cost on the request path: the same gateway from the jar with tracing off (request metrics on, the
 * default), on with every trace sampled, and on with none sampled, exporting to a loopback OTLP sink that reads and
 * drops what it is sent; alternating rounds at a fixed open-loop rate, as {@link ObservabilityOverheadBenchmark}.
 * Reports the added p50 against the direct path and the gateway process's CPU time per request, the export thread's
 * work included.
 *
 * <pre>
 * mvn -B -q package -DskipTests && mvn -B -q test-compile
 * java -cp target/inference-gateway.jar:target/test-classes io.inferencegateway.benchmarks.TracingOverheadBenchmark
 * </pre>
 */
public final class TracingOverheadBenchmark {

    public static void main(String[] args) throws Exception {
        int seconds = Integer.parseInt(System.getProperty("seconds", "10"));
        int rate = Integer.parseInt(System.getProperty("rate", "1000"));
        int rounds = Integer.parseInt(System.getProperty("rounds", "3"));
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
        Map<String, String> variants = new LinkedHashMap<>();
        variants.put("tracing off", "");
        variants.put("tracing on, all sampled", "  observability: {tracing: {otlpEndpoint: \"" + otlp + "\"}}\n");
        variants.put("tracing on, none sampled",
                "  observability: {tracing: {otlpEndpoint: \"" + otlp + "\", samplingRatio: 0}}\n");
        try (OverheadStubServer stub = new OverheadStubServer(0, 1, 20, 20)) {
            InetSocketAddress direct = new InetSocketAddress("127.0.0.1", stub.port());
            Map<String, ProxyOverheadBenchmark.GatewayProcess> gateways = new LinkedHashMap<>();
            try {
                int n = 0;
                for (Map.Entry<String, String> v : variants.entrySet()) {
                    gateways.put(v.getKey(), ProxyOverheadBenchmark.GatewayProcess.start(stub.port(), v.getValue(),
                            "tracing-gateway-" + n++));
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
                        System.out.printf(Locale.ROOT, "%5d | %-24s | %6.3f | %6.3f / %6.3f | %6.3f | %6.1f%n", round,
                                e.getKey(), d.p(50), g.p(50), g.p(99), g.p(50) - d.p(50), cpuMicros);
                    }
                }
            } finally {
                gateways.values().forEach(ProxyOverheadBenchmark.GatewayProcess::close);
            }
        } finally {
            sink.stop(0);
        }
        System.out.printf(Locale.ROOT, "%nthe sink received %d OTLP exports, %.1f MB%n", exports.get(),
                exportedBytes.get() / 1e6);
    }

    private static InetSocketAddress address(ProxyOverheadBenchmark.GatewayProcess g) {
        return new InetSocketAddress("127.0.0.1", g.port);
    }
}
