package io.inferencegateway.lab.soak;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.inferencegateway.lab.bench.CapacityProbe;
import io.inferencegateway.lab.bench.fleet.FleetSpec;
import io.inferencegateway.lab.bench.gateway.GatewayProcess;
import io.inferencegateway.lab.bench.workload.IntRange;
import io.inferencegateway.lab.bench.workload.UniquePromptWorkload;
import io.inferencegateway.simulator.RedisServer;
import io.inferencegateway.lab.soak.CallOutcome.Kind;
import io.inferencegateway.lab.soak.PlannedCall.Tenant;
import io.inferencegateway.testing.MockCluster;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;

/**
 * The chaos soak: steady mixed traffic through the OpenAI SDK into two gateway replicas over a simulated fleet found
 * through the mock API server, with a real Redis, while a seeded schedule of overlapping faults runs; invariants are
 * checked as outcomes arrive and at the end (docs/benchmarks/soak.md says what each one means).
 */
final class Soak {

    static final String ONE_OUTCOME = "every request has exactly one outcome";
    static final String NO_HANG = "no request hangs past its timeout";
    static final String ERROR_SHAPE = "errors are OpenAI-shaped with the right status";
    static final String NO_FAILURE = "no failure after detection while a healthy pod exists";
    static final String STREAM_CUTS = "streams cut only when their pod dies, with an error event";
    static final String REQUEST_COUNTS = "gateway request counters = client's, per replica";
    static final String TOKEN_COUNTS = "gateway token counters = client's usage, per replica";
    static final String BACK_TO_ZERO = "in-flight gauges and queues back to 0";
    static final String RATE_LIMITS = "rate-limit counts match admitted usage";
    static final String RESOURCES = "fds, threads, heap, resident memory back to baseline";
    static final String NO_LEAK = "no Netty LEAK report";

    private static final int REPLICAS = 2;
    /** The mock API server logs every request it answers at INFO; held here, as JUL keeps loggers weakly. */
    private static final java.util.logging.Logger MOCK_SERVER_LOG =
            java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");
    private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(45);

    private final SoakSettings settings;
    private final PrintStream log;
    private final InvariantTable table = new InvariantTable();
    private final Map<Integer, CallOutcome> outcomes = new ConcurrentHashMap<>();
    private final Map<Integer, Long> inFlight = new ConcurrentHashMap<>();
    private final List<FaultTimeline.Entry> timeline = new CopyOnWriteArrayList<>();
    private final Map<String, Long> excused = new ConcurrentHashMap<>();
    private volatile long origin;

    Soak(SoakSettings settings, PrintStream log) {
        MOCK_SERVER_LOG.setLevel(java.util.logging.Level.WARNING);
        this.settings = settings;
        this.log = log;
        for (String inv : List.of(ONE_OUTCOME, NO_HANG, ERROR_SHAPE, NO_FAILURE, STREAM_CUTS, REQUEST_COUNTS,
                TOKEN_COUNTS, BACK_TO_ZERO, RATE_LIMITS, RESOURCES, NO_LEAK)) {
            table.declare(inv);
        }
    }

    InvariantTable table() {
        return table;
    }

    long now() {
        return System.currentTimeMillis() - origin;
    }

