package io.inferencegateway.lab.bench;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.inferencegateway.lab.bench.fleet.Fleet;
import io.inferencegateway.lab.bench.fleet.FleetLauncher;
import io.inferencegateway.lab.bench.fleet.FleetSpec;
import io.inferencegateway.lab.bench.fleet.PodSample;
import io.inferencegateway.lab.bench.gateway.GatewayLauncher;
import io.inferencegateway.lab.bench.gateway.LoadTarget;
import io.inferencegateway.lab.bench.gateway.ReplicaMode;
import io.inferencegateway.lab.bench.load.ConversationRecording;
import io.inferencegateway.lab.bench.load.LiveCounters;
import io.inferencegateway.lab.bench.load.LoadGenerator;
import io.inferencegateway.lab.bench.load.LoadOptions;
import io.inferencegateway.lab.bench.load.WarmUp;
import io.inferencegateway.lab.bench.report.ConversationReport;
import io.inferencegateway.lab.bench.report.ConversationSummary;
import io.inferencegateway.lab.bench.report.Progress;
import io.inferencegateway.lab.bench.workload.ConversationPlan;

/**
 * Runs the {@code conversations} scenario: every policy with every replica count, each on a fresh fleet (no cache
 * carries over), the same conversations each time. Several gpu-aware replicas run with the {@code replicas} section
 * in each mode {@code --replica-modes} names but naive (rendezvous when it names none); the other policies have
 * nothing to share.
 */
final class ConversationBench {

    /**
     * Fastest the scenario runs unless {@code --time-scale} says otherwise: its event rate would allow 10, but every
     * wall millisecond the gateway and a busy machine add to a turn counts that many times in simulated TTFT, and
     * the few-ms differences between a cache hit and a miss would drown in it.
     */
    static final double MAX_TIME_SCALE = 4;

    private final FleetLauncher fleets;
    private final GatewayLauncher gateways;
    private final PrintStream log;
    private final boolean terminal;

    ConversationBench(FleetLauncher fleets, GatewayLauncher gateways, PrintStream log, boolean terminal) {
        this.fleets = fleets;
        this.gateways = gateways;
        this.log = log;
        this.terminal = terminal;
    }

    List<ConversationSummary> run(ConversationScenario scenario, BenchSettings settings, LoadGenerator generator,
                                  String command) throws Exception {
        ConversationPlan plan = scenario.plan(settings.seed(), settings.duration());
        double turnRate = scenario.turnRate(plan);
        double meanAnswer = scenario.workload().answerTokens().mean();
        double timeScale = settings.timeScale() != null ? settings.timeScale()
                : Math.min(MAX_TIME_SCALE, TimeScaleChooser.choose(turnRate, meanAnswer, settings.eventBudget()));
        FleetSpec fleet = scenario.fleet().withTimeScale(timeScale);
        String setup = String.format(Locale.ROOT, "%s. %s; %d conversations (%d turns) starting at Poisson arrivals of "
                        + "%.2f/s over %d s. Fleet: %d pods, KV cache %d blocks of 16 tokens each, max_num_seqs %d. "
                        + "Seed %d, time scale %s; latencies in simulated time.",
                scenario.summary(), scenario.workload().describe(), plan.conversations().size(), plan.turnCount(),
                scenario.conversationsPerSecond(), plan.spanNanos() / 1_000_000_000L, fleet.pods().size(),
                fleet.kvBlocksPerPod(), fleet.maxNumSeqs(), settings.seed(), TimeScaleChooser.format(timeScale));
        log.println(scenario.name() + ": " + setup);
        LoadOptions options = LoadOptions.defaults(timeScale).withRequestTimeout(settings.requestTimeout())
                .withDrainTimeout(settings.drainTimeout());
        Path dir = settings.out().resolve(scenario.name());
        List<ConversationSummary> runs = new ArrayList<>();
        for (String policy : settings.policies()) {
            for (int replicas : settings.replicas()) {
                for (ReplicaMode mode : modes(policy, replicas, settings.replicaModes())) {
                    String label = replicas == 1 ? policy : policy + "-" + replicas + "x"
                            + (mode == ReplicaMode.RENDEZVOUS || mode == ReplicaMode.NAIVE ? "" : "-" + mode.label());
                    ConversationRecording recording;
                    long preemptions;
                    try (Fleet pods = fleets.start(fleet, settings.seed());
                         LoadTarget gateway = gateways.start(fleet, policy, replicas, mode, pods.endpoints(),
                                 dir.resolve(label))) {
                        WarmUp.run(fleet, gateway.targets());
                        LiveCounters counters = new LiveCounters();
                        List<PodSample> before = pods.sample();
                        String name = scenario.name() + "/" + label;
                        try (Progress progress = Progress.start(log, terminal, name, counters)) {
                            recording = generator.run(plan, gateway.targets(), gateway::live, options, counters);
                        }
                        preemptions = preemptions(before, pods.sample());
                    }
                    ConversationSummary summary = ConversationSummary.of(label, policy, replicas, recording,
                            fleet.pods().size(), preemptions);
                    runs.add(summary);
                    log.printf(Locale.ROOT, "  %-28s hit rate %s, same pod %s, TTFT mean %.0f ms p90 %.0f ms "
                                    + "p99 %.0f ms, turns per pod %s, %d errors, %.0f s wall%n", label,
                            pct(summary.hitRate()), pct(summary.samePod()), summary.ttft().meanMs(),
                            summary.ttft().p90Ms(), summary.ttft().p99Ms(), ConversationReport.podTurns(summary),
                            summary.errors(), recording.wallNanos() / 1e9);
                    ConversationReport.write(dir, command, setup, runs);
                }
            }
        }
        log.println("conversations report: " + dir.resolve("conversations.md"));
        return runs;
    }

    /**
     * The replica modes a policy runs in: one gateway alone; GPU-aware replicas in each mode asked for but naive
     * (rendezvous when none is), the others naive.
     */
    static List<ReplicaMode> modes(String policy, int replicas, List<ReplicaMode> asked) {
        if (replicas == 1 || !policy.startsWith("gpu-aware")) {
            return List.of(ReplicaMode.NAIVE);
        }
        List<ReplicaMode> modes = asked.stream().filter(m -> m != ReplicaMode.NAIVE).toList();
        return modes.isEmpty() ? List.of(ReplicaMode.RENDEZVOUS) : modes;
    }

    /** Preemptions the pods counted between two samples; -1 when the fleet cannot tell. */
    static long preemptions(List<PodSample> before, List<PodSample> after) {
        if (before.isEmpty() || before.size() != after.size()) {
            return -1;
        }
        long sum = 0;
        for (int i = 0; i < before.size(); i++) {
            sum += after.get(i).preemptions() - before.get(i).preemptions();
        }
        return sum;
    }

    private static String pct(double share) {
        return Double.isFinite(share) ? String.format(Locale.ROOT, "%.1f%%", 100 * share) : "-";
    }
}
