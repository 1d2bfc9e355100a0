package io.inferencegateway.lab.bench.report;

/**
 * How long the predictor took to learn a slowed pod's new speed: from the fault until the first one-second window
 * whose TTFT error on that pod is within {@link PredictionAccuracy#RECOVERED_MAPE} and stays there in the pod's next
 * window with responses. Resolution is one window: the recovery ends at a window's start.
 *
 * @param faultSeconds simulated seconds from the run's first request to the fault
 * @param afterSeconds simulated seconds from the fault to the start of that window; NaN when not recovered
 * @param responses    the pod's compared responses whose requests arrived between the fault and then (all of them
 *                     after the fault when not recovered): what the predictor had to learn from
 */
public record PredictorRecovery(String pod, String fault, double faultSeconds, double afterSeconds, int responses) {

    public boolean recovered() {
        return !Double.isNaN(afterSeconds);
    }
}
