package io.inferencegateway.lab.bench.report;

/**
 * The predictor's TTFT error on one pod over one simulated second of arrivals.
 *
 * @param second the window's start, whole simulated seconds after the run's first request arrived
 * @param count  the pod's compared responses whose requests arrived in the window (windows without any are left out)
 * @param mape   their mean |predicted − measured| / measured
 */
public record PredictionWindow(int second, int count, double mape) {
}
