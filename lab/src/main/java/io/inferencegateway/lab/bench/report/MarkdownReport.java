package io.inferencegateway.lab.bench.report;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

import io.inferencegateway.lab.bench.fleet.FaultRecord;
import io.inferencegateway.lab.bench.fleet.FleetSpec;
import io.inferencegateway.lab.bench.fleet.PodFault;
import io.inferencegateway.lab.bench.fleet.PodSpec;
import io.inferencegateway.lab.bench.fleet.PodStats;
import io.inferencegateway.lab.bench.load.RequestResult;

/**
 * The Markdown summary: per scenario, one table row per policy and each policy's TTFT relative to
 * round-robin (0.18× = 82% lower).
 */
public final class MarkdownReport {

    public static final String BASELINE = "round-robin";
    /** Send lag above this share of p99 TTFT means the generator could not keep to the schedule. */
    static final double LAG_WARNING_SHARE = 0.1;

    /**
     * What a report on a user's own servers must say before its numbers: every run found the caches the runs before it
     * left, which favours the later ones wherever prompts repeat.
     */
    static final String EXTERNAL_CAVEAT = "The servers' caches carried over: the bench cannot restart servers it does "
            + "not run, so each run found the prefix caches that the runs before it (and anything else the servers "
            + "served) left, and a later run may find cached what an earlier one had to compute. The runs went one "
            + "after another in the order of each table, top to bottom, each once the servers had finished the "
            + "requests of the one before. For a fair comparison restart the servers between runs: run one policy per "
            + "invocation (`--policies round-robin`, restart, `--policies gpu-aware`, with the same `--seed`), or "
            + "at least read the first run of each scenario as the only one that started cold.";

    private MarkdownReport() {
    }

    /** A whole report: a heading, then one section per scenario (each list holds one scenario's runs). */
    public static String document(String title, String command, List<List<RunReport>> scenarios) {
        StringBuilder md = new StringBuilder();
        md.append("# ").append(title).append("\n\n");
        if (command != null && !command.isBlank()) {
            md.append("Command: `").append(command).append("`\n\n");
        }
        boolean external = scenarios.stream().flatMap(List::stream).anyMatch(r -> r.fleet().isExternal());
        md.append(external ? "All times are wall-clock: the pods are servers the bench does not run, so it runs in "
                        + "real time (time scale 1). " : "All times are simulated (wall-clock × time scale). ")
                .append("Latency columns cover successful requests; ")
                .append("TTFT and E2E count from each request's intended send time. ")
                .append("Ratios are relative to ").append(BASELINE).append(" (lower is better).\n\n");
        if (external) {
            md.append(EXTERNAL_CAVEAT).append("\n\n");
        }
        for (List<RunReport> runs : scenarios) {
            md.append(scenarioSection(runs)).append('\n');
        }
        return md.toString();
    }

