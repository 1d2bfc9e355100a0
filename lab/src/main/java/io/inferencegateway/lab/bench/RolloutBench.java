package io.inferencegateway.lab.bench;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.inferencegateway.lab.bench.fleet.Fleet;
import io.inferencegateway.lab.bench.fleet.FleetLauncher;
import io.inferencegateway.lab.bench.fleet.FleetSpec;
import io.inferencegateway.lab.bench.fleet.PodFault;
import io.inferencegateway.lab.bench.fleet.PodSpec;
import io.inferencegateway.lab.bench.gateway.GatewayConfigWriter;
import io.inferencegateway.lab.bench.gateway.GatewayProcess;
import io.inferencegateway.lab.bench.gateway.RolloutConfigWriter;
import io.inferencegateway.lab.bench.load.LiveCounters;
import io.inferencegateway.lab.bench.load.LoadGenerator;
import io.inferencegateway.lab.bench.load.LoadOptions;
import io.inferencegateway.lab.bench.load.RunRecording;
import io.inferencegateway.lab.bench.report.Progress;
import io.inferencegateway.lab.bench.report.RolloutOutcome;
import io.inferencegateway.lab.bench.report.RolloutReport;
import io.inferencegateway.lab.bench.workload.PoissonArrivals;
import io.inferencegateway.lab.bench.workload.RequestPlan;

/**
 * Runs the {@code rollout} scenario: for each candidate variant, fresh pools for both versions, one gateway with the
 * rewrite and its rollout, and the same requests; which version served each one is read from the response's
 * {@code model}.
 */
public final class RolloutBench {

    private final FleetLauncher fleets;
    private final List<String> gatewayCommand;
    private final Duration readyTimeout;
    private final PrintStream log;
    private final boolean terminal;

    public RolloutBench(FleetLauncher fleets, List<String> gatewayCommand, Duration readyTimeout, PrintStream log,
                        boolean terminal) {
        this.fleets = fleets;
        this.gatewayCommand = List.copyOf(gatewayCommand);
        this.readyTimeout = readyTimeout;
        this.log = log;
        this.terminal = terminal;
    }

    List<RolloutOutcome> run(RolloutScenario scenario, BenchSettings settings, LoadGenerator generator, String command)
            throws Exception {
        Duration span = settings.duration() != null ? settings.duration() : scenario.span();
        double rate = settings.rate() != null ? settings.rate() : scenario.rate();
        int maxRequests = settings.maxRequests() != null ? settings.maxRequests() : Integer.MAX_VALUE;
        RequestPlan plan = RequestPlan.build(scenario.workload(), new PoissonArrivals(rate), settings.seed(), span,
                maxRequests);
        double timeScale = settings.timeScale() != null ? settings.timeScale()
                : TimeScaleChooser.choose(rate, scenario.workload().shape().outputTokens(), settings.eventBudget());
        FleetSpec baseline = scenario.baseline().withTimeScale(timeScale);
        String setup = String.format(Locale.ROOT, "%s. Clients ask for `%s`: %s, %d requests at %.0f/s (Poisson) over "
                        + "%d s. The analysis needs %d requests a side and allows the candidate %.0f point more errors "
                        + "and %.1fx the baseline's TTFT and TPOT p90, checked every %d ms. Seed %d, time scale %s; "
                        + "times in simulated seconds from the first request.",
                scenario.summary(), scenario.plan().name(), scenario.workload().describe(), plan.size(), rate,
                span.toSeconds(), scenario.plan().minSamples(), 100 * scenario.plan().errorRate(),
                scenario.plan().latencyRatio(), scenario.plan().interval().toMillis(), settings.seed(),
                TimeScaleChooser.format(timeScale));
        log.println(scenario.name() + ": " + setup);
        LoadOptions options = LoadOptions.defaults(timeScale).withRequestTimeout(settings.requestTimeout())
                .withDrainTimeout(settings.drainTimeout());
        Path dir = settings.out().resolve(scenario.name());
        List<RolloutOutcome> runs = new ArrayList<>();
        for (RolloutScenario.Variant variant : scenario.variants()) {
            FleetSpec candidate = withSpeed(scenario.candidate(), variant.speed()).withTimeScale(timeScale);
            Path runDir = dir.resolve(variant.label());
            Files.createDirectories(runDir);
            String[] served = new String[plan.size()];
            RunRecording recording;
            try (Fleet v1 = fleets.start(baseline, settings.seed()); Fleet v2 = fleets.start(candidate, settings.seed() + 1)) {
                if (variant.errorShare() > 0) {
                    for (int i = 0; i < candidate.pods().size(); i++) {
                        v2.inject(new PodFault(0, i, PodFault.Kind.ERRORS, variant.errorShare()));
                    }
                }
                Path config = runDir.resolve("gateway.yaml");
                Files.writeString(config, RolloutConfigWriter.render(baseline, v1.endpoints(), candidate, v2.endpoints(),
                        scenario.plan(), settings.requestTimeout(), GatewayConfigWriter.DEFAULT_METRICS_INTERVAL));
                try (GatewayProcess gateway = GatewayProcess.start(gatewayCommand, config, GatewayProcess.freePort(),
                        runDir.resolve("gateway.log"), readyTimeout)) {
                    LiveCounters counters = new LiveCounters();
                    try (Progress progress = Progress.start(log, terminal, scenario.name() + "/" + variant.label(),
                            counters)) {
                        recording = generator.run(plan, gateway.targets(), t -> true, options, counters,
                                (index, id, model) -> served[index] = model);
                    }
                }
            }
            RolloutOutcome outcome = RolloutOutcome.of(variant.label(), variant.fault(), recording.results(), served,
                    baseline.modelName(), candidate.modelName());
            runs.add(outcome);
            log.printf(Locale.ROOT, "  %-10s %s%s; the candidate served %d requests first (%.2f%% of the model's "
                            + "traffic); %d client errors%n", variant.label(), outcome.verdict(),
                    Double.isFinite(outcome.timeToVerdictS())
                            ? String.format(Locale.ROOT, " %.1f s after its first request", outcome.timeToVerdictS()) : "",
                    outcome.candidateServed(), 100 * outcome.shareBeforeVerdict(), outcome.errors());
            RolloutReport.write(dir, command, setup, runs);
        }
        log.println("rollout report: " + dir.resolve("rollout.md"));
        return runs;
    }

    private static FleetSpec withSpeed(FleetSpec fleet, double speed) {
        List<PodSpec> pods = fleet.pods().stream().map(p -> new PodSpec(p.name(), speed)).toList();
        return new FleetSpec(fleet.modelName(), pods, fleet.loraAdapters(), fleet.maxLoras(), fleet.kvBlocksPerPod(),
                fleet.maxNumSeqs(), fleet.maxNumBatchedTokens(), fleet.timeScale());
    }
}