    /** Runs the soak; the table says whether every invariant held, the history file what happened. */
    SoakReport run() throws Exception {
        Files.createDirectories(settings.workDir());
        long loadMillis = settings.duration().toMillis();
        int pods = settings.listedPods() + settings.sparePods();
        UniquePromptWorkload workload = new UniquePromptWorkload(SoakConfig.MODEL,
                new IntRange(TrafficPlan.PROMPT_TOKENS_MIN, TrafficPlan.PROMPT_TOKENS_MAX),
                new IntRange(TrafficPlan.OUTPUT_TOKENS_MIN, TrafficPlan.OUTPUT_TOKENS_MAX));
        FleetSpec spec = new FleetSpec(SoakConfig.MODEL, FleetSpec.pods(settings.listedPods()), List.of(), 0,
                SoakFleet.KV_BLOCKS, SoakFleet.MAX_NUM_SEQS, FleetSpec.DEFAULT_MAX_NUM_BATCHED_TOKENS, 1.0);
        double capacity = CapacityProbe.requestsPerSecond(spec, workload); // simulated seconds, the listed pods
        double timeScale = settings.rate() / (settings.load() * capacity);
        List<PlannedCall> plan = TrafficPlan.generate(settings.seed(), settings.rate(), loadMillis);
        List<Fault> faults = FaultPlan.generate(settings.seed(), loadMillis, settings.meanFaultGap().toMillis(),
                settings.listedPods(), settings.sparePods(), 10_000);
        log.printf(Locale.ROOT, "soak: seed %d, %.0f s, %d requests at %.1f req/s = %.0f %% of %d pods' capacity "
                        + "(%.2f req/s simulated, time scale %.3f), %d faults (%d besides reloads)%n", settings.seed(),
                loadMillis / 1000.0, plan.size(), settings.rate(), settings.load() * 100, settings.listedPods(),
                capacity, timeScale, faults.size(), faults.stream().filter(f -> f.kind().ordinal()
                        < Fault.Kind.RELOAD_VALID.ordinal()).count());

        int silverBudget = (int) Math.round(0.9 * settings.rate() * 0.35 * 140 * SoakConfig.WINDOW_MILLIS / 1000.0);
        int bronzeBudget = (int) Math.max(5, Math.round(0.9 * settings.rate() * 0.25 * SoakConfig.WINDOW_MILLIS
                / 1000.0));
        List<Path> logs;
        try (RedisServer redis = RedisServer.start();
             MockCluster cluster = new MockCluster();
             SoakFleet fleet = new SoakFleet(cluster, pods, settings.listedPods(), GatewayProcess.freePort(),
                     SoakConfig.MODEL, timeScale, settings.seed())) {
            SoakConfig config = new SoakConfig(settings.workDir(), fleet.port(), redis.url(), silverBudget,
                    bronzeBudget);
            List<String> jvm = List.of("-Xmx256m", "-XX:TieredStopAtLevel=1", "-Dgateway.ioThreads=2",
                    "-Dgateway.kubernetes.masterUrl=" + cluster.masterUrl(), "-Dgateway.kubernetes.resyncPeriod=5000",
                    "-Dio.netty.leakDetection.level=" + settings.leakDetection());
            try (SoakReplicas replicas = new SoakReplicas(GatewayProcess.javaJarCommand(settings.jar(), jvm),
                    config.file(), settings.workDir(), REPLICAS);
                 SoakClient warmClient = new SoakClient(replicas.baseUrls(), CLIENT_TIMEOUT, System::currentTimeMillis,
                         0)) {
                warmUp(replicas, warmClient);
                ResourceCheck resources = ResourceCheck.baseline(replicas);
                CounterCheck counters = CounterCheck.before(replicas);
                origin = System.currentTimeMillis();
                try (SoakClient client = new SoakClient(replicas.baseUrls(), CLIENT_TIMEOUT,
                        System::currentTimeMillis, origin);
                     RedisClient lettuce = RedisClient.create(redis.url());
                     StatefulRedisConnection<String, String> redisConnection = lettuce.connect()) {
                    FaultDriver driver = new FaultDriver(faults, fleet, replicas, redis, config, timeline, this::now,
                            log);
                    RateLimitCheck rateLimits = new RateLimitCheck(redisConnection.sync(), origin, config);
                    Thread faultThread = new Thread(driver, "soak-faults");
                    faultThread.start();
                    Thread rateThread = new Thread(() -> rateLimits.sample(loadMillis + 30_000), "soak-rate-limits");
                    rateThread.setDaemon(true);
                    rateThread.start();
                    drive(plan, client, replicas);
                    faultThread.join();
                    rateLimits.stop();
                    rateThread.join(30_000);
                    checkOutcomes(plan, faults);
                    rateLimits.verify(table, outcomes.values(), timeline, origin);
                }
                counters.verify(table, replicas, outcomes.values(), settings.workDir());
                resources.verify(table, replicas);
                logs = replicas.logs();
            }
        }
        checkLeaks(logs);
        SoakReport report = new SoakReport(settings, plan.size(), faults, List.copyOf(timeline), table,
                new ArrayList<>(outcomes.values()), Map.copyOf(excused));
        Files.writeString(settings.workDir().resolve("history.txt"), report.history(), StandardCharsets.UTF_8);
        return report;
    }

