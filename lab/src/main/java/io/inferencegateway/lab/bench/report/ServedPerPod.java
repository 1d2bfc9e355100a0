package io.inferencegateway.lab.bench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.inferencegateway.lab.bench.fleet.PodStats;

/**
 * Requests each pod answered with a 200 in one run, counted from the gateway's access log. For servers the bench does
 * not run, whose engine may count no requests at all (llama.cpp) or counts everything since it started, the log is
 * what says where the run's requests went.
 */
public final class ServedPerPod {

    private ServedPerPod() {
    }

    /**
     * The stats with {@code served} filled in from the run's access log where the pod's own count is unknown
     * (negative); as they were when the run left no access log.
     */
    public static List<PodStats> fillUnknown(List<PodStats> stats, Path runDir) throws IOException {
        if (stats.stream().noneMatch(p -> p.served() < 0)) {
            return stats;
        }
        List<AccessLogEntry> entries = AccessLogEntry.read(AccessLogEntry.runLogs(runDir));
        if (entries.isEmpty()) {
            return stats;
        }
        Map<String, Long> served = count(entries);
        List<PodStats> filled = new ArrayList<>();
        for (PodStats p : stats) {
            filled.add(p.served() >= 0 ? p : new PodStats(p.name(), p.speedFactor(), served.getOrDefault(p.name(), 0L),
                    p.meanWaiting(), p.peakWaiting(), p.meanRunning(), p.prefixHitRate(), p.preemptions()));
        }
        return filled;
    }

    /** 200s per pod ({@code host:port}) among the entries. */
    static Map<String, Long> count(List<AccessLogEntry> entries) {
        return entries.stream().filter(e -> e.status() == 200 && !e.pod().isEmpty())
                .collect(Collectors.groupingBy(AccessLogEntry::pod, Collectors.counting()));
    }
}
