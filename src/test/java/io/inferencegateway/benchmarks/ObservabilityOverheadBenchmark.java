package io.inferencegateway.benchmarks;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What request metrics (and the access log) cost on the request path: the same gateway from the jar, once with
 * {@code spec.observability.requestMetrics: false} and once with the defaults, in front of the same stub, measured in
 * alternating rounds at a fixed open-loop rate. Reports the added p50 against the direct path and the gateway
 * process's CPU time per request (scrapes of the stub's /metrics included, the same for every variant).
 *
 * <pre>
 * mvn -B -q package -DskipTests && mvn -B -q test-compile
 * java -cp target/inference-gateway.jar:target/test-classes io.inferencegateway.benchmarks.ObservabilityOverheadBenchmark
 * </pre>
 */
public final class ObservabilityOverheadBenchmark {

    public static void main(String[] args) throws Exception {
        int seconds = Integer.parseInt(System.getProperty("seconds", "10"));
        int rate = Integer.parseInt(System.getProperty("rate", "1000"));
        int rounds = Integer.parseInt(System.getProperty("rounds", "3"));
        Map<String, String> variants = new LinkedHashMap<>();
        variants.put("metrics off", "  observability: {requestMetrics: false}\n");
        variants.put("metrics on", "");
        variants.put("metrics + access log", "  observability: {accessLog: true}\n");
        try (OverheadStubServer stub = new OverheadStubServer(0, 1, 20, 20)) {
            InetSocketAddress direct = new InetSocketAddress("127.0.0.1", stub.port());
            Map<String, ProxyOverheadBenchmark.GatewayProcess> gateways = new LinkedHashMap<>();
            try {
                int n = 0;
                for (Map.Entry<String, String> v : variants.entrySet()) {
                    gateways.put(v.getKey(), ProxyOverheadBenchmark.GatewayProcess.start(stub.port(), v.getValue(),
                            "observability-gateway-" + n++));
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
                        ProxyOverheadBenchmark.Result g = ProxyOverheadBenchmark.run(address(e.getValue()), rate, seconds,
                                false, 256);
                        double cpuMicros = (e.getValue().cpuNanos() - cpuBefore) / 1e3 / g.millis().length;
                        System.out.printf(Locale.ROOT, "%5d | %-20s | %6.3f | %6.3f / %6.3f | %6.3f | %6.1f%n", round,
                                e.getKey(), d.p(50), g.p(50), g.p(99), g.p(50) - d.p(50), cpuMicros);
                    }
                }
            } finally {
                gateways.values().forEach(ProxyOverheadBenchmark.GatewayProcess::close);
            }
        }
    }

    private static InetSocketAddress address(ProxyOverheadBenchmark.GatewayProcess g) {
        return new InetSocketAddress("127.0.0.1", g.port);
    }
}
