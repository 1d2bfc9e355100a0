package io.inferencegateway.lab.benchmarks;

import java.io.File;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;

/**
 * What the gateway adds to a request, measured against a direct connection to the same stub model
 * server: open-loop load at fixed rates (latency counted from each request's intended send time),
 * streaming time to first byte, the highest rate the gateway sustains, and its heap while holding
 * many streams. The gateway runs as its own process from the jar, as users run it: {@code target/inference-gateway.jar
 * serve} (the same package builds it; {@code -DgatewayJar=path} for another), so run it from the top of the repository.
 *
 * <p>When {@code nginx} and {@code wrk} are on the PATH, it first measures nginx side by side in the same
 * run (see {@link NginxProcess}): closed-loop throughput and latency for 1 KiB and 200 KB request bodies,
 * and CPU per streamed request against simulated vLLM pods, the gateway's scraping included.
 * {@code -Dsections=closed,streamcpu,open,heap} picks what runs (default: all;
 * {@code -Dstreams=10000} for the heap per open stream at issue 15's count); {@code -Drounds=N} repeats the
 * side-by-side sections; {@code -DbaselineJar=other.jar} adds another build of the gateway to
 * the closed loop and the streaming CPU rounds ({@code -DbaselineJvmArgs=...} its own JVM flags, e.g. the same jar
 * with one setting changed). Streaming CPU: {@code -DstreamTokens} (64) per stream, {@code -DstreamSeconds},
 * {@code -DstreamRate}, {@code -DstreamWarmup} (15,000 streams before the first round); each gateway's CPU is also
 * split by thread (event loops, scraper, JIT, GC) and given for the steady middle of the run.
 *
 * <pre>
 * mvn -B -q package -DskipTests
 * java -cp lab/target/test-classes:lab/target/classes:$(cat lab/target/test-classpath.txt) \
 *      io.inferencegateway.lab.benchmarks.ProxyOverheadBenchmark
 * </pre>
 */
public final class ProxyOverheadBenchmark {

    private static final byte[] BODY = "{\"model\":\"m\",\"prompt\":\"hello\",\"max_tokens\":16}".getBytes(StandardCharsets.UTF_8);
    private static final byte[] STREAM_BODY = "{\"model\":\"m\",\"prompt\":\"hello\",\"stream\":true}".getBytes(StandardCharsets.UTF_8);

    /** An {@code Authorization} header every request carries, or null (AuthRateLimitOverheadBenchmark sets one). */
    static volatile String authorization;

    public static void main(String[] args) throws Exception {
        int seconds = Integer.parseInt(System.getProperty("seconds", "15"));
        List<String> sections = List.of(System.getProperty("sections", "closed,streamcpu,open,heap").split(","));
        int rounds = Integer.parseInt(System.getProperty("rounds", "2"));
        boolean sideBySide = NginxProcess.binary() != null;
        if (!sideBySide) {
            System.out.println("nginx is not on the PATH: no side-by-side runs (apt-get install nginx-light)");
        }
        if (sideBySide && sections.contains("closed")) {
            if (Wrk.available()) {
                closedLoop(rounds, Integer.parseInt(System.getProperty("closedSeconds", "10")));
            } else {
                System.out.println("wrk is not on the PATH: no closed-loop runs (apt-get install wrk)");
            }
        }
        if (sections.contains("tls")) { // not among the defaults: -Dsections=tls
            tlsCost(rounds, Integer.parseInt(System.getProperty("closedSeconds", "10")));
        }
        if (sections.contains("tier")) { // not among the defaults: -Dsections=tier
            tierHop(rounds, Integer.parseInt(System.getProperty("closedSeconds", "10")));
        }
        if (sideBySide && sections.contains("streamcpu")) {
            streamingCpu(rounds, Integer.parseInt(System.getProperty("streamSeconds", "60")),
                    Integer.parseInt(System.getProperty("streamRate", "100")));
        }
        if (!sections.contains("open")) {
            if (sections.contains("heap")) {
                heapPerStream(Integer.parseInt(System.getProperty("streams", "1000")));
            }
            return;
        }
        try (OverheadStubServer stub = new OverheadStubServer(0, 1, 20, 20);
                GatewayProcess gateway = GatewayProcess.start(stub.port())) {
            InetSocketAddress direct = new InetSocketAddress("127.0.0.1", stub.port());
            InetSocketAddress viaGateway = new InetSocketAddress("127.0.0.1", gateway.port);
            System.out.println("warming up (JIT) for 20 s ...");
            run(viaGateway, 1000, 20, false, 64);
            run(direct, 1000, 5, false, 64);

            System.out.println("\nnon-streaming, 1 KiB responses, open loop (" + seconds + " s per rate)");
            System.out.println("rate/s | direct p50 / p99 ms | gateway p50 / p99 ms | added p50 / p99 ms | gateway achieved/s");
            for (int rate : new int[] {500, 1000, 2000}) {
                Result d = run(direct, rate, seconds, false, 256);
                Result g = run(viaGateway, rate, seconds, false, 256);
                System.out.printf(Locale.ROOT, "%6d | %7.3f / %7.3f | %8.3f / %7.3f | %7.3f / %7.3f | %.0f%n", rate,
                        d.p(50), d.p(99), g.p(50), g.p(99), g.p(50) - d.p(50), g.p(99) - d.p(99), g.achieved);
            }

            System.out.println("\nstreaming, time to first byte, 200 streams/s");
            Result ds = run(direct, 200, seconds, true, 1024);
            Result gs = run(viaGateway, 200, seconds, true, 1024);
            System.out.printf(Locale.ROOT, "TTFB p50 / p99 ms: direct %.3f / %.3f, gateway %.3f / %.3f, added %.3f / %.3f%n",
                    ds.p(50), ds.p(99), gs.p(50), gs.p(99), gs.p(50) - ds.p(50), gs.p(99) - ds.p(99));

            System.out.println("\nhighest sustained rate through the gateway (achieved >= 99% of offered, p99 < 20 ms)");
            int best = 0;
            for (int rate = 2000; rate <= 20000; rate += 1000) {
                Result g = run(viaGateway, rate, Math.min(seconds, 10), false, 512);
                boolean ok = g.achieved >= 0.99 * rate && g.p(99) < 20;
                System.out.printf(Locale.ROOT, "  %6d/s: achieved %.0f/s, p50 %.3f ms, p99 %.3f ms %s%n", rate, g.achieved,
                        g.p(50), g.p(99), ok ? "" : "<- not sustained");
                if (!ok) {
                    break;
                }
                best = rate;
            }
            System.out.println("  sustained: " + best + " req/s");

            gateway.close();
        }
        if (sections.contains("heap")) {
            heapPerStream(Integer.parseInt(System.getProperty("streams", "1000")));
        }
    }

