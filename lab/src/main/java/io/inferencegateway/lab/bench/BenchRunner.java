package io.inferencegateway.lab.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.inferencegateway.lab.bench.fleet.ExternalFleetLauncher;
import io.inferencegateway.lab.bench.fleet.FaultRecord;
import io.inferencegateway.lab.bench.fleet.Fleet;
import io.inferencegateway.lab.bench.fleet.FleetLauncher;
import io.inferencegateway.lab.bench.fleet.FleetSpec;
import io.inferencegateway.lab.bench.fleet.PodSample;
import io.inferencegateway.lab.bench.fleet.PodSampler;
import io.inferencegateway.lab.bench.fleet.PodStats;
import io.inferencegateway.lab.bench.gateway.LoadTarget;
import io.inferencegateway.lab.bench.global.GlobalLayout;
import io.inferencegateway.lab.bench.global.GlobalPolicy;
import io.inferencegateway.lab.bench.global.GlobalReport;
import io.inferencegateway.lab.bench.global.GlobalRun;
import io.inferencegateway.lab.bench.global.GlobalRunner;
import io.inferencegateway.lab.bench.global.RegionProfile;
import io.inferencegateway.lab.bench.gateway.GatewayLauncher;
import io.inferencegateway.lab.bench.gateway.ReplicaMode;
import io.inferencegateway.lab.bench.load.LiveCounters;
import io.inferencegateway.lab.bench.load.LoadGenerator;
import io.inferencegateway.lab.bench.load.LoadOptions;
import io.inferencegateway.lab.bench.load.RunRecording;
import io.inferencegateway.lab.bench.load.WarmUp;
import io.inferencegateway.lab.bench.report.Charts;
import io.inferencegateway.lab.bench.report.JsonReport;
import io.inferencegateway.lab.bench.report.MarkdownReport;
import io.inferencegateway.lab.bench.report.PredictionAccuracy;
import io.inferencegateway.lab.bench.report.Progress;
import io.inferencegateway.lab.bench.report.RunReport;
import io.inferencegateway.lab.bench.report.ServedPerPod;
import io.inferencegateway.lab.bench.report.SloAttainment;
import io.inferencegateway.lab.bench.workload.RequestPlan;
import io.inferencegateway.lab.bench.workload.Workload;

/**
 * Runs every scenario under every policy: for each pair a fresh fleet, a router in front of it and
 * the same request plan (same seed, same arrivals, same prompts), then writes the per-run JSON, the
 * Markdown tables and the charts into the output directory.
 *
 * <pre>
 * out/report.md                      one table per scenario
 * out/replicas.md                    with --replicas: hit rate, TTFT and /metrics load per replica count and mode
 * out/ttft-p99.png                   p99 TTFT per scenario and policy
 * out/SCENARIO/ttft-cdf.png          TTFT CDF per policy
 * out/SCENARIO/POLICY.json           one run: settings, summary, every request
 * out/SCENARIO/POLICY/gateway.*      the gateway's config and log for that run
 * </pre>
 */
public final class BenchRunner {

    /** Wall-clock period of the per-pod queue samples: a few per second costs next to nothing. */
    static final long POD_SAMPLE_MILLIS = 100;

    private final FleetLauncher fleets;
    private final GatewayLauncher gateways;
    private final String gatewayKind;
    private final PrintStream log;
    private final boolean terminal;
    private final List<ReplicaRuns> replicaRuns = new ArrayList<>();
    private GlobalRunner global;
    private RolloutBench rollout;
    private String command = "bench";

    /**
     * @param gatewayKind how requests reach the pods, for the reports: {@code process} or {@code direct}
     */
    public BenchRunner(FleetLauncher fleets, GatewayLauncher gateways, String gatewayKind, PrintStream log,
                       boolean terminal) {
        this.fleets = fleets;
        this.gateways = gateways;
        this.gatewayKind = gatewayKind;
        this.log = log;
        this.terminal = terminal;
    }