    public static String scenarioSection(List<RunReport> runs) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no runs");
        }
        RunReport first = runs.get(0);
        StringBuilder md = new StringBuilder();
        md.append("## ").append(first.scenario()).append("\n\n");
        md.append(first.scenarioSummary()).append(".\n\n");
        md.append("- Fleet: ").append(describe(first.fleet())).append('\n');
        md.append("- Workload: ").append(first.workload()).append('\n');
        md.append(String.format(Locale.ROOT, "- Arrivals: %s over %.0f s; seed %d; time scale %s; gateway %s%n",
                first.arrivals(), first.durationSeconds(), first.seed(), trim(first.recording().timeScale()),
                first.gateway().equals("direct") ? "direct (no gateway: client-side round-robin, so every policy "
                        + "row measures the same thing)" : first.gateway()));
        md.append('\n');

        Optional<RunReport> baseline = runs.stream().filter(r -> r.policy().equals(BASELINE)).findFirst();
        md.append("| policy | requests | TTFT mean | TTFT p50 | TTFT p90 | TTFT p99 | ITL p50 | ITL p99 | E2E p99 "
                + "| output tok/s | errors | refused (429) |");
        if (baseline.isPresent()) {
            md.append(" TTFT mean vs RR | TTFT p50 vs RR | TTFT p90 vs RR | TTFT p99 vs RR |");
        }
        md.append(" send lag p99 |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        if (baseline.isPresent()) {
            md.append("---:|---:|---:|---:|");
        }
        md.append("---:|\n");
        for (RunReport run : runs) {
            RunSummary s = run.summary();
            md.append("| ").append(run.policy())
                    .append(" | ").append(s.requests())
                    .append(" | ").append(time(s.ttft().meanMs()))
                    .append(" | ").append(time(s.ttft().p50Ms()))
                    .append(" | ").append(time(s.ttft().p90Ms()))
                    .append(" | ").append(time(s.ttft().p99Ms()))
                    .append(" | ").append(time(s.itl().p50Ms()))
                    .append(" | ").append(time(s.itl().p99Ms()))
                    .append(" | ").append(time(s.e2e().p99Ms()))
                    .append(" | ").append(String.format(Locale.ROOT, "%.0f", s.outputTokensPerSecond()))
                    .append(" | ").append(s.errors())
                    .append(" | ").append(s.refused());
            if (baseline.isPresent()) {
                RunSummary b = baseline.get().summary();
                md.append(" | ").append(ratio(s, b, x -> x.ttft().meanMs()))
                        .append(" | ").append(ratio(s, b, x -> x.ttft().p50Ms()))
                        .append(" | ").append(ratio(s, b, x -> x.ttft().p90Ms()))
                        .append(" | ").append(ratio(s, b, x -> x.ttft().p99Ms()));
            }
            md.append(" | ").append(time(s.sendLag().p99Ms())).append(" |\n");
        }
        if (baseline.isEmpty()) {
            md.append("\nNo ").append(BASELINE).append(" run, so no ratios.\n");
        }
        md.append(classSection(runs));
        md.append(sloSection(runs));
        md.append(faultSection(runs));
        md.append(predictorSection(runs));
        md.append(podSection(runs));
        for (RunReport run : runs) {
            LatencySummary lag = run.summary().sendLag();
            LatencySummary ttft = run.summary().ttft();
            if (lag.p99Ms() > LAG_WARNING_SHARE * ttft.p99Ms()) {
                md.append(String.format(Locale.ROOT, "%nWarning: in the %s run the load generator sent its p99 request "
                        + "%s late, over %.0f%% of that run's p99 TTFT (%s): the machine was too busy to keep the "
                        + "schedule, so treat its tail latencies as unreliable.%n", run.policy(), time(lag.p99Ms()),
                        LAG_WARNING_SHARE * 100, time(ttft.p99Ms())));
            }
        }
        return md.toString();
    }

    /**
     * Per priority class and policy: requests, TTFT of the served ones, errors and refusals with their
     * reasons. Critical's p99 is compared with the baseline's critical p99. Empty when no request had a class.
     */
    static String classSection(List<RunReport> runs) {
        if (runs.stream().allMatch(r -> r.summary().classes().isEmpty())) {
            return "";
        }
        Optional<RunReport> baseline = runs.stream().filter(r -> r.policy().equals(BASELINE)).findFirst();
        StringBuilder md = new StringBuilder("\nPer priority class (`x-gateway-priority`); refusals are 429 answers "
                + "by their `x-gateway-dropped-reason`:\n\n| policy | class | requests | served | TTFT mean | TTFT p50 "
                + "| TTFT p99 | TTFT p99 vs RR's same class | errors | refused | refusal reasons | with Retry-After |\n"
                + "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|\n");
        for (RunReport run : runs) {
            for (ClassSummary c : run.summary().classes()) {
                String vsBaseline = baseline.flatMap(b -> b.summary().classes().stream()
                                .filter(x -> x.priority().equals(c.priority())).findFirst())
                        .map(b -> ratio(c.ttft().p99Ms(), b.ttft().p99Ms())).orElse("–");
                String reasons = c.refusedByReason().isEmpty() ? "–" : c.refusedByReason().entrySet().stream()
                        .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
                md.append("| ").append(run.policy()).append(" | ").append(c.priority())
                        .append(" | ").append(c.requests()).append(" | ").append(c.ok())
                        .append(" | ").append(time(c.ttft().meanMs())).append(" | ").append(time(c.ttft().p50Ms()))
                        .append(" | ").append(time(c.ttft().p99Ms())).append(" | ").append(vsBaseline)
                        .append(" | ").append(c.errors()).append(" | ").append(c.refused())
                        .append(" | ").append(reasons).append(" | ").append(c.refusedWithRetryAfter()).append(" |\n");
            }
        }
        return md.toString();
    }

    /**
     * Per latency class and policy: how many requests met their targets (attainment), why the others missed, the
     * goodput, and TTFT/TPOT of the served ones; then one row per policy over all classes. Empty when no request
     * carried targets.
     */
    static String sloSection(List<RunReport> runs) {
        List<SloAttainment> slos = runs.stream().map(RunReport::slo).toList();
        if (slos.stream().allMatch(SloAttainment::isEmpty)) {
            return "";
        }
        StringBuilder md = new StringBuilder(String.format(Locale.ROOT, "%nLatency targets (`x-slo-ttft-ms`, "
                + "`x-slo-tpot-ms`): a request meets them when it is served with its TTFT, and its TPOT where the class "
                + "sets one, at or under the target; refused and failed requests miss. Attainment is the share of sent "
                + "requests that met them, goodput how many met them per simulated second of the %s s of arrivals:%n%n",
                trim(slos.get(0).arrivalSeconds())));
        md.append("| policy | class | priority | targets | sent | met | attainment | TTFT missed | TPOT missed "
                + "| not served | goodput (req/s) | TTFT p50 | TTFT p99 | TPOT p99 |\n"
                + "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (int i = 0; i < runs.size(); i++) {
            String policy = runs.get(i).policy();
            SloAttainment slo = slos.get(i);
            if (slo.isEmpty()) {
                continue;
            }
            for (SloSummary c : slo.classes()) {
                md.append("| ").append(policy).append(" | ").append(c.slo().name())
                        .append(" | ").append(c.priority().isEmpty() ? "–" : c.priority())
                        .append(" | ").append(c.slo().describeTargets())
                        .append(" | ").append(c.requests()).append(" | ").append(c.met())
                        .append(" | ").append(percent(c.attainment()))
                        .append(" | ").append(c.ttftMissed()).append(" | ").append(c.tpotMissed())
                        .append(" | ").append(c.notServed())
                        .append(" | ").append(String.format(Locale.ROOT, "%.1f", c.goodput()))
                        .append(" | ").append(time(c.ttft().p50Ms())).append(" | ").append(time(c.ttft().p99Ms()))
                        .append(" | ").append(time(c.tpot().p99Ms())).append(" |\n");
            }
            md.append("| ").append(policy).append(" | **all** | | | ").append(slo.requests())
                    .append(" | ").append(slo.met()).append(" | ").append(percent(slo.attainment()))
                    .append(" | | | | **").append(String.format(Locale.ROOT, "%.1f", slo.goodput()))
                    .append("** | | | |\n");
        }
        return md.toString();
    }

    /**
     * The faults each run injected and what failed: failures that are streams a kill cut (the target) and
     * any others, with their causes. Empty when no run injected a fault.
     */
    static String faultSection(List<RunReport> runs) {
        if (runs.stream().allMatch(r -> r.faults().isEmpty())) {
            return "";
        }
        StringBuilder md = new StringBuilder();
        for (RunReport run : runs) {
            if (run.faults().isEmpty()) {
                continue;
            }
            md.append("\nFaults in the ").append(run.policy()).append(" run:\n\n");
            for (FaultRecord f : run.faults()) {
                md.append(String.format(Locale.ROOT, "- at %.1f s pod-%d %s; it held %d requests%s%n",
                        f.appliedAtSeconds(), f.fault().pod(), f.fault().describe(), f.heldRequests(),
                        f.fault().kind() == PodFault.Kind.KILL ? ", the kill cut " + f.cutRequestIds().size()
                                + " streams" : ""));
            }
            FaultOutcome o = FaultOutcome.of(run.recording().results(), run.faults());
            md.append(String.format(Locale.ROOT, "%n%d of %d requests failed: %d were streams the kill cut, %d others%s%n",
                    o.failed(), run.summary().requests(), o.cutByKill(), o.unexplained().size(),
                    o.unexplained().isEmpty() ? " (the target holds)." : " (the target is missed)."));
            if (!o.causes().isEmpty()) {
                md.append("\n| cause | requests |\n|---|---:|\n");
                o.causes().forEach((cause, n) -> md.append("| ").append(cause.replace("|", "\\|")).append(" | ")
                        .append(n).append(" |\n"));
            }
            List<RequestResult> first = o.unexplained().subList(0, Math.min(10, o.unexplained().size()));
            for (RequestResult r : first) {
                md.append(String.format(Locale.ROOT, "- not explained by the kill: request %d sent at %.2f s: %s, %s%n",
                        r.index(), r.intendedNanos() / 1e9, r.outcome(), r.error().replace('\n', ' ')));
            }
        }
        return md.toString();
    }

    /**
     * How far the gateway's latency predictor was off, per policy over all pods and per pod; what was left out of the
     * comparison and why; and, after a slow-down, how long it took to learn the pod's new speed. Empty when no run's
     * access log carried predictions.
     */
    static String predictorSection(List<RunReport> runs) {
        if (runs.stream().allMatch(r -> r.predictor().isEmpty())) {
            return "";
        }
        StringBuilder md = new StringBuilder(String.format(Locale.ROOT, "%nLatency predictor: the TTFT it predicted "
                + "at each pick (`predicted_ttft_ms` in the gateway's access log) against the TTFT the gateway then "
                + "measured, over streamed 200s after the first %.0f%% of requests. MAPE is the mean of `|predicted − "
                + "measured| / measured`; a bias above 0 means it expected longer waits than came:%n%n",
                100 * PredictionAccuracy.WARM_UP_SHARE));
        md.append("| policy | pod | responses | TTFT MAPE | bias |\n|---|---|---:|---:|---:|\n");
        for (RunReport run : runs) {
            PredictionAccuracy a = run.predictor();
            if (a.isEmpty()) {
                continue;
            }
            md.append(predictorRow(run.policy(), "**all**", a.ttft()));
            for (PodPrediction p : a.pods()) {
                md.append(predictorRow(run.policy(), p.pod(), p.ttft()));
            }
        }
        for (RunReport run : runs) {
            PredictionAccuracy a = run.predictor();
            if (a.skippedQueued() > 0) {
                md.append(String.format(Locale.ROOT, "%n%s: %d of %d predicted responses left out: they waited in the "
                        + "gateway's queue, and the measured TTFT counts that wait while the prediction starts at the "
                        + "pick.%n", run.policy(), a.skippedQueued(), a.predicted()));
            }
            if (a.skippedRetried() > 0) {
                md.append(String.format(Locale.ROOT, "%n%s: %d of %d predicted responses left out: they were failed "
                        + "over, and the measured TTFT counts the failed attempts.%n", run.policy(), a.skippedRetried(),
                        a.predicted()));
            }
            for (PredictorRecovery r : a.recoveries()) {
                md.append(String.format(Locale.ROOT, "%n%s: after %s %s at %.1f s from the first request, ", run.policy(), r.pod(), r.fault(),
                        r.faultSeconds()));
                md.append(r.recovered()
                        ? String.format(Locale.ROOT, "the predictor's error on it was back within %.0f%% %.1f s later, "
                                + "after %d of its responses.%n", 100 * PredictionAccuracy.RECOVERED_MAPE,
                                r.afterSeconds(), r.responses())
                        : String.format(Locale.ROOT, "the predictor's error on it was not back within %.0f%% (for two "
                                + "windows of a second) by the end of the run; %d of its responses came after the "
                                + "fault.%n", 100 * PredictionAccuracy.RECOVERED_MAPE, r.responses()));
            }
        }
        return md.toString();
    }

    private static String predictorRow(String policy, String pod, PredictionError e) {
        return "| " + policy + " | " + pod + " | " + e.count() + " | " + percent(e.mape()) + " | "
                + signedPercent(e.bias()) + " |\n";
    }

    static String describe(FleetSpec fleet) {
        if (fleet.isExternal()) {
            return fleet.pods().size() + " " + fleet.external().engine().displayName() + " servers run outside the "
                    + "bench (" + String.join(", ", fleet.external().names()) + ") serving " + fleet.modelName()
                    + "; their slots, KV cache and speed are their own, which the bench does not know";
        }
        String speeds = fleet.pods().stream().map(p -> trim(p.speedFactor())).collect(Collectors.joining(", "));
        boolean uniform = fleet.pods().stream().mapToDouble(PodSpec::speedFactor).distinct().count() == 1;
        StringBuilder sb = new StringBuilder();
        sb.append(fleet.pods().size()).append(" pods of ").append(fleet.modelName());
        sb.append(uniform ? " at speed " + trim(fleet.pods().get(0).speedFactor()) : " at speeds " + speeds);
        sb.append(", ").append(fleet.kvBlocksPerPod()).append(" KV blocks and max_num_seqs ").append(fleet.maxNumSeqs())
                .append(" per pod");
        if (!fleet.loraAdapters().isEmpty()) {
            sb.append(", ").append(fleet.loraAdapters().size()).append(" adapters with max_loras ").append(fleet.maxLoras());
        }
        return sb.toString();
    }

    /**
     * Per pod and policy: requests served, mean and peak engine queue, prefix-cache hit rate, preemptions.
     * Empty when no run has per-pod stats.
     */
    static String podSection(List<RunReport> runs) {
        if (runs.stream().allMatch(r -> r.pods().isEmpty())) {
            return "";
        }
        boolean external = runs.get(0).fleet().isExternal();
        StringBuilder md = new StringBuilder(external
                ? "\nPer server (served / mean queue / peak queue / prefix-cache hit rate / preemptions), from each "
                        + "server's own metrics read once a second and counted from the start of the run; served from "
                        + "the gateway's access log where the engine counts no requests; – where neither says:\n\n"
                        + "| policy |"
                : "\nPer pod (served / mean queue / peak queue / prefix-cache hit rate / preemptions):\n\n| policy |");
        List<PodStats> names = runs.stream().filter(r -> !r.pods().isEmpty()).findFirst().orElseThrow().pods();
        for (PodStats p : names) {
            md.append(' ').append(p.name()).append(external ? " |" : " (×" + trim(p.speedFactor()) + ") |");
        }
        md.append("\n|---|").append("---|".repeat(names.size())).append('\n');
        for (RunReport run : runs) {
            if (run.pods().isEmpty()) {
                continue;
            }
            md.append("| ").append(run.policy()).append(" |");
            for (PodStats p : run.pods()) {
                md.append(String.format(Locale.ROOT, " %s / %.1f / %d / %s / %s |", count(p.served()), p.meanWaiting(),
                        p.peakWaiting(), Double.isNaN(p.prefixHitRate()) ? "–"
                                : String.format(Locale.ROOT, "%.0f%%", 100 * p.prefixHitRate()),
                        count(p.preemptions())));
            }
            md.append('\n');
        }
        return md.toString();
    }

    /** A count, "–" when unknown (negative). */
    private static String count(long n) {
        return n < 0 ? "–" : Long.toString(n);
    }

    /** "0.18× (−82%)"; "–" when either side is missing. */
    static String ratio(RunSummary run, RunSummary baseline, ToDoubleFunction<RunSummary> metric) {
        return ratio(metric.applyAsDouble(run), metric.applyAsDouble(baseline));
    }

    static String ratio(double a, double b) {
        if (!Double.isFinite(a) || !Double.isFinite(b) || b <= 0) {
            return "–";
        }
        double r = a / b;
        long change = Math.round((r - 1) * 100);
        String sign = change > 0 ? "+" : change < 0 ? "−" : "±";
        return String.format(Locale.ROOT, "%.2f× (%s%d%%)", r, sign, Math.abs(change));
    }

    /** "93.4%"; "–" when missing. */
    static String percent(double share) {
        return Double.isFinite(share) ? String.format(Locale.ROOT, "%.1f%%", 100 * share) : "–";
    }

    /** "+3.1%", "−12.0%"; "–" when missing. */
    static String signedPercent(double share) {
        if (!Double.isFinite(share)) {
            return "–";
        }
        String digits = String.format(Locale.ROOT, "%.1f%%", 100 * Math.abs(share));
        return (share < 0 ? "−" : "+") + digits;
    }

    /** Milliseconds as a short human string: 4.21 ms, 812 ms, 4.40 s. */
    static String time(double ms) {
        if (!Double.isFinite(ms)) {
            return "–";
        }
        if (ms < 10) {
            return String.format(Locale.ROOT, "%.2f ms", ms);
        }
        if (ms < 1000) {
            return String.format(Locale.ROOT, "%.0f ms", ms);
        }
        return String.format(Locale.ROOT, "%.2f s", ms / 1000);
    }

    private static String trim(double value) {
        return value == Math.rint(value) ? String.format(Locale.ROOT, "%.1f", value)
                : String.format(Locale.ROOT, "%s", (float) value);
    }
}
