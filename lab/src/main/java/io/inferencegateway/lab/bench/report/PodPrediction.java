package io.inferencegateway.lab.bench.report;

import java.util.List;

/**
 * The predictor's TTFT error on one pod: over the run after its warm-up, and second by second from the start so that
 * a fault's effect and the recovery from it show.
 *
 * @param pod     the fleet's name for the pod (pod-1), or the endpoint when the run's pods are not known
 * @param ttft    after the warm-up
 * @param windows every second with responses from this pod, warm-up included, in time order
 */
public record PodPrediction(String pod, PredictionError ttft, List<PredictionWindow> windows) {

    public PodPrediction {
        windows = List.copyOf(windows);
    }
}
