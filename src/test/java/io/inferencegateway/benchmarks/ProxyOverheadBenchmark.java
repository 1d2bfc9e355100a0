package io.inferencegateway.benchmarks;

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
 * many streams. The gateway runs as its own process from the jar, as users run it.
 *
 * <pre>
 * mvn -B -q package -DskipTests && mvn -B -q test-compile
 * java -cp target/inference-gateway.jar:target/test-classes io.inferencegateway.benchmarks.ProxyOverheadBenchmark
 * </pre>
 */
public final class ProxyOverheadBenchmark {

    private static final byte[] BODY = "{\"model\":\"m\",\"prompt\":\"hello\",\"max_tokens\":16}".getBytes(StandardCharsets.UTF_8);
    private static final byte[] STREAM_BODY = "{\"model\":\"m\",\"prompt\":\"hello\",\"stream\":true}".getBytes(StandardCharsets.UTF_8);

    /** An {@code Authorization} header every request carries, or null (AuthRateLimitOverheadBenchmark sets one). */
    static volatile String authorization;

    public static void main(String[] args) throws Exception {
        int seconds = Integer.parseInt(System.getProperty("seconds", "15"));
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

            System.out.println("\nheap with 1,000 concurrent streams (each 20 s long)");
            gateway.close();
            try (OverheadStubServer slow = new OverheadStubServer(0, 1, 200, 100);
                    GatewayProcess g2 = GatewayProcess.start(slow.port())) {
                InetSocketAddress via2 = new InetSocketAddress("127.0.0.1", g2.port);
                run(via2, 1000, 10, false, 64); // warm the fresh JVM up first
                System.out.println("  idle: " + g2.heapAfterGc());
                Result[] streams = new Result[1];
                Thread opener = new Thread(() -> {
                    try {
                        streams[0] = run(via2, 1000, 1, true, 1000);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                opener.start();
                Thread.sleep(8000);
                System.out.println("  with 1,000 open streams: " + g2.heapAfterGc());
                opener.join();
                System.out.printf(Locale.ROOT, "  1,000 streams opened in 1 s: TTFB p50 %.3f ms, p99 %.3f ms, errors %d%n",
                        streams[0].p(50), streams[0].p(99), streams[0].errors);
            }
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
        byte[] body = stream ? STREAM_BODY : BODY;
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
            Path config = Files.createTempFile("overhead", ".yaml");
            Files.writeString(config, """
                    kind: InferenceGatewayConfig
                    spec:
                      schedulers:
                        - {modelName: m, endpoints: ["127.0.0.1:%d"], policy: %s}
                    """.formatted(upstreamPort, System.getProperty("policy", "gpu-aware")) + specLines);
            int port;
            try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
                port = s.getLocalPort();
            }
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process p = new ProcessBuilder(List.of(java, "-Xmx512m", "-jar", "target/inference-gateway.jar", "serve",
                    "--config", config.toString(), "--port", Integer.toString(port)))
                    .redirectErrorStream(true).redirectOutput(new File("target/" + name + ".log")).start();
            HttpClient http = HttpClient.newHttpClient();
            for (int i = 0; i < 120; i++) {
                try {
                    if (http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ready")).build(),
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
            process.destroy();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process.destroyForcibly();
        }
    }
}