    /** Until every replica answers every tenant through discovery: the watch has seen the pods. */
    private void warmUp(SoakReplicas replicas, SoakClient client) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 90_000;
        for (int r = 0; r < replicas.size(); r++) {
            for (Tenant t : Tenant.values()) {
                PlannedCall call = new PlannedCall(-1, 0, t, t == Tenant.GOLD, null, "warm up", 4, -1, r);
                while (true) {
                    CallOutcome o = client.send(call, r, 0);
                    if (o.kind() == Kind.COMPLETED) {
                        break;
                    }
                    if (System.currentTimeMillis() > deadline) {
                        throw new IllegalStateException("replica " + r + " never answered: " + o);
                    }
                    Thread.sleep(500);
                }
            }
        }
    }

    /** Sends the plan on time from a bounded pool of client threads, each request on a live replica. */
    private void drive(List<PlannedCall> plan, SoakClient client, SoakReplicas replicas) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(256, r -> {
            Thread t = new Thread(r, "soak-client");
            t.setDaemon(true);
            return t;
        });
        Thread watchdog = new Thread(() -> watch(client.timeout()), "soak-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        long progressAt = 10_000;
        for (PlannedCall call : plan) {
            long wait = call.atMillis() - now();
            if (wait > 0) {
                Thread.sleep(wait);
            }
            int replica = replicas.up(call.replica()) ? call.replica() : 1 - call.replica();
            int incarnation = replicas.incarnation(replica);
            inFlight.put(call.id(), now());
            pool.execute(() -> {
                CallOutcome o = client.send(call, replica, incarnation);
                inFlight.remove(call.id());
                CallOutcome before = outcomes.putIfAbsent(call.id(), o);
                table.check(ONE_OUTCOME, before == null, "request " + call.id() + " had a second outcome: " + o
                        + " after " + before);
            });
            if (now() > progressAt) {
                progressAt += 30_000;
                log.printf(Locale.ROOT, "soak: %.0f s, %d sent, %d answered, %d in flight, %d faults injected%n",
                        now() / 1000.0, call.id() + 1, outcomes.size(), inFlight.size(), timeline.size());
            }
        }
        pool.shutdown();
        if (!pool.awaitTermination(client.timeout().toSeconds() + 30, TimeUnit.SECONDS)) {
            log.println("soak: requests still running 30 s past their timeout");
        }
        watchdog.interrupt();
    }

    /** Continuously: a request in flight for longer than its timeout plus 5 s hangs. */
    private void watch(Duration timeout) {
        java.util.Set<Integer> reported = new java.util.HashSet<>();
        while (!Thread.currentThread().isInterrupted()) {
            long t = now();
            inFlight.forEach((id, sent) -> {
                if (t - sent > timeout.toMillis() + 5_000 && reported.add(id)) {
                    table.check(NO_HANG, false, "request " + id + " sent at " + sent / 1000.0 + " s still has no "
                            + "outcome at " + t / 1000.0 + " s");
                }
            });
            try {
                Thread.sleep(1_000);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void checkOutcomes(List<PlannedCall> plan, List<Fault> faults) {
        FaultTimeline faultsSeen = new FaultTimeline(timeline, settings.grace().toMillis(), settings.listedPods());
        for (PlannedCall call : plan) {
            CallOutcome o = outcomes.get(call.id());
            table.check(ONE_OUTCOME, o != null, "request " + call.id() + " has no outcome");
            if (o == null) {
                continue;
            }
            long took = o.endedAtMillis() - o.sentAtMillis();
            table.check(NO_HANG, o.kind() != Kind.TIMED_OUT && took <= CLIENT_TIMEOUT.toMillis() + 2_000,
                    "hung: " + o);
            if (o.kind() == Kind.ERROR_RESPONSE || o.kind() == Kind.ERROR_EVENT) {
                table.check(ERROR_SHAPE, o.shaped() && rightStatus(o), "error not in OpenAI's shape or with the "
                        + "wrong status: " + o);
            }
            if (call.stream() && o.status() == 200) {
                boolean cut = o.kind() == Kind.ERROR_EVENT || o.kind() == Kind.BROKEN;
                boolean excusedCut = o.kind() == Kind.ERROR_EVENT
                        ? faultsSeen.podKilledDuring(o) || faultsSeen.replicaKilledDuring(o)
                        : faultsSeen.replicaKilledDuring(o);
                table.check(STREAM_CUTS, !cut || excusedCut, "stream cut with no pod or replica killed while it "
                        + "ran: " + o + "; faults active: " + faultsSeen.activeDuring(o));
            }
            if (o.failed()) {
                String why = faultsSeen.excuse(o);
                if (why != null) {
                    excused.merge(why, 1L, Long::sum);
                    table.pass(NO_FAILURE);
                } else {
                    table.check(NO_FAILURE, false, o + "; faults active: " + faultsSeen.activeDuring(o));
                }
            } else {
                table.pass(NO_FAILURE);
            }
        }
        table.note(NO_FAILURE, excused.isEmpty() ? "" : "excused: " + new TreeMap<>(excused));
    }

    /** 429 for refusals by budget or load, 5xx for what failed upstream; a valid request never gets another 4xx. */
    private static boolean rightStatus(CallOutcome o) {
        if (o.kind() == Kind.ERROR_EVENT) {
            return true;
        }
        if ("rate_limit_exceeded".equals(o.code()) || "overloaded".equals(o.code())) {
            return o.status() == 429;
        }
        return o.status() >= 500 && o.status() <= 599;
    }

    private void checkLeaks(List<Path> logs) throws IOException {
        for (Path p : logs) {
            if (!Files.exists(p)) {
                continue;
            }
            try (Stream<String> lines = Files.lines(p, StandardCharsets.ISO_8859_1)) {
                List<String> leaks = lines.filter(l -> l.contains("LEAK:")).limit(5).toList();
                table.check(NO_LEAK, leaks.isEmpty(), p.getFileName() + ": " + String.join(" / ", leaks));
            }
        }
        table.note(NO_LEAK, "leak detection " + settings.leakDetection() + ", " + logs.size() + " gateway logs");
    }

    static Map<Kind, Long> countByKind(Iterable<CallOutcome> outcomes) {
        Map<Kind, Long> out = new EnumMap<>(Kind.class);
        for (CallOutcome o : outcomes) {
            out.merge(o.kind(), 1L, Long::sum);
        }
        return out;
    }
}