    /** Runs the {@code global} scenario with {@code runner}; without one that scenario cannot run. */
    public BenchRunner withGlobal(GlobalRunner runner) {
        this.global = runner;
        return this;
    }

    /** Runs the {@code rollout} scenario with {@code bench}; without one that scenario cannot run. */
    public BenchRunner withRollout(RolloutBench bench) {
        this.rollout = bench;
        return this;
    }

    /** Runs everything and returns the runs grouped by scenario. */
    public List<List<RunReport>> run(BenchSettings settings, String command) throws Exception {
        this.command = command;
        List<Scenario> scenarios = new ArrayList<>();
        for (String name : settings.scenarios()) {
            if (ConversationScenario.NAMES.contains(name) || RolloutScenario.NAME.equals(name)) {
                continue; // run below, each with a report of its own
            }
            scenarios.add(ScenarioCatalog.byName(name, settings.model()).orElseThrow(() -> new IllegalArgumentException(
                    "unknown scenario '" + name + "'; known: " + String.join(", ", ScenarioCatalog.names()) + ", "
                            + String.join(", ", ConversationScenario.NAMES) + ", " + RolloutScenario.NAME)));
        }
        Files.createDirectories(settings.out());
        List<List<RunReport>> all = new ArrayList<>();
        try (LoadGenerator generator = new LoadGenerator()) {
            for (Scenario scenario : scenarios) {
                all.add(runScenario(scenario, settings, generator));
                writeSummary(settings.out(), command, all);
            }
            for (String name : ConversationScenario.NAMES) {
                if (settings.scenarios().contains(name)) {
                    new ConversationBench(fleets, gateways, log, terminal).run(
                            ConversationScenario.byName(name, settings.model()).orElseThrow(), settings, generator,
                            command);
                }
            }
            if (settings.scenarios().contains(RolloutScenario.NAME)) {
                if (rollout == null) {
                    throw new IllegalArgumentException("the rollout scenario needs --gateway process");
                }
                rollout.run(RolloutScenario.standard(), settings, generator, command);
            }
        }
        if (!all.isEmpty()) {
            log.println("report: " + settings.out().resolve("report.md"));
        }
        return all;
    }

