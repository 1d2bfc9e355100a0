package io.inferencegateway.lab.benchmarks;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.inferencegateway.lab.bench.load.LiveCounters;
import io.inferencegateway.lab.bench.load.LoadGenerator;
import io.inferencegateway.lab.bench.load.LoadOptions;
import io.inferencegateway.lab.bench.load.LongList;
import io.inferencegateway.lab.bench.load.RequestResult;
import io.inferencegateway.lab.bench.load.RunRecording;
import io.inferencegateway.lab.bench.report.Distribution;
import io.inferencegateway.lab.bench.report.RunSummary;
import io.inferencegateway.lab.bench.stub.ServedRequest;
import io.inferencegateway.lab.bench.stub.StubBehaviour;
import io.inferencegateway.lab.bench.stub.StubModelServer;
import io.inferencegateway.lab.bench.workload.IntRange;
import io.inferencegateway.lab.bench.workload.PoissonArrivals;
import io.inferencegateway.lab.bench.workload.RequestPlan;
import io.inferencegateway.lab.bench.workload.UniquePromptWorkload;
import io.netty.channel.nio.NioEventLoopGroup;

/**
 * What the instrument itself costs and how exact it is, against the stub server in the same JVM (so
 * the CPU figures include the stub's share). Not a unit test; run explicitly, optionally naming the
 * parts to run ({@code accuracy}, {@code rate}, {@code streams}; default all):
 *
 * <pre>
 * java -cp lab/target/test-classes:lab/target/classes:$(cat lab/target/test-classpath.txt) \
 *      io.inferencegateway.lab.benchmarks.GeneratorOverheadBenchmark [part...]
 * </pre>
 *
 * 1. TTFT accuracy: measured TTFT minus what the server really took (same clock), 50 ms / 10 ms stub.
 * 2. Request rate: one-token responses at rising Poisson rates; send lag shows when pacing falls behind.
 * 3. Streams: many concurrent long streams; events per second and ITL error.
 */
public final class GeneratorOverheadBenchmark {

    private static final long MS = 1_000_000L;

