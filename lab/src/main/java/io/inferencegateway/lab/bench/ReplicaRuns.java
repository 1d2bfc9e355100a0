package io.inferencegateway.lab.bench;

import java.util.List;
import java.util.Locale;

import io.inferencegateway.lab.bench.gateway.ReplicaMode;
import io.inferencegateway.lab.bench.report.RunSummary;

/** The replica runs of one scenario, and the {@code replicas.md} tables that compare them. */
record ReplicaRuns(String scenario, List<ReplicaRun> runs) {

    static String markdown(String command, List<ReplicaRuns> all) {
        StringBuilder md = new StringBuilder("# Gateway replicas\n\n`" + command + "`\n\n"
                + "Requests go round-robin over the replicas. Hit rate: prompt tokens the pods served from their prefix "
                + "caches. \"vs 1\": against one naive gateway of the same policy. Scrapes: GET /metrics per pod per wall "
                + "second. TTFT in simulated time.\n");
        for (ReplicaRuns scenario : all) {
            md.append("\n## ").append(scenario.scenario()).append("\n\n")
                    .append("| run | replicas | mode | hit rate | vs 1 | TTFT mean | vs 1 | TTFT p50 | TTFT p99 | errors "
                            + "| scrapes/pod/s |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
            for (ReplicaRun r : scenario.runs()) {
                ReplicaRun base = scenario.baseline(r.policy());
                md.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %.1f ms | %s | %.1f ms | %.1f ms | %d "
                                + "| %.1f |%n", r.label(), r.replicas(), r.mode().label(), ReplicaRun.percent(r.fleetHitRate()),
                        base == null ? "–" : ratio(r.fleetHitRate(), base.fleetHitRate()), r.total().ttft().meanMs(),
                        base == null ? "–" : ratio(r.total().ttft().meanMs(), base.total().ttft().meanMs()),
                        r.total().ttft().p50Ms(), r.total().ttft().p99Ms(), r.total().errors(), r.scrapesPerPodSecond()));
            }
            md.append("\nPer replica (requests / errors / TTFT mean / TTFT p99):\n\n| run | replica | requests | errors "
                    + "| TTFT mean | TTFT p99 |\n|---|---|---|---|---|---|\n");
            for (ReplicaRun r : scenario.runs()) {
                for (int i = 0; i < r.perReplica().size(); i++) {
                    RunSummary s = r.perReplica().get(i);
                    md.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %.1f ms | %.1f ms |%n", r.label(), i,
                            s.requests(), s.errors(), s.ttft().meanMs(), s.ttft().p99Ms()));
                }
            }
            for (ReplicaRun r : scenario.runs()) {
                if (r.killedAtNanos() != null) {
                    md.append(String.format(Locale.ROOT, "%n%s: replica %d killed (SIGKILL, after leaving the rotation) "
                                    + "at %.1f s simulated: %d requests failed in flight on it, %d failed that arrived "
                                    + "after the kill.%n", r.label(), r.replicas() - 1, r.killedAtNanos() / 1e9,
                            r.failedOnKilled(), r.failedAfterKill()));
                }
            }
        }
        return md.toString();
    }

    /** The run of one naive gateway with this policy, if there was one. */
    ReplicaRun baseline(String policy) {
        return runs.stream().filter(r -> r.policy().equals(policy) && r.replicas() == 1 && r.mode() == ReplicaMode.NAIVE)
                .findFirst().orElse(null);
    }

    private static String ratio(double value, double base) {
        return Double.isNaN(value) || Double.isNaN(base) || base == 0 ? "–"
                : String.format(Locale.ROOT, "%.2f×", value / base);
    }
}