    private List<RunReport> runScenario(Scenario scenario, BenchSettings settings, LoadGenerator generator)
            throws Exception {
        if (GlobalLayout.SCENARIO.equals(scenario.name())) {
            return runGlobal(scenario, settings);
        }
        Workload workload = scenario.workload(settings.seed());
        double rate = settings.rate() != null ? settings.rate()
                : scenario.rateForLoad(settings.load() != null ? settings.load() : scenario.defaultLoad());
        Duration duration = settings.duration() != null ? settings.duration() : scenario.duration();
        int maxRequests = settings.maxRequests() != null ? settings.maxRequests() : scenario.maxRequests();
        double meanOutput = workload.shape().outputTokens();
        double timeScale = settings.timeScale() != null ? settings.timeScale()
                : TimeScaleChooser.choose(rate, meanOutput, settings.eventBudget());
        FleetSpec fleet = fleets.fleetFor(scenario.fleet()).withTimeScale(timeScale);
        RequestPlan plan = scenario.plan(settings.seed(), rate, duration, maxRequests);
        String arrivals = scenario.arrivals().withMeanRate(rate).describe();

        double wallEvents = TimeScaleChooser.simulatedEventRate(rate, meanOutput) * timeScale;
        if (fleet.isExternal()) {
            // the simulated fleet's capacity says nothing about the user's servers
            log.printf(Locale.ROOT, "%s: %d requests over %.0f s (%s) on %d %s servers, in real time%n",
                    scenario.name(), plan.size(), duration.toNanos() / 1e9, arrivals, fleet.pods().size(),
                    fleet.external().engine().displayName());
        } else {
            log.printf(Locale.ROOT, "%s: %d requests over %.0f s simulated (%s), time scale %s -> about %.0f s wall "
                            + "and %.0f SSE events/s per run; measured capacity %.1f req/s%n",
                    scenario.name(), plan.size(), duration.toSeconds() * 1.0, arrivals, timeScale,
                    duration.toNanos() / 1e9 / timeScale, wallEvents, scenario.capacity());
        }
        if (wallEvents > 1.5 * settings.eventBudget() && !fleet.isExternal()) {
            log.printf(Locale.ROOT, "warning: %.0f events/s is well above the budget of %.0f; the gateway or this "
                    + "machine may become the bottleneck and distort latencies%n", wallEvents, settings.eventBudget());
        }

        LoadOptions options = LoadOptions.defaults(timeScale).withRequestTimeout(settings.requestTimeout())
                .withDrainTimeout(settings.drainTimeout());
        List<RunReport> runs = new ArrayList<>();
        List<ReplicaRun> replicaRuns = new ArrayList<>();
        for (String policy : settings.policies()) {
            for (int replicas : settings.replicas()) {
                for (ReplicaMode mode : modesFor(policy, replicas, settings)) {
                    String label = label(policy, replicas, mode);
                    Path runDir = settings.out().resolve(scenario.name()).resolve(label);
                    RunRecording recording;
                    List<PodStats> podStats;
                    List<PodSample> before;
                    List<PodSample> after;
                    long scrapes;
                    List<FaultRecord> faults;
                    Long killedAtNanos = null;
                    List<String> endpoints;
                    try (Fleet pods = fleets.start(fleet, settings.seed());
                         LoadTarget gateway = gateways.start(fleet, policy, replicas, mode, pods.endpoints(), runDir)) {
                        // as the gateway config names them, and so its access log
                        endpoints = pods.endpoints().stream().map(p -> p.getHostString() + ":" + p.getPort()).toList();
                        WarmUp.run(fleet, gateway.targets());
                        LiveCounters counters = new LiveCounters();
                        before = pods.sample();
                        long scrapesBefore = pods.metricsScrapes();
                        PodSampler sampler = PodSampler.start(fleet, pods::sample, fleet.isExternal()
                                ? ExternalFleetLauncher.SAMPLE_EVERY.toMillis() : POD_SAMPLE_MILLIS);
                        // the generator's first intended send is its start delay after run() is called
                        FaultInjector injector = FaultInjector.start(pods, scenario.faults(), timeScale,
                                System.nanoTime() + LoadGenerator.START_DELAY_NANOS, log);
                        ScheduledExecutorService killer = null;
                        long killSim = 0;
                        if (settings.killReplicaAt() != null && replicas > 1) {
                            killSim = (long) (settings.killReplicaAt() * duration.toNanos());
                            killer = Executors.newSingleThreadScheduledExecutor();
                            long wallDelay = LoadGenerator.START_DELAY_NANOS + Math.round(killSim / timeScale);
                            killer.schedule(() -> gateway.kill(replicas - 1), wallDelay, TimeUnit.NANOSECONDS);
                            killedAtNanos = killSim;
                        }
                        try (Progress progress = Progress.start(log, terminal, scenario.name() + "/" + label, counters)) {
                            recording = generator.run(plan, gateway.targets(), gateway::live, options, counters);
                        } finally {
                            podStats = sampler.finish();
                            faults = injector.finish();
                            if (killer != null) {
                                killer.shutdownNow();
                            }
                        }
                        after = pods.sample();
                        scrapes = scrapesBefore < 0 ? -1 : pods.metricsScrapes() - scrapesBefore;
                    }
                    if (fleet.isExternal()) {
                        podStats = ServedPerPod.fillUnknown(podStats, runDir);
                    }
                    RunReport report = RunReport.of(scenario.name(), scenario.summary(), workload.describe(), arrivals,
                            label, gatewayKind, settings.seed(), rate, duration.toNanos() / 1e9, fleet, recording,
                            podStats, faults);
                    report = report.withPredictor(PredictionAccuracy.forRun(runDir, endpoints, report));
                    JsonReport.write(report, settings.out().resolve(scenario.name()).resolve(label + ".json"));
                    log.printf(Locale.ROOT, "  %-28s TTFT p50 %s p99 %s, %d errors, %d refused, send lag p99 %s%n",
                            label, fmt(report.summary().ttft().p50Ms()), fmt(report.summary().ttft().p99Ms()),
                            report.summary().errors(), report.summary().refused(), fmt(report.summary().sendLag().p99Ms()));
                    SloAttainment slo = report.slo();
                    if (!slo.isEmpty()) {
                        log.printf(Locale.ROOT, "    latency targets met by %.1f%% of %d requests, goodput %.1f req/s%n",
                                100 * slo.attainment(), slo.requests(), slo.goodput());
                    }
                    PredictionAccuracy predictor = report.predictor();
                    if (!predictor.isEmpty()) {
                        log.printf(Locale.ROOT, "    predicted TTFT off by %.1f%% on average (bias %+.1f%%) over %d "
                                + "responses%n", 100 * predictor.ttft().mape(), 100 * predictor.ttft().bias(),
                                predictor.ttft().count());
                    }
                    ReplicaRun replicaRun = ReplicaRun.of(label, policy, replicas, mode, recording, before, after,
                            scrapes, fleet.pods().size(), killedAtNanos);
                    log.println("    " + replicaRun.oneLine());
                    replicaRuns.add(replicaRun);
                    runs.add(report);
                }
            }
        }
        this.replicaRuns.add(new ReplicaRuns(scenario.name(), replicaRuns));
        Charts.ttftCdf(runs, settings.out().resolve(scenario.name()).resolve("ttft-cdf.png"));
        return runs;
    }

