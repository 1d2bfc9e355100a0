package io.inferencegateway.lab.bench.report;

import java.util.List;

import io.inferencegateway.lab.bench.fleet.FaultRecord;
import io.inferencegateway.lab.bench.fleet.FleetSpec;
import io.inferencegateway.lab.bench.fleet.PodStats;
import io.inferencegateway.lab.bench.load.RunRecording;

/**
 * One run (a scenario under one policy) with everything needed to reproduce and report it.
 *
 * @param rate            mean arrival rate, requests per simulated second
 * @param durationSeconds simulated span the arrivals were drawn over
 * @param gateway         how requests reached the pods: {@code process} (the real gateway) or
 *                        {@code direct} (client-side round-robin, no gateway)
 * @param predictor       how far the gateway's latency predictor was off, from its access log;
 *                        {@link PredictionAccuracy#NONE} when the run logged no predictions
 */
public record RunReport(String scenario, String scenarioSummary, String workload, String arrivals, String policy,
                        String gateway, long seed, double rate, double durationSeconds, FleetSpec fleet,
                        RunRecording recording, RunSummary summary, List<PodStats> pods, List<FaultRecord> faults,
                        PredictionAccuracy predictor) {

    public RunReport {
        pods = List.copyOf(pods);
        faults = List.copyOf(faults);
        predictor = predictor == null ? PredictionAccuracy.NONE : predictor;
    }

    /** The predictor's accuracy is read from the gateway's log, which is complete only once the gateway stopped. */
    public RunReport withPredictor(PredictionAccuracy accuracy) {
        return new RunReport(scenario, scenarioSummary, workload, arrivals, policy, gateway, seed, rate,
                durationSeconds, fleet, recording, summary, pods, faults, accuracy);
    }

    /** How the requests that carried latency targets fared; empty when none did. */
    public SloAttainment slo() {
        return SloAttainment.of(recording.results(), durationSeconds);
    }

    public static RunReport of(String scenario, String scenarioSummary, String workload, String arrivals, String policy,
                               String gateway, long seed, double rate, double durationSeconds, FleetSpec fleet,
                               RunRecording recording) {
        return of(scenario, scenarioSummary, workload, arrivals, policy, gateway, seed, rate, durationSeconds, fleet,
                recording, List.of());
    }

    public static RunReport of(String scenario, String scenarioSummary, String workload, String arrivals, String policy,
                               String gateway, long seed, double rate, double durationSeconds, FleetSpec fleet,
                               RunRecording recording, List<PodStats> pods) {
        return of(scenario, scenarioSummary, workload, arrivals, policy, gateway, seed, rate, durationSeconds, fleet,
                recording, pods, List.of());
    }

    public static RunReport of(String scenario, String scenarioSummary, String workload, String arrivals, String policy,
                               String gateway, long seed, double rate, double durationSeconds, FleetSpec fleet,
                               RunRecording recording, List<PodStats> pods, List<FaultRecord> faults) {
        return new RunReport(scenario, scenarioSummary, workload, arrivals, policy, gateway, seed, rate, durationSeconds,
                fleet, recording, RunSummary.of(recording.results()), pods, faults, PredictionAccuracy.NONE);
    }
}
