package io.inferencegateway.lab.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.inferencegateway.simulator.EngineConfig;
import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * What keeping the metrics of a large fleet fresh costs: the gateway from the jar in front of {@code pods} idle
 * simulated vLLM pods (default 512) in one pool, at the default scrape interval (50 ms, so {@code pods × 20} scrapes
 * are due per second) and staleness threshold (200 ms). Over the measured window it reports
 *
 * <ul>
 *   <li>the gateway process's CPU in cores (CPU-seconds per second; with no inference traffic it is the scraping),
 *       and the CPU of the threads serving the pods, which run in this JVM on the same cores;</li>
 *   <li>the scrapes per second by result against those due;</li>
 *   <li>the oldest pod reading in the gateway's own {@code inference_pool_per_pod_metrics_age_seconds}, read once a
 *       second: the staleness bound holds while that stays under the threshold.</li>
 * </ul>
 *
 * Then, as the reference for what this machine allows any client, a bare Netty GET loop in this JVM against the same
 * pods: one kept-alive connection each, a GET to every idle pod every 50 ms, the answer decoded but not parsed.
 *
 * <p>Pods {@code simulated} (the default) are the simulator's: each renders its exposition (about 34 KB) afresh per
 * scrape, on the same two cores as the gateway, which a real fleet does on its own machines. Pods {@code static}
 * answer a real vLLM 0.10 exposition (test fixture vllm-0.10-full-metrics.txt, 52 KB) from bytes prepared once, so
 * that the server side costs next to nothing and the gateway's own cost and freshness show.
 *
 * <p>{@code -DbaselineJar=path} measures another build of the gateway in alternate rounds with this one (A/B in one
 * run); {@code rounds} repeats the pair. The gateway is {@code target/inference-gateway.jar serve} (the same package
 * builds it; {@code -DgatewayJar=path} for another), a process of its own, so run it from the top of the repository.
 *
 * <pre>
 * mvn -B -q package -DskipTests
 * java -cp lab/target/test-classes:lab/target/classes:$(cat lab/target/test-classpath.txt) \
 *      io.inferencegateway.lab.benchmarks.ScrapeCostBenchmark [pods] [seconds] [rounds] [simulated|static]
 * </pre>
 */
public final class ScrapeCostBenchmark {

    private static final Pattern AGE = Pattern.compile(
            "^inference_pool_per_pod_metrics_age_seconds\\{[^}]*} ([0-9.eE+-]+|NaN)$", Pattern.MULTILINE);
    private static final Pattern SCRAPES = Pattern.compile(
            "^inference_gateway_metrics_scrapes_total\\{[^}]*result=\"(\\w+)\"[^}]*} ([0-9.eE+]+)$", Pattern.MULTILINE);
    private static final long INTERVAL_MILLIS = 50;

