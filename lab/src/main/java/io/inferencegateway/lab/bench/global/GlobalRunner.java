package io.inferencegateway.lab.bench.global;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.inferencegateway.lab.bench.fleet.FleetLauncher;
import io.inferencegateway.lab.bench.fleet.FleetSpec;
import io.inferencegateway.lab.bench.gateway.GatewayProcess;
import io.inferencegateway.lab.bench.load.LiveCounters;
import io.inferencegateway.lab.bench.load.LoadGenerator;
import io.inferencegateway.lab.bench.load.LoadOptions;
import io.inferencegateway.lab.bench.load.RequestResult;
import io.inferencegateway.lab.bench.load.RunRecording;
import io.inferencegateway.lab.bench.report.Progress;
import io.inferencegateway.lab.bench.workload.PoissonArrivals;
import io.inferencegateway.lab.bench.workload.RequestPlan;
import io.inferencegateway.lab.bench.workload.Workload;

/**
 * Runs the {@code global} scenario under one policy: every region afresh (pods, cluster gateway, delayed link), a
 * global tier gateway in front of the links, the scenario's traffic through the tier, the spike straight into the
 * home cluster's gateway, and the loss of a cluster at its time. The tier's config and log are kept in the run's
 * directory, each region's beside them.
 *
 * <pre>
 * out/global/POLICY/tier.yaml, tier.log      the tier
 * out/global/POLICY/CLUSTER/gateway.*        each region's cluster gateway
 * </pre>
 */
public final class GlobalRunner {

    private final FleetLauncher fleets;
    private final List<String> gatewayCommand;
    private final Duration readyTimeout;
    private final Duration metricsInterval;
    private final ClusterLoss loss;
    private final PrintStream log;
    private final boolean terminal;

    /**
     * @param gatewayCommand  how to run a gateway ({@code java -jar ...}), for the clusters and the tier
     * @param metricsInterval the cluster gateways' scrape interval, simulated time
     */
    public GlobalRunner(FleetLauncher fleets, List<String> gatewayCommand, Duration readyTimeout,
                        Duration metricsInterval, ClusterLoss loss, PrintStream log, boolean terminal) {
        this.fleets = fleets;
        this.gatewayCommand = List.copyOf(gatewayCommand);
        this.readyTimeout = readyTimeout;
        this.metricsInterval = metricsInterval;
        this.loss = loss;
        this.log = log;
        this.terminal = terminal;
    }

    public ClusterLoss loss() {
        return loss;
    }

    /** What one policy's run recorded: the tier's traffic as a recording, and the scenario's own numbers. */
    public record Outcome(RunRecording recording, GlobalRun run) {
    }

    /**
     * @param fleet        one region's fleet, at the run's time scale
     * @param plan         the tier's traffic
     * @param spikeRate    the spike's arrivals per simulated second
     * @param spikeTraffic what the spike's requests are
     */
    public Outcome run(GlobalLayout layout, GlobalPolicy policy, FleetSpec fleet, long seed, RequestPlan plan,
                       double spikeRate, Workload spikeTraffic, LoadOptions options, Duration requestTimeout,
                       Path runDir, String progressLabel) throws Exception {
        Files.createDirectories(runDir);
        double timeScale = fleet.timeScale();
        List<RunningRegion> regions = new ArrayList<>();
        GatewayProcess tier = null;
        try {
            for (int i = 0; i < layout.regions().size(); i++) {
                RegionProfile spec = layout.regions().get(i);
                regions.add(RunningRegion.start(spec, fleets, fleet, seed + i, gatewayCommand, requestTimeout,
                        metricsInterval, runDir.resolve(spec.cluster())));
            }
            Path config = runDir.resolve("tier.yaml");
            Files.writeString(config, TierConfigWriter.render(fleet.modelName(),
                    regions.stream().map(r -> new TierConfigWriter.Cluster(r.spec(), r.linkAddress())).toList(),
                    policy, wall(requestTimeout, timeScale), true));
            Path tierLog = runDir.resolve("tier.log");
            tier = GatewayProcess.spawn(gatewayCommand, config, GatewayProcess.freePort(), tierLog);
            for (RunningRegion r : regions) {
                r.gateway().awaitReady(readyTimeout);
            }
            tier.awaitReady(readyTimeout);

            RequestPlan spike = RequestPlan.build(spikeTraffic, new PoissonArrivals(spikeRate), seed + 1000,
                    layout.spikeEnd().minus(layout.spikeStart()), 100_000);
            RunningRegion home = regions.get(0);
            RunningRegion lost = regions.get(layout.lost());
            ExecutorService side = Executors.newFixedThreadPool(2, r -> {
                Thread t = new Thread(r, "global-scenario");
                t.setDaemon(true);
                return t;
            });
            LiveCounters counters = new LiveCounters();
            RunRecording recording;
            Future<RunRecording> spikeRun;
            Future<Long> lossAt;
            long start = System.nanoTime() + LoadGenerator.START_DELAY_NANOS;
            double startEpochMillis = System.currentTimeMillis() + LoadGenerator.START_DELAY_NANOS / 1e6;
            try (LoadGenerator spikeLoad = new LoadGenerator(); LoadGenerator tierLoad = new LoadGenerator()) {
                spikeRun = side.submit(() -> {
                    parkUntil(start + wall(layout.spikeStart(), timeScale).toNanos());
                    return spikeLoad.run(spike, List.of(home.gatewayAddress()), options, new LiveCounters());
                });
                lossAt = side.submit(() -> {
                    parkUntil(start + wall(layout.lossAt(), timeScale).toNanos());
                    long epoch = System.currentTimeMillis();
                    lost.lose(loss);
                    log.printf(Locale.ROOT, "    %s lost (%s) at %.1f s%n", lost.spec().cluster(), loss.label(),
                            layout.lossAt().toMillis() / 1e3);
                    return epoch;
                });
                try (Progress progress = Progress.start(log, terminal, progressLabel, counters)) {
                    recording = tierLoad.run(plan, List.of(tier.address()), options, counters);
                }
                RunRecording spikeRecording = spikeRun.get();
                long lossEpochMillis = lossAt.get();
                side.shutdownNow();
                tier.close(); // the log is complete once the tier has stopped
                tier = null;
                List<TierLogEntry> entries = TierLogEntry.read(tierLog);
                GlobalRun run = GlobalRun.of(policy.label(), layout, loss, recording.results(),
                        plan.durationNanos() / 1e9, entries, startEpochMillis, lossEpochMillis, timeScale,
                        spikeRecording.results());
                return new Outcome(recording, run);
            } finally {
                side.shutdownNow();
                side.awaitTermination(5, TimeUnit.SECONDS);
            }
        } finally {
            if (tier != null) {
                tier.close();
            }
            for (RunningRegion r : regions) {
                r.close();
            }
        }
    }

    /** A simulated duration in wall time. */
    static Duration wall(Duration simulated, double timeScale) {
        return Duration.ofNanos(Math.round(simulated.toNanos() / timeScale));
    }

    private static void parkUntil(long deadline) throws InterruptedException {
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }

    /** The report line of one run, as the other scenarios print theirs. */
    public static String oneLine(GlobalRun run) {
        GlobalRun.LossOutcome l = run.loss();
        return String.format(Locale.ROOT, "loss of %s: %s, %d failed after it, %d after detection", l.cluster(),
                l.detected() ? String.format(Locale.ROOT, "detected in %.0f ms", l.detectionMillis()) : "not detected",
                l.failedAfterLoss(), l.failedAfterDetection());
    }
}
