package io.inferencegateway.lab.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.inferencegateway.lab.bench.fleet.PodSample;
import io.inferencegateway.lab.bench.gateway.ReplicaMode;
import io.inferencegateway.lab.bench.load.RequestResult;
import io.inferencegateway.lab.bench.load.RunRecording;
import io.inferencegateway.lab.bench.report.RunSummary;

/**
 * What a run with gateway replicas is judged by, beside the usual summary: the fleet's prefix-cache hit rate
 * (read from the pods), how often the pods' {@code /metrics} were scraped, the numbers per replica, and, when
 * a replica was killed mid-run, which failures that explains.
 *
 * @param fleetHitRate       prompt tokens the pods served from their prefix caches over tokens looked up
 * @param scrapesPerPodSecond GET /metrics per pod per wall second over the run; NaN when the fleet cannot tell
 * @param perReplica         one summary per replica, by the requests the load generator sent it
 * @param killedAtNanos      simulated time of the kill after the first arrival; null when no replica was killed
 * @param failedAfterKill    failed requests intended after the kill, which had not started when it happened
 * @param failedOnKilled     failed requests sent to the killed replica before the kill (in flight when it died)
 */
public record ReplicaRun(String label, String policy, int replicas, ReplicaMode mode, RunSummary total,
                         double fleetHitRate, double scrapesPerPodSecond, List<RunSummary> perReplica,
                         Long killedAtNanos, int failedAfterKill, int failedOnKilled) {

    static ReplicaRun of(String label, String policy, int replicas, ReplicaMode mode, RunRecording recording,
                         List<PodSample> before, List<PodSample> after, long scrapes, int pods, Long killedAtNanos) {
        long queries = 0;
        long hits = 0;
        for (int i = 0; i < after.size(); i++) {
            PodSample b = i < before.size() ? before.get(i) : null;
            queries += after.get(i).prefixQueries() - (b == null ? 0 : b.prefixQueries());
            hits += after.get(i).prefixHits() - (b == null ? 0 : b.prefixHits());
        }
        List<RequestResult> results = recording.results();
        List<List<RequestResult>> byReplica = new ArrayList<>();
        for (int r = 0; r < replicas; r++) {
            byReplica.add(new ArrayList<>());
        }
        int failedAfterKill = 0;
        int failedOnKilled = 0;
        for (int i = 0; i < results.size(); i++) {
            RequestResult result = results.get(i);
            int target = recording.targetOf()[i];
            byReplica.get(Math.min(target, replicas - 1)).add(result);
            if (killedAtNanos != null && !result.ok()) {
                if (result.intendedNanos() >= killedAtNanos) {
                    failedAfterKill++;
                } else if (target == replicas - 1) {
                    failedOnKilled++;
                }
            }
        }
        double wallSeconds = recording.wallNanos() / 1e9;
        return new ReplicaRun(label, policy, replicas, mode, RunSummary.of(results),
                queries == 0 ? Double.NaN : (double) hits / queries,
                scrapes < 0 || wallSeconds <= 0 ? Double.NaN : scrapes / (double) pods / wallSeconds,
                byReplica.stream().map(RunSummary::of).toList(), killedAtNanos, failedAfterKill, failedOnKilled);
    }

    String oneLine() {
        String line = String.format(Locale.ROOT, "fleet prefix-cache hit rate %s, TTFT mean %.1f ms, %s scrapes/pod/s",
                percent(fleetHitRate), total.ttft().meanMs(), Double.isNaN(scrapesPerPodSecond) ? "–"
                        : String.format(Locale.ROOT, "%.1f", scrapesPerPodSecond));
        if (killedAtNanos != null) {
            line += String.format(Locale.ROOT, "; replica %d killed at %.1f s: %d failed in flight on it, %d failed "
                    + "after", replicas - 1, killedAtNanos / 1e9, failedOnKilled, failedAfterKill);
        }
        return line;
    }

    static String percent(double share) {
        return Double.isNaN(share) ? "–" : String.format(Locale.ROOT, "%.1f%%", 100 * share);
    }
}
