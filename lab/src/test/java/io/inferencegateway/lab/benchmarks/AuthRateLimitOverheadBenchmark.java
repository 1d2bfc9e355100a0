package io.inferencegateway.lab.benchmarks;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.inferencegateway.auth.ApiKeys;
import io.inferencegateway.ratelimit.RedisLimitStore;
import io.inferencegateway.ratelimit.Scope;
import io.inferencegateway.runtime.RedisClientResources;
import io.inferencegateway.simulator.RedisServer;

/**
 * What auth and a Redis-backed rate limit add to a request (docs/auth.md): the same gateway from the jar without auth,
 * with an API key check for a tenant without limits, and with the key check plus a tenant whose requests and tokens
 * are counted on a real local Redis (one Lua round trip per request, one commit after it). One gateway process per
 * variant in front of the same stub, alternating rounds at a fixed open-loop rate, as ObservabilityOverheadBenchmark.
 *
 * <pre>
 * mvn -B -q package -DskipTests
 * java -cp lab/target/test-classes:lab/target/classes:$(cat lab/target/test-classpath.txt) \
 *      io.inferencegateway.lab.benchmarks.AuthRateLimitOverheadBenchmark
 * </pre>
 * {@code -Drate}, {@code -Dseconds}, {@code -Drounds} size the runs; {@code -Dvariants=none,api-key,redis-limit}.
 * Run it from the top of the repository: the gateways are {@code target/inference-gateway.jar serve} (the same
 * package builds it; {@code -DgatewayJar=path} for another), each a process of its own.
 */
public final class AuthRateLimitOverheadBenchmark {

    public static void main(String[] args) throws Exception {
        int seconds = Integer.parseInt(System.getProperty("seconds", "10"));
        int rate = Integer.parseInt(System.getProperty("rate", "1000"));
        int rounds = Integer.parseInt(System.getProperty("rounds", "2"));
        List<String> chosen = List.of(System.getProperty("variants", "none,api-key,redis-limit").split(","));
        String key = "sk-bench-0123456789abcdef0123456789abcdef";
        Path keys = Files.createTempFile("bench-keys", ".txt");
        Files.writeString(keys, ApiKeys.line(key, "free") + ApiKeys.line(key + "-limited", "limited"));
        ProxyOverheadBenchmark.authorization = "Bearer " + key;
        try (RedisServer redis = RedisServer.start();
                OverheadStubServer stub = new OverheadStubServer(0, 1, 20, 20)) {
            steps(keys, key, redis);
            String tenants = """
                      auth:
                        apiKeys: {file: "%s"}
                      tenants:
                        - name: free
                        - name: limited
                          limits: {requestsPerMinute: 100000000, tokensPerMinute: 100000000000}
                      rateLimits:
                        redis: {url: "%s"}
                    """.formatted(keys, redis.url());
            Map<String, String> all = new LinkedHashMap<>();
            all.put("none", "");
            all.put("api-key", tenants);
            all.put("redis-limit", tenants);
            InetSocketAddress direct = new InetSocketAddress("127.0.0.1", stub.port());
            Map<String, ProxyOverheadBenchmark.GatewayProcess> gateways = new LinkedHashMap<>();
            try {
                for (String v : chosen) {
                    if (!all.containsKey(v)) {
                        throw new IllegalArgumentException("unknown variant " + v + "; known: " + all.keySet());
                    }
                    gateways.put(v, ProxyOverheadBenchmark.GatewayProcess.start(stub.port(), all.get(v),
                            "auth-gateway-" + v));
                }
                System.out.println("warming up (JIT) for 20 s each ...");
                for (Map.Entry<String, ProxyOverheadBenchmark.GatewayProcess> e : gateways.entrySet()) {
                    use(e.getKey(), key);
                    ProxyOverheadBenchmark.run(address(e.getValue()), rate, 20, false, 64);
                }
                System.out.printf(Locale.ROOT, "%n%d req/s open loop, %d s per run, 1 KiB responses%n", rate, seconds);
                System.out.println("round | variant | direct p50 ms | gateway p50 / p99 ms | added p50 ms | errors | gateway CPU µs/request");
                for (int round = 1; round <= rounds; round++) {
                    for (Map.Entry<String, ProxyOverheadBenchmark.GatewayProcess> e : gateways.entrySet()) {
                        use(e.getKey(), key);
                        ProxyOverheadBenchmark.Result d = ProxyOverheadBenchmark.run(direct, rate, seconds, false, 256);
                        long cpuBefore = e.getValue().cpuNanos();
                        ProxyOverheadBenchmark.Result g = ProxyOverheadBenchmark.run(address(e.getValue()), rate,
                                seconds, false, 256);
                        double cpuMicros = (e.getValue().cpuNanos() - cpuBefore) / 1e3 / g.millis().length;
                        System.out.printf(Locale.ROOT, "%5d | %-11s | %6.3f | %6.3f / %6.3f | %6.3f | %d | %6.1f%n",
                                round, e.getKey(), d.p(50), g.p(50), g.p(99), g.p(50) - d.p(50), g.errors(), cpuMicros);
                    }
                }
            } finally {
                gateways.values().forEach(ProxyOverheadBenchmark.GatewayProcess::close);
            }
        }
    }

