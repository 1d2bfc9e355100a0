package io.inferencegateway.lab.bench.global;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;

import io.inferencegateway.lab.bench.report.ClassSummary;
import io.inferencegateway.lab.bench.report.LatencySummary;
import io.inferencegateway.lab.bench.report.SloAttainment;
import io.inferencegateway.lab.bench.report.SloSummary;

/**
 * The {@code global} scenario's own report, {@code global.md} and {@code global.json} in the scenario's directory:
 * per policy TTFT per class and phase, latency-target attainment, cost per million tokens, failures, and the loss of
 * a cluster; then the goals, each held against the policy it names.
 */
public final class GlobalReport {

    /** The goals' thresholds (docs/benchmarks/global.md). */
    static final double DETECTION_GOAL_MILLIS = 2000;
    static final double SPIKE_CRITICAL_P99_GOAL = 0.5;
    static final double SHEDDABLE_COST_GOAL = 0.7;

    /** Durations (a latency class's targets) as milliseconds, NaN as a string: JSON has no NaN. */
    private static final ObjectMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT)
            .enable(JsonWriteFeature.WRITE_NAN_AS_STRINGS)
            .addModule(new SimpleModule().addSerializer(Duration.class, new StdSerializer<>(Duration.class) {
                @Override
                public void serialize(Duration d, JsonGenerator out, SerializerProvider provider) throws IOException {
                    out.writeNumber(d.toMillis());
                }
            })).build();

    private GlobalReport() {
    }

    public static void write(Path dir, String command, String setup, List<GlobalRun> runs) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("global.md"), markdown(command, setup, runs), StandardCharsets.UTF_8);
        JSON.writeValue(dir.resolve("global.json").toFile(), Map.of("command", command, "setup", setup, "runs", runs));
    }

    static String markdown(String command, String setup, List<GlobalRun> runs) {
        StringBuilder md = new StringBuilder("# Global tier\n\n`" + command + "`\n\n" + setup + "\n");

        md.append("\n## TTFT per priority class, whole run\n\nSimulated milliseconds as the client saw them, served "
                + "requests only. Failed: errors and timeouts; refused: 429 from flow control.\n\n"
                + "| policy | requests | failed | refused | critical p50 / p99 | standard p50 / p99 | sheddable p50 / p99 "
                + "| targets met |\n|---|---|---|---|---|---|---|---|\n");
        for (GlobalRun r : runs) {
            md.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %s | %s | %s | %s |%n", r.policy(),
                    r.summary().requests(), r.summary().errors(), r.summary().refused(),
                    p50p99(cls(r.summary().classes(), "critical")), p50p99(cls(r.summary().classes(), "standard")),
                    p50p99(cls(r.summary().classes(), "sheddable")), percent(r.slo().attainment())));
        }

        md.append("\n## Latency targets per class\n\n| policy | class | target | requests | met | attainment |\n"
                + "|---|---|---|---|---|---|\n");
        for (GlobalRun r : runs) {
            for (SloSummary c : r.slo().classes()) {
                md.append(String.format(Locale.ROOT, "| %s | %s (%s) | %s | %d | %d | %s |%n", r.policy(),
                        c.slo().name(), c.priority(), c.slo().describeTargets(), c.requests(), c.met(),
                        percent(c.attainment())));
            }
        }

        md.append("\n## Each phase\n\nTTFT p99 per class of the tier's requests that arrived in the phase (simulated "
                + "ms), and where the tier sent them (its access log's `target`, the last pick).\n\n"
                + "| policy | phase | critical p99 | standard p99 | sheddable p99 | failed | served by |\n"
                + "|---|---|---|---|---|---|---|\n");
        for (GlobalRun r : runs) {
            for (String phase : r.phases().keySet()) {
                List<ClassSummary> classes = r.phases().get(phase);
                md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %d | %s |%n", r.policy(), phase,
                        p99(cls(classes, "critical")), p99(cls(classes, "standard")), p99(cls(classes, "sheddable")),
                        classes.stream().mapToInt(ClassSummary::errors).sum(), served(r.servedBy().get(phase))));
            }
        }
        md.append("\nThe spike's own requests (sent straight to the home cluster's gateway, which the tier does not see):"
                + "\n\n| policy | requests | failed | refused | TTFT p50 | TTFT p99 |\n|---|---|---|---|---|---|\n");
        for (GlobalRun r : runs) {
            md.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %s | %s |%n", r.policy(),
                    r.localSpike().requests(), r.localSpike().errors(), r.localSpike().refused(),
                    ms(r.localSpike().ttft().p50Ms()), ms(r.localSpike().ttft().p99Ms())));
        }

        md.append("\n## Cost\n\nWhat the tier logged (`cost` of each access-log line, the target's price times the "
                + "tokens its usage reported), per million tokens (input and output together).\n\n"
                + "| policy | critical | standard | sheddable | all | requests priced |\n|---|---|---|---|---|---|\n");
        for (GlobalRun r : runs) {
            GlobalRun.ClassCost all = r.cost("all");
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %d |%n", r.policy(),
                    perMillion(r.cost("critical")), perMillion(r.cost("standard")), perMillion(r.cost("sheddable")),
                    perMillion(all), all == null ? 0 : all.requests()));
        }

        md.append("\n## Loss of a cluster\n\nDetected: at the arrival of the last request after the loss that the tier "
                + "sent to the lost cluster, failed over or failed, when later ones were served (wall ms from the loss, "
                + "the tier's clock; 0: none was sent there after the loss).\n\n"
                + "| policy | cluster | how | detected after | touched it after | failed after loss "
                + "| failed after detection |\n|---|---|---|---|---|---|---|\n");
        for (GlobalRun r : runs) {
            GlobalRun.LossOutcome l = r.loss();
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %d | %d | %d |%n", r.policy(), l.cluster(),
                    l.how(), l.detected() ? String.format(Locale.ROOT, "%.0f ms", l.detectionMillis()) : "never",
                    l.touchedAfterLoss(), l.failedAfterLoss(), l.failedAfterDetection()));
        }

        md.append(goals(runs));
        return md.toString();
    }

    /** The goals for the {@code global} policy, where the runs they compare against are present. */
    static String goals(List<GlobalRun> runs) {
        Optional<GlobalRun> global = find(runs, GlobalPolicy.GLOBAL);
        if (global.isEmpty()) {
            return "";
        }
        GlobalRun g = global.get();
        StringBuilder md = new StringBuilder("\n## Goals (policy `global`)\n\n| goal | measured | met |\n|---|---|---|\n");
        GlobalRun.LossOutcome l = g.loss();
        md.append(String.format(Locale.ROOT, "| 0 failures among requests arriving after the loss is detected | %d "
                + "| %s |%n", l.failedAfterDetection(), yes(l.detected() && l.failedAfterDetection() == 0)));
        md.append(String.format(Locale.ROOT, "| loss detected within 2 s | %s | %s |%n",
                l.detected() ? String.format(Locale.ROOT, "%.0f ms", l.detectionMillis()) : "never",
                yes(l.detected() && l.detectionMillis() <= DETECTION_GOAL_MILLIS)));
        find(runs, GlobalPolicy.NEAREST_ONLY).ifPresent(n -> {
            double mine = p99Of(g.inPhase("spike", "critical"));
            double theirs = p99Of(n.inPhase("spike", "critical"));
            double ratio = mine / theirs;
            md.append(String.format(Locale.ROOT, "| during the spike, critical TTFT p99 ≤ 0.5× nearest-only | %s vs %s "
                    + "(%s) | %s |%n", ms(mine), ms(theirs), times(ratio), yes(ratio <= SPIKE_CRITICAL_P99_GOAL)));
        });
        find(runs, GlobalPolicy.GLOBAL_NO_COST).ifPresent(n -> {
            double mine = perMillionOf(g.cost("sheddable"));
            double theirs = perMillionOf(n.cost("sheddable"));
            double ratio = mine / theirs;
            double attMine = attainment(g.slo(), "sheddable");
            double attTheirs = attainment(n.slo(), "sheddable");
            md.append(String.format(Locale.ROOT, "| sheddable cost per million tokens ≤ 0.7× global-no-cost, at equal "
                            + "attainment | %.3f vs %.3f (%s); attainment %s vs %s | %s |%n", mine, theirs, times(ratio),
                    percent(attMine), percent(attTheirs), yes(ratio <= SHEDDABLE_COST_GOAL && attMine >= attTheirs - 0.01)));
        });
        return md.toString();
    }

    private static Optional<GlobalRun> find(List<GlobalRun> runs, String policy) {
        return runs.stream().filter(r -> r.policy().equals(policy)).findFirst();
    }

    private static ClassSummary cls(List<ClassSummary> classes, String priority) {
        return classes.stream().filter(c -> c.priority().equals(priority)).findFirst().orElse(null);
    }

    private static double attainment(SloAttainment slo, String priority) {
        return slo.classes().stream().filter(c -> c.priority().equals(priority)).mapToDouble(SloSummary::attainment)
                .findFirst().orElse(Double.NaN);
    }

    private static double p99Of(ClassSummary c) {
        return c == null ? Double.NaN : c.ttft().p99Ms();
    }

    private static double perMillionOf(GlobalRun.ClassCost c) {
        return c == null ? Double.NaN : c.perMillionTokens();
    }

    private static String p50p99(ClassSummary c) {
        if (c == null) {
            return "–";
        }
        LatencySummary t = c.ttft();
        return ms(t.p50Ms()) + " / " + ms(t.p99Ms());
    }

    private static String p99(ClassSummary c) {
        return c == null ? "–" : ms(c.ttft().p99Ms());
    }

    private static String served(Map<String, Integer> counts) {
        if (counts == null || counts.isEmpty()) {
            return "–";
        }
        StringBuilder s = new StringBuilder();
        counts.forEach((t, n) -> s.append(s.length() == 0 ? "" : ", ").append(t).append(' ').append(n));
        return s.toString();
    }

    private static String perMillion(GlobalRun.ClassCost c) {
        double v = perMillionOf(c);
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.3f", v);
    }

    private static String ms(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.0f ms", v);
    }

    private static String percent(double share) {
        return Double.isNaN(share) ? "–" : String.format(Locale.ROOT, "%.1f%%", 100 * share);
    }

    private static String times(double ratio) {
        return Double.isNaN(ratio) || Double.isInfinite(ratio) ? "–" : String.format(Locale.ROOT, "%.2f×", ratio);
    }

    private static String yes(boolean met) {
        return met ? "yes" : "no";
    }
}
