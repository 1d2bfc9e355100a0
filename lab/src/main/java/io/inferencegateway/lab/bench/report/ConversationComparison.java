package io.inferencegateway.lab.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * One conversations run held against the round-robin run with as many gateway replicas (the same conversations on a
 * fresh fleet of the same pods), and against the goal set for multi-turn traffic: TTFT p99 no worse than
 * round-robin's, TTFT mean at most half of it, and at least {@link #GOAL_SAME_POD} of turns on their previous turn's
 * pod.
 *
 * @param ttftMeanVsRoundRobin the run's TTFT mean over round-robin's; NaN without a round-robin run to compare with
 * @param ttftP99VsRoundRobin  the run's TTFT p99 over round-robin's; NaN likewise
 * @param meetsGoal            whether the run meets all three; null for round-robin itself and without a round-robin
 *                             run
 */
public record ConversationComparison(@JsonUnwrapped ConversationSummary run, double ttftMeanVsRoundRobin,
                                     double ttftP99VsRoundRobin, Boolean meetsGoal) {

    /** The policy every other one is compared with. */
    public static final String BASELINE = MarkdownReport.BASELINE;
    /** The goal's TTFT mean, as a share of round-robin's. */
    public static final double GOAL_MEAN_VS_ROUND_ROBIN = 0.5;
    /** The goal's TTFT p99, as a share of round-robin's. */
    public static final double GOAL_P99_VS_ROUND_ROBIN = 1.0;
    /** The goal's share of turns served on the pod of their conversation's previous turn. */
    public static final double GOAL_SAME_POD = 0.9;

    /** Every run in order, each against the round-robin run with its replica count (the first, if several). */
    public static List<ConversationComparison> of(List<ConversationSummary> runs) {
        List<ConversationComparison> compared = new ArrayList<>(runs.size());
        for (ConversationSummary run : runs) {
            Optional<ConversationSummary> baseline = runs.stream()
                    .filter(b -> b.policy().equals(BASELINE) && b.replicas() == run.replicas()).findFirst();
            double mean = baseline.map(b -> ratio(run.ttft().meanMs(), b.ttft().meanMs())).orElse(Double.NaN);
            double p99 = baseline.map(b -> ratio(run.ttft().p99Ms(), b.ttft().p99Ms())).orElse(Double.NaN);
            Boolean meets = baseline.isEmpty() || run.policy().equals(BASELINE) || !Double.isFinite(mean)
                    || !Double.isFinite(p99) ? null
                    : mean <= GOAL_MEAN_VS_ROUND_ROBIN && p99 <= GOAL_P99_VS_ROUND_ROBIN
                    && run.samePod() >= GOAL_SAME_POD;
            compared.add(new ConversationComparison(run, mean, p99, meets));
        }
        return compared;
    }

    private static double ratio(double value, double baseline) {
        return Double.isFinite(value) && Double.isFinite(baseline) && baseline > 0 ? value / baseline : Double.NaN;
    }
}