    /**
     * The {@code global} scenario: every policy of {@link GlobalPolicy#among} on fresh regions, each with its tier.
     * Tier traffic crosses two gateways, so the time scale is chosen from half the event budget.
     */
    private List<RunReport> runGlobal(Scenario scenario, BenchSettings settings) throws Exception {
        if (global == null) {
            throw new IllegalArgumentException("the global scenario needs --gateway process");
        }
        GlobalLayout layout = GlobalLayout.standard();
        Workload workload = scenario.workload(settings.seed());
        double capacity = scenario.capacity();
        double rate = settings.rate() != null ? settings.rate()
                : scenario.rateForLoad(settings.load() != null ? settings.load() : scenario.defaultLoad());
        double spikeRate = layout.spikeLoad() * capacity;
        Duration duration = settings.duration() != null ? settings.duration() : scenario.duration();
        int maxRequests = settings.maxRequests() != null ? settings.maxRequests() : scenario.maxRequests();
        double meanOutput = workload.shape().outputTokens();
        double timeScale = settings.timeScale() != null ? settings.timeScale()
                : TimeScaleChooser.choose(2 * rate + spikeRate, meanOutput, settings.eventBudget());
        FleetSpec fleet = scenario.fleet().withTimeScale(timeScale);
        RequestPlan plan = scenario.plan(settings.seed(), rate, duration, maxRequests);
        String arrivals = scenario.arrivals().withMeanRate(rate).describe();
        String setup = String.format(Locale.ROOT, "%s. Each region: %d pods (max_num_seqs %d), capacity about %.1f "
                        + "req/s; tier traffic %s (%d requests over %.0f s), %s. Regions: %s. Spike %.0f–%.0f s: %.1f "
                        + "req/s straight to the %s cluster's gateway. At %.0f s the %s cluster is lost (%s). Time scale "
                        + "%s; latencies in simulated time.",
                scenario.summary(), fleet.pods().size(), fleet.maxNumSeqs(), capacity, arrivals, plan.size(),
                duration.toMillis() / 1e3, workload.describe(), regions(layout), layout.spikeStart().toMillis() / 1e3,
                layout.spikeEnd().toMillis() / 1e3, spikeRate, layout.home().cluster(), layout.lossAt().toMillis() / 1e3,
                layout.lostRegion().cluster(), global.loss().label(), BigDecimal.valueOf(timeScale).round(new MathContext(3))
                        .stripTrailingZeros().toPlainString());
        log.println(GlobalLayout.SCENARIO + ": " + setup);
        LoadOptions options = LoadOptions.defaults(timeScale).withRequestTimeout(settings.requestTimeout())
                .withDrainTimeout(settings.drainTimeout());
        Path dir = settings.out().resolve(scenario.name());
        List<RunReport> runs = new ArrayList<>();
        List<GlobalRun> globalRuns = new ArrayList<>();
        for (String label : GlobalPolicy.among(settings.policies())) {
            GlobalPolicy policy = GlobalPolicy.of(label, layout.home().cluster());
            GlobalRunner.Outcome outcome = global.run(layout, policy, fleet, settings.seed(), plan, spikeRate,
                    ScenarioCatalog.globalSpike(fleet.modelName(), settings.seed()), options, settings.requestTimeout(),
                    dir.resolve(label), scenario.name() + "/" + label);
            RunReport report = RunReport.of(scenario.name(), scenario.summary(), workload.describe(), arrivals, label,
                    gatewayKind, settings.seed(), rate, duration.toNanos() / 1e9, fleet, outcome.recording());
            JsonReport.write(report, dir.resolve(label + ".json"));
            log.printf(Locale.ROOT, "  %-28s TTFT p50 %s p99 %s, %d errors, %d refused%n", label,
                    fmt(report.summary().ttft().p50Ms()), fmt(report.summary().ttft().p99Ms()),
                    report.summary().errors(), report.summary().refused());
            log.println("    " + GlobalRunner.oneLine(outcome.run()));
            runs.add(report);
            globalRuns.add(outcome.run());
            GlobalReport.write(dir, command, setup, globalRuns);
        }
        Charts.ttftCdf(runs, dir.resolve("ttft-cdf.png"));
        log.println("global report: " + dir.resolve("global.md"));
        return runs;
    }

