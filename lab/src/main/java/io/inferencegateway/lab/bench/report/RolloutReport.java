package io.inferencegateway.lab.bench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** The rollout scenario's report: rollout.md and rollout.json side by side. */
public final class RolloutReport {

    private RolloutReport() {
    }

    public static void write(Path dir, String command, String setup, List<RolloutOutcome> runs) throws IOException {
        JsonReport.writeWithMarkdown(dir, "rollout", markdown(command, setup, runs), runs);
    }

    public static String markdown(String command, String setup, List<RolloutOutcome> runs) {
        StringBuilder md = new StringBuilder("# Rollout\n\n`" + command + "`\n\n" + setup + "\n\n");
        md.append("| candidate | requests | client errors | verdict | served by the candidate first | share of the "
                + "model's traffic | candidate's first request | verdict after |\n|---|---|---|---|---|---|---|---|\n");
        for (RolloutOutcome r : runs) {
            md.append(String.format(Locale.ROOT, "| %s (%s) | %d | %d | %s | %d | %s | %s | %s |%n", r.variant(),
                    r.candidateFault(), r.requests(), r.errors(), r.verdict(), r.candidateServed(),
                    ConversationReport.percent(r.shareBeforeVerdict()), seconds(r.firstCandidateS()),
                    seconds(r.timeToVerdictS())));
        }
        md.append(String.format(Locale.ROOT, "%nThe candidate's share of each %.0f s of the run:%n%n| candidate | shares |"
                + "%n|---|---|%n", RolloutOutcome.WINDOW_S));
        for (RolloutOutcome r : runs) {
            StringBuilder shares = new StringBuilder();
            for (double s : r.shareByWindow()) {
                shares.append(shares.isEmpty() ? "" : " ").append(Double.isFinite(s)
                        ? String.format(Locale.ROOT, "%.0f", 100 * s) : "-");
            }
            md.append("| ").append(r.variant()).append(" | ").append(shares).append(" |\n");
        }
        return md.toString();
    }

    private static String seconds(double s) {
        return Double.isFinite(s) ? String.format(Locale.ROOT, "%.1f s", s) : "-";
    }
}