    /**
     * The two steps by themselves, in this process: the API key check (hash and lookup) and one reservation on Redis
     * (the Lua script's round trip over loopback), each timed call by call, sequentially.
     */
    private static void steps(Path keys, String key, RedisServer redis) throws Exception {
        int n = Integer.parseInt(System.getProperty("stepCalls", "20000"));
        try (ApiKeys apiKeys = ApiKeys.watch(keys);
                RedisClientResources threads = new RedisClientResources();
                RedisLimitStore store = new RedisLimitStore(java.net.URI.create(redis.url()),
                        java.time.Duration.ofSeconds(1), threads.get())) {
            List<Scope> scopes = List.of(new Scope("igw:rl:{bench}", 1_000_000_000L, 1_000_000_000_000L));
            for (int attempt = 0;; attempt++) { // the first connection may time out on a busy machine
                try {
                    store.reserve(scopes, 0, 60_000).join();
                    break;
                } catch (java.util.concurrent.CompletionException e) {
                    if (attempt == 10) {
                        throw e;
                    }
                    Thread.sleep(600);
                }
            }
            double[] check = new double[n];
            double[] reserve = new double[n];
            for (int round = 0; round < 2; round++) { // the first round warms up
                for (int i = 0; i < n; i++) {
                    long t0 = System.nanoTime();
                    if (apiKeys.tenantOf(key) == null) {
                        throw new IllegalStateException("the key is not in the file");
                    }
                    long t1 = System.nanoTime();
                    store.reserve(scopes, 100, 60_000).join();
                    long t2 = System.nanoTime();
                    check[i] = (t1 - t0) / 1e3;
                    reserve[i] = (t2 - t1) / 1e3;
                }
            }
            java.util.Arrays.sort(check);
            java.util.Arrays.sort(reserve);
            System.out.printf(Locale.ROOT, "in-process, %d sequential calls: API key check p50 %.1f µs, p99 %.1f µs;"
                    + " Redis reservation p50 %.1f µs, p99 %.1f µs%n", n, check[n / 2], check[n * 99 / 100],
                    reserve[n / 2], reserve[n * 99 / 100]);
        }
    }

    /** The key of the unlimited tenant, or of the one counted on Redis. */
    private static void use(String variant, String key) {
        ProxyOverheadBenchmark.authorization = "Bearer " + (variant.equals("redis-limit") ? key + "-limited" : key);
    }

    private static InetSocketAddress address(ProxyOverheadBenchmark.GatewayProcess g) {
        return new InetSocketAddress("127.0.0.1", g.port);
    }
}