    public static void main(String[] args) throws Exception {
        NioEventLoopGroup serverGroup = new NioEventLoopGroup(1);
        try (LoadGenerator generator = new LoadGenerator()) {
            System.out.printf(Locale.ROOT, "cores %d, load average %.2f%n", Runtime.getRuntime().availableProcessors(),
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            List<String> parts = args.length == 0 ? List.of("accuracy", "rate", "streams") : List.of(args);
            warmUp(generator, serverGroup);
            if (parts.contains("accuracy")) {
                ttftAccuracy(generator, serverGroup);
            }
            if (parts.contains("rate")) {
                requestRate(generator, serverGroup);
            }
            if (parts.contains("streams")) {
                streams(generator, serverGroup);
            }
        } finally {
            serverGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    private static void warmUp(LoadGenerator generator, NioEventLoopGroup group) throws Exception {
        try (StubModelServer stub = new StubModelServer(group, 0,
                StubBehaviour.fixed(Duration.ofMillis(1), Duration.ofMillis(1)), false)) {
            generator.run(plan(500, 3000, 8), List.of(stub.address()), LoadOptions.defaults(1), new LiveCounters());
        }
    }

    private static void ttftAccuracy(LoadGenerator generator, NioEventLoopGroup group) throws Exception {
        System.out.println("\n1. TTFT accuracy: stub 50 ms to first token, 10 ms between tokens, 16 tokens, 50 req/s");
        for (double scale : new double[] {1, 10}) {
            StubBehaviour behaviour = StubBehaviour.fixed(Duration.ofMillis(50), Duration.ofMillis(10))
                    .withTimeScale(scale);
            try (StubModelServer stub = new StubModelServer(group, 0, behaviour, true)) {
                // 50 simulated req/s: at scale 10 that is 500 req/s and 8,000 events/s of wall time
                RunRecording run = generator.run(plan(50, 1000, 16),
                        List.of(stub.address()), LoadOptions.defaults(scale), new LiveCounters());
                Map<String, ServedRequest> served = new HashMap<>();
                stub.served().forEach(s -> served.put(s.requestId(), s));
                LongList excess = new LongList();
                LongList itlError = new LongList();
                for (RequestResult r : run.results()) {
                    ServedRequest s = served.get("bench-" + r.index());
                    excess.add(r.ttftNanos() - r.sendLagNanos()
                            - Math.round((s.eventNanos()[0] - s.receivedNanos()) * scale));
                    for (int i = 0; i < r.itlNanos().length; i++) {
                        long server = Math.round((s.eventNanos()[i + 1] - s.eventNanos()[i]) * scale);
                        itlError.add(Math.abs(r.itlNanos()[i] - server));
                    }
                }
                RunSummary summary = RunSummary.of(run.results());
                System.out.printf(Locale.ROOT, "  time scale %4.1f: %d requests; TTFT p50 %.2f ms p99 %.2f ms (simulated); "
                                + "measured minus server-side delay: p50 %s p99 %s max %s; |ITL error| p50 %s p99 %s; "
                                + "send lag p50 %.3f p99 %.3f ms%n", scale, run.results().size(), summary.ttft().p50Ms(),
                        summary.ttft().p99Ms(), ms(excess, 50), ms(excess, 99), ms(excess, 100), ms(itlError, 50),
                        ms(itlError, 99), summary.sendLag().p50Ms(), summary.sendLag().p99Ms());
            }
        }
    }

    private static void requestRate(LoadGenerator generator, NioEventLoopGroup group) throws Exception {
        System.out.println("\n2. Request rate: one-token responses, no server delay, 5 s per step");
        try (StubModelServer stub = new StubModelServer(group, 0,
                StubBehaviour.fixed(Duration.ZERO, Duration.ZERO), false)) {
            for (int rate : new int[] {250, 500, 1000, 2000, 4000, 8000}) {
                cpuSinceLastCall(1);
                report(rate + " req/s", generator.run(plan(rate, rate * 5, 1), List.of(stub.address()),
                        LoadOptions.defaults(1), new LiveCounters()), rate * 5);
            }
        }
    }

    private static void streams(LoadGenerator generator, NioEventLoopGroup group) throws Exception {
        System.out.println("\n3. Concurrent streams: 200 tokens each, 50 ms apart (10 s per stream)");
        try (StubModelServer stub = new StubModelServer(group, 0,
                StubBehaviour.fixed(Duration.ofMillis(20), Duration.ofMillis(50)), false)) {
            for (int streams : new int[] {250, 500, 1000, 2000}) {
                // all streams start within one second and overlap for about nine
                cpuSinceLastCall(1);
                report(streams + " streams", generator.run(plan(streams, streams, 200), List.of(stub.address()),
                        LoadOptions.defaults(1), new LiveCounters()), streams * 203L);
            }
        }
    }

    private static void report(String label, RunRecording run, long events) {
        RunSummary s = RunSummary.of(run.results());
        double wall = run.wallNanos() / 1e9;
        System.out.printf(Locale.ROOT, "  %-12s %5d requests in %5.1f s wall, errors %d, max in flight %4d, "
                        + "connections %4d, %6.0f events/s; send lag p50 %.2f p99 %.2f ms; TTFT p50 %.2f p99 %.2f ms; "
                        + "ITL p50 %.2f p99 %.2f ms; process CPU %.0f%%%n",
                label, s.requests(), wall, s.errors(), run.maxInFlight(), run.connectionsOpened(), events / wall,
                s.sendLag().p50Ms(), s.sendLag().p99Ms(), s.ttft().p50Ms(), s.ttft().p99Ms(), s.itl().p50Ms(),
                s.itl().p99Ms(), cpuSinceLastCall(wall));
    }

    private static long lastCpu = cpuNanos();

    private static double cpuSinceLastCall(double wallSeconds) {
        long now = cpuNanos();
        double share = (now - lastCpu) / 1e9 / wallSeconds * 100;
        lastCpu = now;
        return share;
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static RequestPlan plan(double rate, int requests, int tokens) {
        return RequestPlan.build(new UniquePromptWorkload("m", new IntRange(64, 256), IntRange.of(tokens)),
                new PoissonArrivals(rate), 1, Duration.ofHours(1), requests);
    }

    private static String ms(LongList values, double p) {
        return String.format(Locale.ROOT, "%.2f ms", Distribution.of(values.toArray()).percentile(p) / 1e6);
    }

    private GeneratorOverheadBenchmark() {
    }
}