    /**
     * Heap in use after a full GC in a fresh gateway: idle, twice while {@code streams} SSE streams are open (flat
     * means the second reading is not above the first), and after they ended; per stream is the rise over the client
     * connections the gateway reports open. N streams need about 2N file descriptors in this JVM and in the gateway's
     * (raise {@code ulimit -n} where it is below that); the gateway is started with {@code gateway.http.maxConnections}
     * above the count.
     */
    static void heapPerStream(int streams) throws Exception {
        int rate = Math.min(streams, 1000);
        int openSeconds = Math.max(1, streams / rate);
        int events = openSeconds + 40; // a second apart, so the stub keeps up; each stream outlives the measurements
        System.out.printf(Locale.ROOT, "%nheap with %,d concurrent streams (opened at %d/s, each %d s long)%n", streams,
                rate, events);
        String jvm = System.getProperty("gatewayJvmArgs", "");
        System.setProperty("gatewayJvmArgs", jvm + " -Dgateway.http.maxConnections=" + (streams + 1000));
        try (OverheadStubServer slow = new OverheadStubServer(0, 1, events, 1000);
                GatewayProcess g2 = GatewayProcess.start(slow.port())) {
            System.setProperty("gatewayJvmArgs", jvm);
            InetSocketAddress via2 = new InetSocketAddress("127.0.0.1", g2.port);
            run(via2, 1000, 10, false, 64); // warm the fresh JVM up first
            long idle = g2.heapUsedAfterGc();
            Result[] result = new Result[1];
            Thread opener = new Thread(() -> {
                try {
                    result[0] = run(via2, rate, openSeconds, true, streams);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            opener.start();
            Thread.sleep(openSeconds * 1000L + 8000);
            long open1 = g2.heapUsedAfterGc();
            int connections1 = g2.openConnections();
            Thread.sleep(5000);
            long open2 = g2.heapUsedAfterGc();
            int connections2 = g2.openConnections();
            opener.join();
            long after = g2.heapUsedAfterGc();
            System.out.printf(Locale.ROOT, "  heap used after GC: idle %.1f MB, with %,d open client connections %.1f MB and"
                    + " 5 s later (%,d open) %.1f MB, after they ended %.1f MB%n", idle / 1e6, connections1, open1 / 1e6,
                    connections2, open2 / 1e6, after / 1e6);
            System.out.printf(Locale.ROOT, "  per open stream: %.1f KB; TTFB p50 %.3f ms, p99 %.3f ms, streams that failed %d%n",
                    (open1 - idle) / 1e3 / Math.max(1, connections1), result[0].p(50), result[0].p(99), result[0].errors);
        }
    }

    /** A JSON completion request of {@code size} bytes, its prompt filling the rest. */
    static byte[] requestOfSize(int size, String model, boolean stream, int maxTokens) {
        String head = "{\"model\":\"" + model + "\",\"max_tokens\":" + maxTokens
                + (stream ? ",\"stream\":true" : "") + ",\"prompt\":\"";
        String tail = "\"}";
        StringBuilder prompt = new StringBuilder();
        for (int i = 0; prompt.length() < size - head.length() - tail.length(); i++) {
            prompt.append("word").append(i % 1000).append(' ');
        }
        prompt.setLength(Math.max(0, size - head.length() - tail.length()));
        return (head + prompt + tail).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * wrk with one thread against the stub directly, through nginx and through the gateway, alternating
     * within each round so that all three see the same machine: 16 connections with 1 KiB and 200 KB
     * bodies, then one connection with 200 KB bodies for the added latency of a long prompt alone.
     */
    static void closedLoop(int rounds, int seconds) throws Exception {
        int cores = Runtime.getRuntime().availableProcessors();
        try (OverheadStubServer stub = new OverheadStubServer(0, 1, 20, 20);
                NginxProcess nginx = NginxProcess.start(List.of("127.0.0.1:" + stub.port()), cores);
                GatewayProcess gateway = GatewayProcess.start(stub.port());
                GatewayProcess baseline = baselineJar() == null ? null
                        : GatewayProcess.start(List.of("127.0.0.1:" + stub.port()), "m", "", "overhead-baseline",
                                baselineJar())) {
            Path small = Wrk.script(requestOfSize(1024, "m", false, 16));
            Path large = Wrk.script(requestOfSize(200 * 1024, "m", false, 16));
            // -DclosedCases=1 measures only the 1 KiB row (the first N of the three); -DclosedCase=3 only the third
            Object[][] all = {{"1 KiB", small, 16}, {"200 KB", large, 16}, {"200 KB", large, 1}};
            String one = System.getProperty("closedCase");
            Object[][] cases = one != null ? new Object[][] {all[Integer.parseInt(one) - 1]}
                    : Arrays.copyOf(all, Integer.parseInt(System.getProperty("closedCases", "3")));
            boolean withLarge = Arrays.stream(cases).anyMatch(c -> c[1] == large);
            System.out.println("closed loop (wrk -t1), warming up (JIT) ...");
            Wrk.run(gateway.port, small, 16, 15);
            if (withLarge) {
                Wrk.run(gateway.port, large, 16, 10);
            }
            Wrk.run(nginx.port, small, 16, 3);
            if (baseline != null) {
                Wrk.run(baseline.port, small, 16, 15);
                if (withLarge) {
                    Wrk.run(baseline.port, large, 16, 10);
                }
            }
            for (int round = 1; round <= rounds; round++) {
                System.out.printf(Locale.ROOT, "%nclosed loop round %d of %d (%d s each, load average %s)%n", round,
                        rounds, seconds, loadAverage());
                for (Object[] c : cases) {
                    Path script = (Path) c[1];
                    int conns = (Integer) c[2];
                    Wrk.Result d = Wrk.run(stub.port(), script, conns, seconds);
                    long n0 = nginx.cpuNanos();
                    Wrk.Result n = Wrk.run(nginx.port, script, conns, seconds);
                    double nCpu = (nginx.cpuNanos() - n0) / 1e3 / n.requests();
                    // the two builds swap places every round, so that neither is always the one measured after nginx
                    boolean baselineFirst = baseline != null && round % 2 == 0;
                    Measured b = baselineFirst ? Measured.of(baseline, script, conns, seconds) : null;
                    Measured gm = Measured.of(gateway, script, conns, seconds);
                    if (baseline != null && !baselineFirst) {
                        b = Measured.of(baseline, script, conns, seconds);
                    }
                    Wrk.Result g = gm.result();
                    double gCpu = gm.cpuMicros();
                    System.out.printf(Locale.ROOT,
                            "  %s, c=%d%n    direct  %s%n    nginx   %s, %.1f µs CPU/request%n    gateway %s, %.1f µs CPU/request%n",
                            c[0], conns, Wrk.format(d), Wrk.format(n), nCpu, Wrk.format(g), gCpu);
                    System.out.printf(Locale.ROOT,
                            "    gateway / nginx: throughput %.2fx, CPU per request %.2fx; added p50 %.3f vs %.3f ms (%.2fx), added p99 %.3f vs %.3f ms%n",
                            g.rate() / n.rate(), gCpu / nCpu, g.p50() - d.p50(), n.p50() - d.p50(),
                            (g.p50() - d.p50()) / (n.p50() - d.p50()), g.p99() - d.p99(), n.p99() - d.p99());
                    if (b != null) {
                        System.out.printf(Locale.ROOT, "    baseline %s, %.1f µs CPU/request (this build: %.2fx its throughput, %.2fx its CPU)%n",
                                Wrk.format(b.result()), b.cpuMicros(), g.rate() / b.result().rate(), gCpu / b.cpuMicros());
                    }
                }
            }
        }
    }

    /**
     * What TLS costs, closed loop ({@code -Dsections=tls}): wrk with one thread, 16 kept-alive connections and 1 KiB
     * requests, against three gateway processes of this build on one stub: plain on both sides; calling the stub over
     * TLS ({@code camel.component.upstream.tlsCaFile}); and serving wrk over HTTPS ({@code gateway.tls.*}). They take
     * turns, in a rotating order; throughput, latency and the gateway's CPU per request, each against the plain one of
     * the same round. Connections are kept alive on both sides, so this is the steady cost of TLS records, not of
     * handshakes. Needs the gateway's test jar (TestPki) on the class path, as the lab's tests have it.
     */
    static void tlsCost(int rounds, int seconds) throws Exception {
        if (!Wrk.available()) {
            System.out.println("wrk is not on the PATH: no TLS runs (apt-get install wrk)");
            return;
        }
        io.inferencegateway.testing.TestPki pki = io.inferencegateway.testing.TestPki.create(
                Files.createTempDirectory("overhead-pki"));
        String jar = System.getProperty("gatewayJar", "target/inference-gateway.jar");
        try (OverheadStubServer stub = new OverheadStubServer(0, 1, 20, 20, pki.serverContext(pki.server(), false));
                GatewayProcess plain = GatewayProcess.start(List.of("127.0.0.1:" + stub.port()), "m", "",
                        "overhead-tls-plain", jar, List.of(), null);
                GatewayProcess upstream = GatewayProcess.start(List.of("127.0.0.1:" + stub.port()), "m", "",
                        "overhead-tls-upstream", jar,
                        List.of("-Dcamel.component.upstream.tlsCaFile=" + pki.caFile()), null);
                GatewayProcess listener = GatewayProcess.start(List.of("127.0.0.1:" + stub.port()), "m", "",
                        "overhead-tls-listener", jar, List.of("-Dgateway.tls.certFile=" + pki.server().cert(),
                                "-Dgateway.tls.keyFile=" + pki.server().key()), pki.jdkClientContext(false))) {
            Path small = Wrk.script(requestOfSize(1024, "m", false, 16));
            Object[][] gateways = {{"plain", plain, "http"}, {"upstream TLS", upstream, "http"},
                    {"client TLS", listener, "https"}};
            System.out.println("TLS cost, closed loop (wrk -t1 -c16, 1 KiB), warming up (JIT) ...");
            for (Object[] g : gateways) {
                Wrk.run((String) g[2], ((GatewayProcess) g[1]).port, small, 16, 15);
            }
            int tlsBefore = stub.tlsConnections();
            for (int round = 1; round <= rounds; round++) {
                System.out.printf(Locale.ROOT, "%nTLS round %d of %d (%d s each, load average %s)%n", round, rounds,
                        seconds, loadAverage());
                java.util.Map<String, double[]> results = new java.util.LinkedHashMap<>();
                for (int k = 0; k < gateways.length; k++) {
                    Object[] g = gateways[(k + round - 1) % gateways.length]; // each goes first in turn
                    GatewayProcess p = (GatewayProcess) g[1];
                    long c0 = p.cpuNanos();
                    Wrk.Result r = Wrk.run((String) g[2], p.port, small, 16, seconds);
                    double cpu = (p.cpuNanos() - c0) / 1e3 / r.requests();
                    results.put((String) g[0], new double[] {r.rate(), r.p50(), r.p99(), cpu});
                }
                double[] base = results.get("plain");
                results.forEach((name, v) -> System.out.printf(Locale.ROOT,
                        "  %-13s %,9.0f req/s, p50 %6.3f ms, p99 %6.3f ms, %5.1f µs CPU/request (throughput %.2fx,"
                                + " CPU %.2fx plain's)%n", name, v[0], v[1], v[2], v[3], v[0] / base[0], v[3] / base[3]));
            }
            // kept alive within a run; the gateway's 4 s idle timeout closes them while the other two gateways run
            System.out.printf(Locale.ROOT, "  TLS connections the stub accepted during the rounds: %d (%d runs)%n",
                    stub.tlsConnections() - tlsBefore, rounds);
            if (stub.tlsConnections() == 0) {
                throw new IllegalStateException("the upstream-TLS gateway called the stub in plain HTTP");
            }
        }
    }

    /**
     * What a hop through a global tier adds ({@code -Dsections=tier}, docs/global.md): wrk against a cluster gateway in
     * front of the stub, against a global tier whose one cluster is that gateway, and against a tier that reaches a
     * second cluster gateway (HTTPS on its listener) over TLS. At one connection the added p50 is the hop's latency; at
     * 16 the throughput against the direct connection is its cost. Needs the gateway's test jar (TestPki).
     */
    static void tierHop(int rounds, int seconds) throws Exception {
        if (!Wrk.available()) {
            System.out.println("wrk is not on the PATH: no tier runs (apt-get install wrk)");
            return;
        }
        io.inferencegateway.testing.TestPki pki = io.inferencegateway.testing.TestPki.create(
                Files.createTempDirectory("overhead-tier-pki"));
        String jar = System.getProperty("gatewayJar", "target/inference-gateway.jar");
        try (OverheadStubServer stub = new OverheadStubServer(0, 1, 20, 20);
                GatewayProcess cluster = GatewayProcess.start(List.of("127.0.0.1:" + stub.port()), "m", "",
                        "overhead-tier-cluster", jar);
                GatewayProcess httpsCluster = GatewayProcess.start(List.of("127.0.0.1:" + stub.port()), "m", "",
                        "overhead-tier-https-cluster", jar, List.of("-Dgateway.tls.certFile=" + pki.server().cert(),
                                "-Dgateway.tls.keyFile=" + pki.server().key()), pki.jdkClientContext(false));
                GatewayProcess tier = GatewayProcess.startTier("http://127.0.0.1:" + cluster.port, null,
                        "overhead-tier", jar);
                GatewayProcess tlsTier = GatewayProcess.startTier("https://localhost:" + httpsCluster.port,
                        pki.caFile(), "overhead-tier-tls", jar)) {
            Path small = Wrk.script(requestOfSize(1024, "m", false, 16));
            GatewayProcess[] gateways = {cluster, tier, tlsTier};
            String[] names = {"cluster", "tier → cluster", "tier → TLS cluster"};
            System.out.println("A hop through a global tier, closed loop (wrk -t1, 1 KiB), warming up (JIT) ...");
            for (GatewayProcess g : gateways) {
                Wrk.run(g.port, small, 16, 15);
            }
            for (int round = 1; round <= rounds; round++) {
                System.out.printf(Locale.ROOT, "%nTier round %d of %d (%d s each, load average %s)%n", round, rounds,
                        seconds, loadAverage());
                double[][] results = new double[gateways.length][];
                for (int k = 0; k < gateways.length; k++) {
                    int i = (k + round - 1) % gateways.length; // each goes first in turn
                    Wrk.Result one = Wrk.run(gateways[i].port, small, 1, seconds);
                    Wrk.Result many = Wrk.run(gateways[i].port, small, 16, seconds);
                    results[i] = new double[] {one.p50(), many.rate(), many.p50(), many.p99()};
                }
                for (int i = 0; i < gateways.length; i++) {
                    double[] v = results[i];
                    System.out.printf(Locale.ROOT, "  %-19s 1 connection p50 %6.3f ms (+%.3f ms) · 16 connections "
                                    + "%,8.0f req/s (%.2fx the cluster's), p50 %6.3f ms, p99 %6.3f ms%n", names[i], v[0],
                            v[0] - results[0][0], v[1], v[1] / results[0][1], v[2], v[3]);
                }
            }
        }
    }

    /** One closed-loop run through a gateway, and the CPU its process used per request. */
    private record Measured(Wrk.Result result, double cpuMicros) {
        static Measured of(GatewayProcess g, Path script, int connections, int seconds) throws Exception {
            long c0 = g.cpuNanos();
            Wrk.Result r = Wrk.run(g.port, script, connections, seconds);
            return new Measured(r, (g.cpuNanos() - c0) / 1e3 / r.requests());
        }
    }

    /**
     * The same open-loop SSE traffic against 8 simulated vLLM pods through the gateway (its default scrape
     * interval on), through the baseline build when there is one, and through nginx: CPU each proxy's processes
     * used per streamed request. Each gateway's idle CPU over the same time (no traffic: scraping, timers) is
     * measured next to it and reported as the part of its cost nginx has no counterpart for.
     */
    static void streamingCpu(int rounds, int seconds, int rate) throws Exception {
        int cores = Runtime.getRuntime().availableProcessors();
        String model = io.inferencegateway.simulator.EngineConfig.DEFAULT_MODEL;
        int tokens = Integer.getInteger("streamTokens", 64); // two lengths split the cost into per chunk and per stream
        byte[] body = requestOfSize(1024, model, true, tokens);
        int idleSeconds = Math.max(5, seconds / 3);
        try (io.inferencegateway.simulator.SimulatedFleet fleet = io.inferencegateway.simulator.SimulatedFleet
                .start(io.inferencegateway.simulator.FleetOptions.builder().pods(8).model(model).build());
                NginxProcess nginx = NginxProcess.start(fleet.endpoints(), cores);
                GatewayProcess gateway = GatewayProcess.start(fleet.endpoints(), model, "", "overhead-stream-gateway");
                GatewayProcess baseline = baselineJar() == null ? null
                        : GatewayProcess.start(fleet.endpoints(), model, "", "overhead-stream-baseline", baselineJar())) {
            InetSocketAddress viaNginx = new InetSocketAddress("127.0.0.1", nginx.port);
            // HotSpot compiles a method with C2 after about 5,000 calls: code that runs once a stream needs that many
            // streams first, or its compilation (up to a third of the CPU at 20 s of warm-up) and its slower profiled
            // code before it are counted against each stream of the first rounds
            int warmStreams = Integer.getInteger("streamWarmup", 15_000);
            int warmRate = 3 * rate;
            System.out.printf(Locale.ROOT, "%nstreaming CPU: warming up (JIT), %,d streams at %d/s ...%n", warmStreams,
                    warmRate);
            run(new InetSocketAddress("127.0.0.1", gateway.port), warmRate, warmStreams / warmRate, true, 4096, body);
            if (baseline != null) {
                run(new InetSocketAddress("127.0.0.1", baseline.port), warmRate, warmStreams / warmRate, true, 4096,
                        body);
            }
            run(viaNginx, rate, 5, true, 4096, body);
            for (int round = 1; round <= rounds; round++) {
                System.out.printf(Locale.ROOT,
                        "%nstreaming CPU round %d of %d: %d streams/s of %d tokens for %d s over 8 simulated pods (load average %s)%n",
                        round, rounds, rate, tokens, seconds, loadAverage());
                // the two builds swap places every round: on this 2-core box the one measured first (after nginx's
                // run or the warm-up) paid about 13 % more CPU per stream, whichever build it was
                boolean baselineFirst = baseline != null && round % 2 == 0;
                double bPer = baselineFirst ? streamCpu("baseline:", baseline, rate, seconds, idleSeconds, body) : 0;
                double gPer = streamCpu("gateway: ", gateway, rate, seconds, idleSeconds, body);
                if (baseline != null && !baselineFirst) {
                    bPer = streamCpu("baseline:", baseline, rate, seconds, idleSeconds, body);
                }
                long n0 = nginx.cpuNanos();
                long k0 = nginx.kernelNanos();
                Window nSteady = new Window(rate * seconds / 3, nginx::cpuNanos);
                Result n = run(viaNginx, rate, seconds, true, 4096, body, nSteady);
                long nCpu = nginx.cpuNanos() - n0;
                double nKernel = (nginx.kernelNanos() - k0) / 1e3 / n.millis().length;
                double nPer = nCpu / 1e3 / n.millis().length;
                double nSteadyPer = nSteady.microsPerRequest();
                System.out.printf(Locale.ROOT, "  nginx:    %.1f CPU-s, %.0f µs per stream (%.0f in the kernel), TTFB p50"
                        + " %.2f ms, errors %d; steady: %.0f µs per stream%s%n", nCpu / 1e9, nPer, nKernel, n.p(50),
                        n.errors(), nSteadyPer, notSteady(n));
                System.out.printf(Locale.ROOT, "  gateway / nginx CPU per streamed request: %.2fx (steady %.2fx)%n",
                        gPer / nPer, steadyMicros.get("gateway:") / nSteadyPer);
                if (baseline != null) {
                    System.out.printf(Locale.ROOT, "  baseline / nginx: %.2fx (steady %.2fx); this build / baseline: %.2fx"
                            + " (steady %.2fx)%n", bPer / nPer, steadyMicros.get("baseline:") / nSteadyPer, gPer / bPer,
                            steadyMicros.get("gateway:") / steadyMicros.get("baseline:"));
                }
            }
        }
    }

    /** A run whose streams waited long for their first byte was falling behind: its steady window means little. */
    private static String notSteady(Result r) {
        return r.p(50) > 500 ? " (not steady: TTFB p50 over 0.5 s, the machine did not keep up)" : "";
    }

    /** The last {@link #streamCpu} steady-window numbers, by label. */
    private static final java.util.Map<String, Double> steadyMicros = new java.util.HashMap<>();

    /** One streaming run through {@code g} and then as long without traffic; prints both, returns µs per stream. */
    private static double streamCpu(String label, GatewayProcess g, int rate, int seconds, int idleSeconds, byte[] body)
            throws Exception {
        long t0 = System.nanoTime();
        long c0 = g.cpuNanos();
        java.util.Map<String, Long> threads0 = g.cpuByThreadGroup();
        Window steady = new Window(rate * seconds / 3, g::cpuNanos);
        Result r = run(new InetSocketAddress("127.0.0.1", g.port), rate, seconds, true, 4096, body, steady);
        long cpu = g.cpuNanos() - c0;
        java.util.Map<String, Long> threads1 = g.cpuByThreadGroup();
        double wall = (System.nanoTime() - t0) / 1e9;
        long i0 = g.cpuNanos();
        Thread.sleep(idleSeconds * 1000L);
        double idlePerSecond = (g.cpuNanos() - i0) / 1e9 / idleSeconds;
        double perStream = cpu / 1e3 / r.millis().length;
        double idlePerStream = idlePerSecond * wall * 1e6 / r.millis().length;
        System.out.printf(Locale.ROOT,
                "  %s %.1f CPU-s, %.0f µs per stream (of which idle, i.e. scraping and timers: %.3f cores, %.0f µs),"
                        + " TTFB p50 %.2f ms, errors %d; steady: %.0f µs per stream%s%n",
                label, cpu / 1e9, perStream, idlePerSecond, idlePerStream, r.p(50), r.errors(),
                steady.microsPerRequest(), notSteady(r));
        steadyMicros.put(label.trim(), steady.microsPerRequest());
        if (!threads1.isEmpty()) {
            StringBuilder split = new StringBuilder("            by thread, µs per stream:");
            threads1.forEach((group, nanos) -> split.append(String.format(Locale.ROOT, " %s %.0f", group,
                    (nanos - threads0.getOrDefault(group, 0L)) / 1e3 / r.millis().length)));
            System.out.println(split);
        }
        return perStream;
    }

    /** {@code -DbaselineJar=path}: another build of the gateway, measured beside this one in the same rounds. */
    static String baselineJar() {
        String jar = System.getProperty("baselineJar", "");
        return jar.isBlank() ? null : jar;
    }

    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (java.io.IOException e) {
            return "?";
        }
    }

    /** Latencies of one run, in milliseconds. */
    record Result(double[] millis, double achieved, int errors) {
        double p(double percentile) {
            if (millis.length == 0) {
                return Double.NaN;
            }
            int i = (int) Math.ceil(percentile / 100.0 * millis.length) - 1;
            return millis[Math.max(0, Math.min(millis.length - 1, i))];
        }
    }

    /**
     * Sends {@code rate} requests a second for {@code seconds} at fixed intervals, each on a free
     * keep-alive connection (opening more up to {@code maxConnections}). Streaming requests are
     * timed to their first body byte and then read to the end.
     */
    static Result run(InetSocketAddress target, int rate, int seconds, boolean stream, int maxConnections)
            throws Exception {
        return run(target, rate, seconds, stream, maxConnections, stream ? STREAM_BODY : BODY);
    }

    static Result run(InetSocketAddress target, int rate, int seconds, boolean stream, int maxConnections, byte[] body)
            throws Exception {
        return run(target, rate, seconds, stream, maxConnections, body, null);
    }

    /**
     * A proxy's CPU in the steady part of a run, from when request {@code from} is sent to when the last one is: every
     * connection is open by then and no stream is draining yet, which is what a proxy serving continuous traffic pays.
     * Divided by the requests that completed in between (not those sent: a proxy falling behind would look cheap).
     */
    static final class Window {
        final int from;
        final java.util.function.LongSupplier cpuNanos;
        long cpu0;
        long cpu1;
        int done0;
        int done1;

        Window(int from, java.util.function.LongSupplier cpuNanos) {
            this.from = from;
            this.cpuNanos = cpuNanos;
        }

        /** µs of CPU per request completed in the window. */
        double microsPerRequest() {
            return (cpu1 - cpu0) / 1e3 / Math.max(1, done1 - done0);
        }
    }

    static Result run(InetSocketAddress target, int rate, int seconds, boolean stream, int maxConnections, byte[] body,
            Window window) throws Exception {
        EventLoopGroup loop = new NioEventLoopGroup(1);
        int total = rate * seconds;
        long[] latency = new long[total];
        int[] done = {0};
        int[] errors = {0};
        CountDownLatch finished = new CountDownLatch(total);
        ArrayDeque<Channel> idle = new ArrayDeque<>();
        int[] open = {0};
        ArrayDeque<Integer> backlog = new ArrayDeque<>();
        long[] intended = new long[total];
        Bootstrap bootstrap = new Bootstrap().group(loop).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpClientCodec(), new SimpleChannelInboundHandler<HttpObject>() {
                            int current = -1;
                            boolean first;

                            @Override
                            public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                                current = (Integer) evt;
                                first = true;
                            }

                            @Override
                            protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
                                if (msg instanceof HttpContent c && first && (c.content().isReadable() || !stream)) {
                                    if (stream || msg instanceof LastHttpContent) {
                                        first = false;
                                        latency[current] = System.nanoTime() - intended[current];
                                    }
                                }
                                if (msg instanceof LastHttpContent) {
                                    if (first) {
                                        latency[current] = System.nanoTime() - intended[current];
                                    }
                                    done[0]++;
                                    finished.countDown();
                                    Integer next = backlog.poll();
                                    if (next != null) {
                                        send(ctx.channel(), next, target, body);
                                    } else {
                                        idle.push(ctx.channel());
                                    }
                                }
                            }

                            @Override
                            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                                ctx.close();
                            }

                            @Override
                            public void channelInactive(ChannelHandlerContext ctx) {
                                if (current >= 0 && latency[current] == 0) {
                                    errors[0]++;
                                    latency[current] = -1;
                                    finished.countDown();
                                }
                                open[0]--;
                            }
                        });
                    }
                });
        long interval = 1_000_000_000L / rate;
        long start = System.nanoTime() + 50_000_000L;
        for (int i = 0; i < total; i++) {
            intended[i] = start + i * interval;
        }
        for (int i = 0; i < total; i++) {
            long wait = intended[i] - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            if (window != null && (i == window.from || i == total - 1)) {
                long cpu = window.cpuNanos.getAsLong();
                int completed = loop.submit(() -> done[0]).get(); // counted on the client's loop
                if (i == window.from) {
                    window.cpu0 = cpu;
                    window.done0 = completed;
                } else {
                    window.cpu1 = cpu;
                    window.done1 = completed;
                }
            }
            int id = i;
            loop.execute(() -> {
                Channel ch = idle.poll();
                if (ch != null && ch.isActive()) {
                    send(ch, id, target, body);
                } else if (open[0] < maxConnections) {
                    open[0]++;
                    bootstrap.connect(target).addListener(f -> {
                        if (f.isSuccess()) {
                            send(((io.netty.channel.ChannelFuture) f).channel(), id, target, body);
                        } else {
                            open[0]--;
                            errors[0]++;
                            latency[id] = -1;
                            finished.countDown();
                        }
                    });
                } else {
                    backlog.add(id);
                }
            });
        }
        boolean all = finished.await(60, TimeUnit.SECONDS);
        long end = System.nanoTime();
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        double[] ms = Arrays.stream(latency).filter(l -> l > 0).mapToDouble(l -> l / 1e6).sorted().toArray();
        int failed = errors[0] + (all ? 0 : (int) finished.getCount());
        return new Result(ms, ms.length / ((end - start) / 1e9), failed);
    }

    private static void send(Channel ch, int id, InetSocketAddress target, byte[] body) {
        ch.pipeline().fireUserEventTriggered(id);
        FullHttpRequest r = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/v1/completions",
                Unpooled.wrappedBuffer(body));
        r.headers().set(HttpHeaderNames.HOST, target.getHostString() + ":" + target.getPort())
                .set(HttpHeaderNames.CONTENT_TYPE, "application/json")
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        if (authorization != null) {
            r.headers().set(HttpHeaderNames.AUTHORIZATION, authorization);
        }
        ch.writeAndFlush(r);
    }

    /** The gateway from the jar in its own JVM, in front of one stub endpoint. */
    static final class GatewayProcess implements AutoCloseable {
        final Process process;
        final int port;

        private GatewayProcess(Process process, int port) {
            this.process = process;
            this.port = port;
        }

        static GatewayProcess start(int upstreamPort) throws Exception {
            return start(upstreamPort, "", "overhead-gateway");
        }

        /**
         * @param specLines more lines under {@code spec:}, indented by two spaces
         * @param name      names the log file, target/{name}.log
         */
        static GatewayProcess start(int upstreamPort, String specLines, String name) throws Exception {
            return start(List.of("127.0.0.1:" + upstreamPort), "m", specLines, name);
        }

        static GatewayProcess start(List<String> endpoints, String model, String specLines, String name)
                throws Exception {
            return start(endpoints, model, specLines, name, System.getProperty("gatewayJar", "target/inference-gateway.jar"));
        }

        /** @param jar the gateway jar to run: this build's, or another build's to compare against */
        static GatewayProcess start(List<String> endpoints, String model, String specLines, String name, String jar)
                throws Exception {
            return start(endpoints, model, specLines, name, jar, List.of(), null);
        }

        /**
         * @param moreJvmArgs after {@code -DgatewayJvmArgs}' (e.g. {@code -Dgateway.tls.certFile=...})
         * @param https       how to reach a listener that speaks HTTPS, or null for plain HTTP
         */
        static GatewayProcess start(List<String> endpoints, String model, String specLines, String name, String jar,
                List<String> moreJvmArgs, javax.net.ssl.SSLContext https) throws Exception {
            String list = endpoints.stream().map(e -> "\"" + e + "\"").collect(java.util.stream.Collectors.joining(", "));
            return run("""
                    kind: InferenceGatewayConfig
                    spec:
                      schedulers:
                        - {modelName: "%s", endpoints: [%s], policy: %s}
                    """.formatted(model, list, System.getProperty("policy", "gpu-aware")) + specLines, name, jar,
                    moreJvmArgs, https);
        }

        /** A global tier serving model {@code m} from one cluster gateway at {@code url}, trusting {@code caFile}. */
        static GatewayProcess startTier(String url, Path caFile, String name, String jar) throws Exception {
            return run("""
                    kind: InferenceGatewayConfig
                    spec:
                      global:
                        region: here
                        clusters: [{name: cluster, url: "%s", region: here}]
                    %s  schedulers:
                        - {modelName: m}
                    """.formatted(url, caFile == null ? "" : "    tls: {caFile: " + caFile + "}\n"), name, jar, List.of(),
                    null);
        }

        private static GatewayProcess run(String yaml, String name, String jar, List<String> moreJvmArgs,
                javax.net.ssl.SSLContext https) throws Exception {
            Path config = Files.createTempFile("overhead", ".yaml");
            Files.writeString(config, yaml);
            int port;
            try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
                port = s.getLocalPort();
            }
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> command = new java.util.ArrayList<>(List.of(java, "-Xmx512m"));
            // -DbaselineJvmArgs: the baseline build's own flags (else it gets the gateway's), e.g. to compare a setting
            String jvmArgs = System.getProperty("gatewayJvmArgs", "");
            if (jar.equals(baselineJar())) {
                jvmArgs = System.getProperty("baselineJvmArgs", jvmArgs);
            }
            if (!jvmArgs.isBlank()) {
                command.addAll(List.of(jvmArgs.trim().split("\\s+")));
            }
            command.addAll(moreJvmArgs);
            command.addAll(List.of("-jar", jar, "serve", "--config", config.toString(),
                    "--port", Integer.toString(port)));
            Process p = new ProcessBuilder(command)
                    .redirectErrorStream(true).redirectOutput(new File("target/" + name + ".log")).start();
            HttpClient http = https == null ? HttpClient.newHttpClient() : HttpClient.newBuilder().sslContext(https).build();
            String ready = (https == null ? "http://127.0.0.1:" : "https://localhost:") + port + "/ready";
            // up to 3 minutes: on a shared 2-core machine at load 20 Camel Main took over a minute to start
            for (int i = 0; i < 360; i++) {
                try {
                    if (http.send(HttpRequest.newBuilder(URI.create(ready)).build(),
                            HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                        return new GatewayProcess(p, port);
                    }
                } catch (Exception notYet) {
                    // still starting
                }
                Thread.sleep(500);
            }
            p.destroyForcibly();
            throw new IllegalStateException("gateway did not start; see target/" + name + ".log");
        }

        /** CPU time the process has used so far, in nanoseconds. */
        long cpuNanos() {
            return process.toHandle().info().totalCpuDuration().orElseThrow().toNanos();
        }

        /**
         * CPU time by thread group (event loops, scraper, JIT compilers, GC, the rest), from /proc on Linux (empty
         * elsewhere): a JIT still compiling or a collector is told apart from the work per stream.
         */
        java.util.Map<String, Long> cpuByThreadGroup() {
            java.util.Map<String, Long> groups = new java.util.TreeMap<>();
            long nanosPerTick = 10_000_000L; // USER_HZ is 100 on Linux
            try (var tasks = Files.list(Path.of("/proc", Long.toString(process.pid()), "task"))) {
                tasks.forEach(t -> {
                    try {
                        String stat = Files.readString(t.resolve("stat"));
                        String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                        long system = Long.parseLong(f[12]);
                        groups.merge(threadGroup(name), (Long.parseLong(f[11]) + system) * nanosPerTick, Long::sum);
                        groups.merge("(of all: in the kernel)", system * nanosPerTick, Long::sum);
                    } catch (java.io.IOException | RuntimeException gone) {
                        // the thread ended
                    }
                });
            } catch (java.io.IOException notLinux) {
                return java.util.Map.of();
            }
            return groups;
        }

        private static String threadGroup(String name) {
            if (name.startsWith("gateway-io") || name.startsWith("upstream-io")) {
                return "io";
            }
            if (name.startsWith("metrics-scrape")) {
                return "scrape";
            }
            if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
                return "jit";
            }
            if (name.startsWith("GC Thread") || name.startsWith("G1 ")) {
                return "gc";
            }
            return "other";
        }

        /** The gateway's {@code inference_gateway_connections_open}: client connections open now. */
        int openConnections() throws Exception {
            String text = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("^inference_gateway_connections_open(?:\\{[^}]*})? ([0-9.eE+]+)$",
                    java.util.regex.Pattern.MULTILINE).matcher(text);
            return m.find() ? (int) Double.parseDouble(m.group(1)) - 1 : -1; // less this request's own connection
        }

        /** Bytes of heap in use after a full GC. */
        long heapUsedAfterGc() throws Exception {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("used (\\d+)K").matcher(heapAfterGc());
            return m.find() ? Long.parseLong(m.group(1)) * 1024 : -1;
        }

        String heapAfterGc() throws Exception {
            Process jcmd = new ProcessBuilder("jcmd", Long.toString(process.pid()), "GC.run").start();
            jcmd.waitFor();
            Process info = new ProcessBuilder("jcmd", Long.toString(process.pid()), "GC.heap_info").start();
            String text = new String(info.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            info.waitFor();
            return text.lines().filter(l -> l.contains("garbage-first heap")).findFirst().orElse(text).trim();
        }

        @Override
        public void close() {
            NginxProcess.stop(process);
        }
    }
}