    private static String regions(GlobalLayout layout) {
        List<String> parts = new ArrayList<>();
        for (RegionProfile r : layout.regions()) {
            parts.add(String.format(Locale.ROOT, "%s (%s, %d ms each way, %.2f / %.2f per million input / output "
                    + "tokens)", r.cluster(), r.region(), r.oneWayDelay().toMillis(), r.inputPrice(), r.outputPrice()));
        }
        return String.join(", ", parts) + "; home " + layout.home().region();
    }

    /**
     * The gpu-aware policy runs every replica mode; the others have no replica awareness to compare. One gateway runs
     * naive only when naive is asked for: it is the baseline the replica runs are held against.
     */
    static List<ReplicaMode> modesFor(String policy, int replicas, BenchSettings settings) {
        if (!"gpu-aware".equals(policy)) {
            return List.of(ReplicaMode.NAIVE);
        }
        if (replicas == 1 && settings.replicaModes().contains(ReplicaMode.NAIVE)) {
            return List.of(ReplicaMode.NAIVE);
        }
        return settings.replicaModes();
    }

    /** The policy alone for one naive gateway (as before replicas existed), else policy-Nx-mode. */
    static String label(String policy, int replicas, ReplicaMode mode) {
        return replicas == 1 && mode == ReplicaMode.NAIVE ? policy : policy + "-" + replicas + "x-" + mode.label();
    }

    private void writeSummary(Path out, String command, List<List<RunReport>> all) throws IOException {
        Files.writeString(out.resolve("report.md"),
                MarkdownReport.document("Routing benchmark", command, all), StandardCharsets.UTF_8);
        if (replicaRuns.stream().anyMatch(r -> r.runs().stream().anyMatch(run -> run.replicas() > 1
                || run.mode() != ReplicaMode.NAIVE))) {
            Files.writeString(out.resolve("replicas.md"), ReplicaRuns.markdown(command, replicaRuns),
                    StandardCharsets.UTF_8);
        }
        Charts.p99Bars(all, out.resolve("ttft-p99.png"));
    }

    private static String fmt(double ms) {
        return Double.isFinite(ms) ? String.format(Locale.ROOT, "%.1f ms", ms) : "-";
    }
}
