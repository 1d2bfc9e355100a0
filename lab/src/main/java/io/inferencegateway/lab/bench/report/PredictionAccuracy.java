package io.inferencegateway.lab.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.inferencegateway.lab.bench.fleet.FaultRecord;
import io.inferencegateway.lab.bench.fleet.PodFault;
import io.inferencegateway.lab.bench.fleet.PodSpec;
import io.inferencegateway.lab.bench.load.RequestResult;

/**
 * How well the gateway's latency predictor (docs/slo.md) foresaw TTFT in one run: the access log's
 * {@code predicted_ttft_ms}, made at the pick, next to the {@code ttft_ms} the gateway then measured, over the streamed
 * 200s that carry both. Errors are relative, so the time scale cancels out of them; only the windows need it.
 *
 * <p>The measured TTFT counts from the request's arrival, the prediction from the pick. The two agree only when nothing
 * happens in between, so responses that waited in the flow-control queue ({@code queue_ms} > 0) or were failed over to
 * another pod ({@code attempts} > 1) are left out and counted: a run where many were is judged on the rest only.
 *
 * @param accessLogLines every access-log line of the run (its requests)
 * @param predicted      streamed 200s with a prediction and a measured TTFT
 * @param skippedQueued  of those, left out because they waited in the gateway's queue
 * @param skippedRetried of those, left out because they were failed over
 * @param warmUp         the first requests by arrival ({@link #WARM_UP_SHARE} of all) left out of the overall and per-pod
 *                       errors: the predictor starts knowing nothing about the pods
 * @param ttft           over the compared responses after the warm-up
 * @param pods           per pod, by name
 * @param recoveries     one per pod a SLOW fault slowed, in fault order
 */