    private ScrapeCostBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int pods = args.length > 0 ? Integer.parseInt(args[0]) : 512;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        boolean simulated = args.length <= 3 || args[3].equals("simulated");
        String model = EngineConfig.DEFAULT_MODEL;
        String jar = System.getProperty("gatewayJar", "target/inference-gateway.jar");
        String baseline = ProxyOverheadBenchmark.baselineJar();
        try (AutoCloseable fleet = simulated
                ? SimulatedFleet.start(FleetOptions.builder().pods(pods).model(model).build())
                : new StaticMetricsPods(pods, fixture("vllm-0.10-full-metrics.txt"))) {
            List<String> endpoints = fleet instanceof SimulatedFleet f ? f.endpoints()
                    : ((StaticMetricsPods) fleet).endpoints();
            serverThreads = simulated ? "sim-pod" : "static-pod";
            System.out.printf(Locale.ROOT, "%d idle %s pods, scrape interval 50 ms: %d scrapes/s due%n", pods,
                    simulated ? "simulated" : "static", pods * 1000 / INTERVAL_MILLIS);
            for (int round = 1; round <= rounds; round++) {
                measureGateway(endpoints, seconds, model, "this build", jar);
                if (baseline != null) {
                    measureGateway(endpoints, seconds, model, "baseline", baseline);
                }
            }
            measureBareLoop(endpoints, seconds);
        }
    }

    /** Name prefix of the threads that serve the pods' /metrics, in this JVM. */
    private static String serverThreads;

    private static void measureGateway(List<String> endpoints, int seconds, String model, String name, String jar)
            throws Exception {
        int pods = endpoints.size();
        try (ProxyOverheadBenchmark.GatewayProcess gateway = ProxyOverheadBenchmark.GatewayProcess.start(
                endpoints, model, "", "scrape-cost-gateway", jar)) {
            HttpClient http = HttpClient.newHttpClient();
            URI metrics = URI.create("http://127.0.0.1:" + gateway.port + "/metrics");
            System.out.printf(Locale.ROOT, "%n%s (%s): warming up for 20 s ...%n", name, jar);
            Thread.sleep(20_000);
            double[] before = scrapes(get(http, metrics));
            long cpu0 = gateway.cpuNanos();
            long kernel0 = kernelNanos(gateway.process.pid());
            long sim0 = podsCpuNanos();
            long t0 = System.nanoTime();
            double[] oldest = new double[seconds];
            int unread = 0;
            String text = "";
            for (int s = 0; s < seconds; s++) {
                sleepUntil(t0 + (s + 1) * 1_000_000_000L);
                text = get(http, metrics);
                Matcher m = AGE.matcher(text);
                double max = 0;
                int seen = 0;
                while (m.find()) {
                    seen++;
                    double v = m.group(1).equals("NaN") ? Double.POSITIVE_INFINITY : Double.parseDouble(m.group(1));
                    max = Math.max(max, v);
                }
                unread += pods - seen;
                oldest[s] = max;
            }
            long cpu = gateway.cpuNanos() - cpu0;
            long kernel = kernelNanos(gateway.process.pid()) - kernel0;
            long sim = podsCpuNanos() - sim0;
            double wall = (System.nanoTime() - t0) / 1e9;
            double[] after = scrapes(text);
            double ok = after[0] - before[0];
            System.out.printf(Locale.ROOT, "  load average %s%n", ProxyOverheadBenchmark.loadAverage());
            System.out.printf(Locale.ROOT, "  gateway CPU %.2f cores (%.1f CPU-s in %.1f s, %.1f µs per good scrape, "
                    + "%.1f of them in the kernel); pods' CPU %.2f cores%n", cpu / 1e9 / wall, cpu / 1e9, wall,
                    cpu / 1e3 / Math.max(1, ok), kernel / 1e3 / Math.max(1, ok), sim / 1e9 / wall);
            System.out.printf(Locale.ROOT, "  scrapes/s: succeeded %.0f of %d due (%.0f %%), skipped_busy %.0f, "
                    + "failed %.0f, timed_out %.0f%n", ok / wall, pods * 1000 / INTERVAL_MILLIS,
                    100 * ok / wall / (pods * 1000.0 / INTERVAL_MILLIS), (after[1] - before[1]) / wall,
                    (after[2] - before[2]) / wall, (after[3] - before[3]) / wall);
            Arrays.sort(oldest);
            System.out.printf(Locale.ROOT, "  oldest pod reading, sampled each second: median %.0f ms, p90 %.0f ms, "
                    + "max %.0f ms (threshold 200 ms: %s)%s%n", oldest[seconds / 2] * 1000,
                    oldest[(int) (seconds * 0.9)] * 1000, oldest[seconds - 1] * 1000,
                    oldest[seconds - 1] < 0.2 ? "held" : "missed",
                    unread > 0 ? ", pods missing from /metrics: " + unread : "");
        }
    }

    /**
     * The bare loop: one event-loop thread, one kept-alive connection per pod, every 50 ms a GET to each pod whose
     * last answer is in; an answer is decoded (HTTP framing) and dropped.
     */
    private static void measureBareLoop(List<String> endpoints, int seconds) throws Exception {
        int pods = endpoints.size();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("bare-scrape", true),
                NioIoHandler.newFactory());
        try {
            List<BarePod> all = new ArrayList<>();
            for (String endpoint : endpoints) {
                all.add(new BarePod(endpoint));
            }
            Bootstrap bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class)
                    .option(ChannelOption.TCP_NODELAY, true);
            for (BarePod p : all) {
                p.connect(bootstrap);
            }
            var tick = group.next().scheduleAtFixedRate(() -> all.forEach(BarePod::tick), 0, INTERVAL_MILLIS,
                    TimeUnit.MILLISECONDS);
            System.out.printf(Locale.ROOT, "%nbare Netty GET loop in this JVM (no parsing): warming up for 10 s ...%n");
            Thread.sleep(10_000);
            long[] before = bareCounts(all);
            long cpu0 = threadCpuNanos("bare-scrape");
            long user0 = threadUserNanos("bare-scrape");
            long sim0 = podsCpuNanos();
            long t0 = System.nanoTime();
            Thread.sleep(seconds * 1000L);
            double wall = (System.nanoTime() - t0) / 1e9;
            long cpu = threadCpuNanos("bare-scrape") - cpu0;
            long user = threadUserNanos("bare-scrape") - user0;
            long sim = podsCpuNanos() - sim0;
            long[] after = bareCounts(all);
            tick.cancel(false);
            System.out.printf(Locale.ROOT, "  load average %s%n", ProxyOverheadBenchmark.loadAverage());
            long answers = Math.max(1, after[0] - before[0]);
            System.out.printf(Locale.ROOT, "  client CPU %.2f cores (%.1f µs per answer, %.1f of them in the kernel); "
                    + "pods' CPU %.2f cores%n", cpu / 1e9 / wall, cpu / 1e3 / answers, (cpu - user) / 1e3 / answers,
                    sim / 1e9 / wall);
            System.out.printf(Locale.ROOT, "  GETs/s: answered %.0f of %d due (%.0f %%), skipped busy %.0f%n",
                    (after[0] - before[0]) / wall, pods * 1000 / INTERVAL_MILLIS,
                    100 * (after[0] - before[0]) / wall / (pods * 1000.0 / INTERVAL_MILLIS),
                    (after[1] - before[1]) / wall);
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    /** One pod of the bare loop; touched only on the loop's thread (the counters are read racily, once). */
    private static final class BarePod {
        final String host;
        final int port;
        final ByteBuf request;
        Channel channel;
        boolean busy;
        volatile long answered;
        volatile long skipped;

        BarePod(String endpoint) {
            int colon = endpoint.lastIndexOf(':');
            this.host = endpoint.substring(0, colon);
            this.port = Integer.parseInt(endpoint.substring(colon + 1));
            this.request = Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(("GET /metrics HTTP/1.1\r\nHost: "
                    + endpoint + "\r\nAccept: text/plain\r\n\r\n").getBytes(StandardCharsets.US_ASCII)));
        }

        void connect(Bootstrap bootstrap) {
            channel = bootstrap.clone().handler(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    ch.pipeline().addLast(new HttpResponseDecoder(), new SimpleChannelInboundHandler<HttpObject>() {
                        @Override
                        protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
                            if (msg instanceof LastHttpContent) {
                                busy = false;
                                answered++;
                            }
                        }
                    });
                }
            }).connect(host, port).syncUninterruptibly().channel();
        }

        void tick() {
            if (busy) {
                skipped++;
                return;
            }
            busy = true;
            channel.writeAndFlush(request.duplicate(), channel.voidPromise());
        }
    }

    private static long[] bareCounts(List<BarePod> pods) {
        long[] out = new long[2];
        for (BarePod p : pods) {
            out[0] += p.answered;
            out[1] += p.skipped;
        }
        return out;
    }

    /** CPU time of the threads that serve every pod's /metrics in this JVM. */
    private static long podsCpuNanos() {
        return threadCpuNanos(serverThreads);
    }

    private static byte[] fixture(String name) throws IOException {
        try (var in = ScrapeCostBenchmark.class.getResourceAsStream("/fixtures/" + name)) {
            return in.readAllBytes();
        }
    }

    private static long threadCpuNanos(String namePrefix) {
        return threadTime(namePrefix, false);
    }

    private static long threadUserNanos(String namePrefix) {
        return threadTime(namePrefix, true);
    }

    private static long threadTime(String namePrefix, boolean userOnly) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (t != null && t.getThreadName().startsWith(namePrefix)) {
                long id = t.getThreadId();
                sum += Math.max(0, userOnly ? threads.getThreadUserTime(id) : threads.getThreadCpuTime(id));
            }
        }
        return sum;
    }

    /**
     * The system time of a process so far (Linux {@code /proc/<pid>/stat}, field 15, in clock ticks of 10 ms): the
     * kernel's share of the sockets' work, which no change in the gateway's own code removes. 0 where there is no
     * {@code /proc}.
     */
    private static long kernelNanos(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[12]) * 10_000_000L; // field 15 counted from the state, field 3
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long wait = nanoTime - System.nanoTime();
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
    }

    /** Scrape counts so far: succeeded, skipped_busy, failed, timed_out. */
    private static double[] scrapes(String text) {
        double[] out = new double[4];
        Matcher m = SCRAPES.matcher(text);
        while (m.find()) {
            int i = switch (m.group(1)) {
                case "succeeded" -> 0;
                case "skipped_busy" -> 1;
                case "failed" -> 2;
                default -> 3;
            };
            out[i] += Double.parseDouble(m.group(2));
        }
        return out;
    }

    private static String get(HttpClient http, URI uri) throws Exception {
        return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString()).body();
    }
}
