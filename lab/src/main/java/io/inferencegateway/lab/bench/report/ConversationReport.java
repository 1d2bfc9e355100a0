package io.inferencegateway.lab.bench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** The conversations scenario's report: conversations.md and conversations.json side by side. */
public final class ConversationReport {

    private ConversationReport() {
    }

    /** The page, and beside it every run with its ratios to round-robin ({@link ConversationComparison}). */
    public static void write(Path dir, String command, String setup, List<ConversationSummary> runs)
            throws IOException {
        JsonReport.writeWithMarkdown(dir, "conversations", markdown(command, setup, runs),
                ConversationComparison.of(runs));
    }

    public static String markdown(String command, String setup, List<ConversationSummary> runs) {
        StringBuilder md = new StringBuilder("# Conversations\n\n`" + command + "`\n\n" + setup + "\n\n");
        md.append("TTFT in simulated ms. Ratios are to round-robin with as many replicas (lower is better); turns per "
                + "pod is the busiest pod's turns over the idlest pod's (∞: some pod served none). Goal: TTFT p99 ≤ "
                + "round-robin's, TTFT mean ≤ 0.5× round-robin's, same pod ≥ 90 %.\n\n");
        md.append("| policy | replicas | turns | errors | prefix-cache hit rate (ideal) | same pod as previous turn | "
                + "same replica as previous turn | busiest pod's turns | turns per pod, max / min | preemptions | "
                + "TTFT mean | TTFT p50 | TTFT p90 | TTFT p99 | mean vs RR | p99 vs RR | goal |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (ConversationComparison c : ConversationComparison.of(runs)) {
            ConversationSummary r = c.run();
            md.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %s (%s) | %s | %s | %s | %s | %s | %s | %s "
                            + "| %s | %s | %s | %s | %s |%n",
                    r.label(), r.replicas(), r.turns(), r.errors(), percent(r.hitRate()), percent(r.idealHitRate()),
                    percent(r.samePod()), percent(r.sameReplica()), percent(r.busiestPod()), podTurns(r),
                    r.preemptions() < 0 ? "-" : Long.toString(r.preemptions()), ms(r.ttft().meanMs()),
                    ms(r.ttft().p50Ms()), ms(r.ttft().p90Ms()), ms(r.ttft().p99Ms()), times(c.ttftMeanVsRoundRobin()),
                    times(c.ttftP99VsRoundRobin()), c.meetsGoal() == null ? "-" : c.meetsGoal() ? "met" : "missed"));
        }
        md.append("\nTTFT by turn, p50 / p90 / p99 (simulated ms):\n\n| policy | replicas |");
        for (ConversationSummary.TurnBucket.Range range : ConversationSummary.BUCKETS) {
            md.append(" turn ").append(range.name()).append(" |");
        }
        md.append("\n|---|---|").append("---|".repeat(ConversationSummary.BUCKETS.size())).append('\n');
        for (ConversationSummary r : runs) {
            md.append("| ").append(r.label()).append(" | ").append(r.replicas()).append(" |");
            for (ConversationSummary.TurnBucket b : r.byTurn()) {
                md.append(String.format(Locale.ROOT, " %s / %s / %s |", num(b.ttft().p50Ms()), num(b.ttft().p90Ms()),
                        num(b.ttft().p99Ms())));
            }
            md.append('\n');
        }
        md.append("\nPrefix-cache hit rate by turn:\n\n| policy | replicas |");
        for (ConversationSummary.TurnBucket.Range range : ConversationSummary.BUCKETS) {
            md.append(" turn ").append(range.name()).append(" |");
        }
        md.append("\n|---|---|").append("---|".repeat(ConversationSummary.BUCKETS.size())).append('\n');
        for (ConversationSummary r : runs) {
            md.append("| ").append(r.label()).append(" | ").append(r.replicas()).append(" |");
            for (ConversationSummary.TurnBucket b : r.byTurn()) {
                md.append(' ').append(percent(b.hitRate())).append(" |");
            }
            md.append('\n');
        }
        return md.toString();
    }

    static String percent(double share) {
        return Double.isFinite(share) ? String.format(Locale.ROOT, "%.1f %%", 100 * share) : "-";
    }

    /** "412 / 371 = 1.11"; "412 / 0 = ∞" when a pod served none; "-" when no turn's pod is known. */
    public static String podTurns(ConversationSummary r) {
        double spread = r.podTurnsMaxOverMin();
        if (Double.isNaN(spread)) {
            return "-";
        }
        return r.busiestPodTurns() + " / " + r.idlestPodTurns() + " = "
                + (Double.isInfinite(spread) ? "∞" : String.format(Locale.ROOT, "%.2f", spread));
    }

    private static String times(double ratio) {
        return Double.isFinite(ratio) ? String.format(Locale.ROOT, "%.2f×", ratio) : "-";
    }

    private static String ms(double ms) {
        return Double.isFinite(ms) ? String.format(Locale.ROOT, "%.0f ms", ms) : "-";
    }

    private static String num(double ms) {
        return Double.isFinite(ms) ? String.format(Locale.ROOT, "%.0f", ms) : "-";
    }
}
