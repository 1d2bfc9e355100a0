package io.inferencegateway.lab.bench.global;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.inferencegateway.lab.bench.load.RequestResult;
import io.inferencegateway.lab.bench.report.ClassSummary;
import io.inferencegateway.lab.bench.report.RunSummary;
import io.inferencegateway.lab.bench.report.SloAttainment;

/**
 * What one policy did in the {@code global} scenario, beside the usual summary: TTFT per priority class in each
 * phase, where the tier sent each phase's requests, what a million tokens cost per class, and how the loss of a
 * cluster went. Latencies are simulated time as the client saw them; the loss's detection is wall time, the tier's
 * own clock.
 *
 * @param phases       per phase ({@link GlobalLayout.Phase#label}), the classes' summaries of the requests that
 *                     arrived in it
 * @param servedBy     per phase, requests the tier's log names each target for (the last pick)
 * @param costs        per priority class, then {@code all}: tokens and cost the tier logged
 * @param localSpike   the spike's own requests, sent straight to the home cluster's gateway
 * @param loss         the loss of a cluster
 */
public record GlobalRun(String policy, RunSummary summary, SloAttainment slo, Map<String, List<ClassSummary>> phases,
                        Map<String, Map<String, Integer>> servedBy, List<ClassCost> costs, RunSummary localSpike,
                        LossOutcome loss) {

    /** Tokens and spend of one class, as the tier logged them. */
    public record ClassCost(String priority, int requests, long tokens, double cost) {
        /** Currency per million tokens; NaN without tokens. */
        public double perMillionTokens() {
            return tokens == 0 ? Double.NaN : cost / tokens * 1e6;
        }
    }

    /**
     * How the tier lived through the loss of {@code cluster}. The loss is detected at the arrival of the last request
     * the tier still tried there (its last pick there, a failover, or a failure with no target named), provided later
     * requests came: from then on it routes around the loss. Not detected when every request to the end
     * was still such a one.
     *
     * @param detectionMillis  wall milliseconds from the loss to that last request; 0 when the tier sent none there
     *                         after the loss; NaN when not detected
     * @param touchedAfterLoss requests after the loss that the tier sent to the lost cluster, failed over, or failed
     * @param failedAfterLoss  requests that arrived after the loss and failed (a refusal, 429, is not a failure)
     * @param failedAfterDetection those of them that arrived after the loss was detected
     */
    public record LossOutcome(String cluster, String how, boolean detected, double detectionMillis,
                              int touchedAfterLoss, int failedAfterLoss, int failedAfterDetection) {
    }

    /**
     * @param results            the tier's requests, in plan order
     * @param tier               the tier's access log
     * @param startEpochMillis   wall time of the run's first intended send
     * @param lossEpochMillis    wall time of the loss
     * @param timeScale          simulated seconds per wall second
     */
    static GlobalRun of(String policy, GlobalLayout layout, ClusterLoss how, List<RequestResult> results,
                        double arrivalSeconds, List<TierLogEntry> tier, double startEpochMillis, double lossEpochMillis,
                        double timeScale, List<RequestResult> spike) {
        Map<String, List<RequestResult>> byPhase = new LinkedHashMap<>();
        for (GlobalLayout.Phase p : GlobalLayout.Phase.values()) {
            byPhase.put(p.label(), new ArrayList<>());
        }
        for (RequestResult r : results) {
            byPhase.get(layout.phaseOf(r.intendedNanos()).label()).add(r);
        }
        Map<String, List<ClassSummary>> phases = new LinkedHashMap<>();
        byPhase.forEach((phase, list) -> phases.put(phase, ClassSummary.of(list)));

        Map<String, Map<String, Integer>> servedBy = new LinkedHashMap<>();
        byPhase.keySet().forEach(p -> servedBy.put(p, new TreeMap<>()));
        Map<String, long[]> tokens = new LinkedHashMap<>();
        Map<String, double[]> spend = new LinkedHashMap<>();
        for (String c : List.of("critical", "standard", "sheddable", "all")) {
            tokens.put(c, new long[2]);
            spend.put(c, new double[1]);
        }
        for (TierLogEntry e : tier) {
            int i = e.benchIndex();
            if (i < 0 || i >= results.size()) {
                continue;
            }
            RequestResult r = results.get(i);
            servedBy.get(layout.phaseOf(r.intendedNanos()).label())
                    .merge(e.target().isEmpty() ? "none" : e.target(), 1, Integer::sum);
            if (Double.isNaN(e.cost())) {
                continue;
            }
            for (String c : new String[] {r.priority().isEmpty() ? "none" : r.priority(), "all"}) {
                long[] t = tokens.computeIfAbsent(c, k -> new long[2]);
                t[0]++;
                t[1] += e.tokens();
                spend.computeIfAbsent(c, k -> new double[1])[0] += e.cost();
            }
        }
        List<ClassCost> costs = new ArrayList<>();
        tokens.forEach((c, t) -> costs.add(new ClassCost(c, (int) t[0], t[1], spend.get(c)[0])));

        return new GlobalRun(policy, RunSummary.of(results), SloAttainment.of(results, arrivalSeconds), phases,
                servedBy, costs, RunSummary.of(spike),
                loss(layout, how, results, tier, startEpochMillis, lossEpochMillis, timeScale));
    }

    static LossOutcome loss(GlobalLayout layout, ClusterLoss how, List<RequestResult> results, List<TierLogEntry> tier,
                            double startEpochMillis, double lossEpochMillis, double timeScale) {
        String lost = layout.lostRegion().cluster();
        List<TierLogEntry> after = tier.stream().filter(e -> e.time().toEpochMilli() >= lossEpochMillis)
                .sorted(java.util.Comparator.comparing(TierLogEntry::time)).toList();
        int touched = 0;
        double lastTouch = Double.NaN;
        for (TierLogEntry e : after) {
            if (e.touched(lost)) {
                touched++;
                lastTouch = e.time().toEpochMilli();
            }
        }
        boolean detected = Double.isNaN(lastTouch) || after.get(after.size() - 1).time().toEpochMilli() > lastTouch;
        double detection = !detected ? Double.NaN : Double.isNaN(lastTouch) ? 0 : lastTouch - lossEpochMillis;
        int failedAfterLoss = 0;
        int failedAfterDetection = 0;
        for (RequestResult r : results) {
            double arrival = startEpochMillis + r.intendedNanos() / timeScale / 1e6;
            if (r.ok() || r.refused() || arrival < lossEpochMillis) {
                continue;
            }
            failedAfterLoss++;
            if (detected && arrival > lossEpochMillis + detection) {
                failedAfterDetection++;
            }
        }
        return new LossOutcome(lost, how.label(), detected, detection, touched, failedAfterLoss,
                detected ? failedAfterDetection : failedAfterLoss);
    }

    /** The cost of {@code priority}'s tokens, or null when none were logged. */
    public ClassCost cost(String priority) {
        return costs.stream().filter(c -> c.priority().equals(priority)).findFirst().orElse(null);
    }

    /** The summary of {@code priority} in {@code phase}, or null. */
    public ClassSummary inPhase(String phase, String priority) {
        return phases.getOrDefault(phase, List.of()).stream().filter(c -> c.priority().equals(priority)).findFirst()
                .orElse(null);
    }
}