public record PredictionAccuracy(int accessLogLines, int predicted, int skippedQueued, int skippedRetried, int warmUp,
                                 PredictionError ttft, List<PodPrediction> pods, List<PredictorRecovery> recoveries) {

    /** Share of a run's requests, by arrival, that are the predictor's warm-up. */
    public static final double WARM_UP_SHARE = 0.2;
    /** A window MAPE at or under this counts as back to normal after a slow-down. */
    public static final double RECOVERED_MAPE = 0.25;

    /** A run without predictions in its access log, or without an access log. */
    public static final PredictionAccuracy NONE = new PredictionAccuracy(0, 0, 0, 0, 0, PredictionError.of(List.of()),
            List.of(), List.of());

    public PredictionAccuracy {
        pods = List.copyOf(pods);
        recoveries = List.copyOf(recoveries);
    }

    /**
     * A pod a fault slowed down.
     *
     * @param atSeconds simulated seconds from the run's first request to the fault
     */
    public record SlowedPod(String pod, String fault, double atSeconds) {
    }

    /** A compared response at its arrival, in simulated seconds since the run's first request. */
    private record TimedEntry(double seconds, boolean afterWarmUp, AccessLogEntry entry) {
    }

    public boolean isEmpty() {
        return predicted == 0;
    }

    /**
     * Reads the run's gateway logs ({@code gateway.log}, {@code gateway-N.log} for replicas) in {@code runDir}; pods
     * are named by their place in {@code endpoints} ({@code host:port}, the fleet's order), and a SLOW fault is put on
     * the log's time axis through the run's first intended send, the origin both are measured from.
     */
    public static PredictionAccuracy forRun(Path runDir, List<String> endpoints, RunReport run) throws IOException {
        if (!Files.isDirectory(runDir)) {
            return NONE;
        }
        List<Path> logs = AccessLogEntry.runLogs(runDir);
        List<PodSpec> fleet = run.fleet().pods();
        Map<String, String> names = new HashMap<>();
        for (int i = 0; i < Math.min(endpoints.size(), fleet.size()); i++) {
            names.put(endpoints.get(i), fleet.get(i).name());
        }
        double firstSend = run.recording().results().stream().mapToLong(RequestResult::intendedNanos).min().orElse(0)
                / 1e9;
        List<SlowedPod> slowed = new ArrayList<>();
        for (FaultRecord f : run.faults()) {
            if (f.fault().kind() == PodFault.Kind.SLOW && f.fault().pod() < fleet.size()) {
                slowed.add(new SlowedPod(fleet.get(f.fault().pod()).name(), f.fault().describe(),
                        f.appliedAtSeconds() - firstSend));
            }
        }
        return of(AccessLogEntry.read(logs), run.recording().timeScale(), names, slowed);
    }

    /**
     * @param timeScale simulated seconds per wall second: the log's times are wall-clock
     * @param podNames  endpoint ({@code host:port}) to pod name; an endpoint not in it keeps its own text
     */
    public static PredictionAccuracy of(List<AccessLogEntry> entries, double timeScale, Map<String, String> podNames,
                                        List<SlowedPod> slowed) {
        if (entries.isEmpty()) {
            return NONE;
        }
        List<AccessLogEntry> byArrival = new ArrayList<>(entries);
        byArrival.sort(Comparator.comparing(AccessLogEntry::time));
        Instant origin = byArrival.get(0).time();
        int warmUp = (int) (WARM_UP_SHARE * byArrival.size());
        int predicted = 0;
        int queued = 0;
        int retried = 0;
        List<AccessLogEntry> afterWarmUp = new ArrayList<>();
        Map<String, List<TimedEntry>> byPod = new TreeMap<>();
        for (int i = 0; i < byArrival.size(); i++) {
            AccessLogEntry e = byArrival.get(i);
            if (!e.comparable()) {
                continue;
            }
            predicted++;
            if (e.queueMs() > 0) {
                queued++;
                continue;
            }
            if (e.attempts() > 1) {
                retried++;
                continue;
            }
            String pod = podNames.getOrDefault(e.pod(), e.pod());
            double seconds = Duration.between(origin, e.time()).toNanos() / 1e9 * timeScale;
            byPod.computeIfAbsent(pod, k -> new ArrayList<>()).add(new TimedEntry(seconds, i >= warmUp, e));
            if (i >= warmUp) {
                afterWarmUp.add(e);
            }
        }
        List<PodPrediction> pods = new ArrayList<>();
        Map<String, PodPrediction> podByName = new HashMap<>();
        for (Map.Entry<String, List<TimedEntry>> p : byPod.entrySet()) {
            List<AccessLogEntry> podAfterWarmUp = p.getValue().stream().filter(TimedEntry::afterWarmUp)
                    .map(TimedEntry::entry).toList();
            PodPrediction pod = new PodPrediction(p.getKey(), PredictionError.of(podAfterWarmUp), windows(p.getValue()));
            pods.add(pod);
            podByName.put(pod.pod(), pod);
        }
        List<PredictorRecovery> recoveries = new ArrayList<>();
        for (SlowedPod s : slowed) {
            PodPrediction pod = podByName.get(s.pod());
            recoveries.add(recovery(s, pod == null ? List.of() : pod.windows(), byPod.getOrDefault(s.pod(), List.of())));
        }
        return new PredictionAccuracy(byArrival.size(), predicted, queued, retried, warmUp,
                PredictionError.of(afterWarmUp), pods, recoveries);
    }

    private static List<PredictionWindow> windows(List<TimedEntry> entries) {
        Map<Integer, List<AccessLogEntry>> bySecond = new TreeMap<>();
        for (TimedEntry t : entries) {
            bySecond.computeIfAbsent((int) Math.floor(t.seconds()), k -> new ArrayList<>()).add(t.entry());
        }
        List<PredictionWindow> windows = new ArrayList<>();
        bySecond.forEach((second, list) -> windows.add(new PredictionWindow(second, list.size(),
                PredictionError.of(list).mape())));
        return windows;
    }

    /**
     * The first window that starts at or after the fault with its error within {@link #RECOVERED_MAPE}, and the pod's
     * next window with responses within it too (a pod the router avoids may get none for a while; a lone good window
     * at the end of the run is not enough).
     */
    private static PredictorRecovery recovery(SlowedPod slowed, List<PredictionWindow> windows, List<TimedEntry> pod) {
        int first = (int) Math.ceil(slowed.atSeconds() - 1e-9);
        List<PredictionWindow> after = windows.stream().filter(w -> w.second() >= first).toList();
        double end = Double.NaN;
        for (int i = 0; i + 1 < after.size(); i++) {
            if (after.get(i).mape() <= RECOVERED_MAPE && after.get(i + 1).mape() <= RECOVERED_MAPE) {
                end = after.get(i).second();
                break;
            }
        }
        double until = Double.isNaN(end) ? Double.POSITIVE_INFINITY : end;
        int responses = (int) pod.stream().filter(t -> t.seconds() >= slowed.atSeconds() && t.seconds() < until)
                .count();
        return new PredictorRecovery(slowed.pod(), slowed.fault(), slowed.atSeconds(),
                Double.isNaN(end) ? Double.NaN : Math.max(0, end - slowed.atSeconds()), responses);
    }
}
