package io.inferencegateway.lab.bench.report;

import java.util.Collection;

/**
 * How far a set of TTFT predictions was from what was then measured, each error relative to the measurement so that
 * a fast pod's and a slow pod's requests weigh the same.
 *
 * @param mape mean of |predicted − measured| / measured; NaN when {@code count} is 0
 * @param bias mean of (predicted − measured) / measured: above 0 the predictor expects too long a wait, below 0 too
 *             short a one (the costlier mistake: it sends requests to a pod that cannot serve them in time); NaN when
 *             {@code count} is 0
 */
public record PredictionError(int count, double mape, double bias) {

    public static PredictionError of(Collection<AccessLogEntry> entries) {
        double absolute = 0;
        double signed = 0;
        for (AccessLogEntry e : entries) {
            double relative = relative(e);
            absolute += Math.abs(relative);
            signed += relative;
        }
        int n = entries.size();
        return n == 0 ? new PredictionError(0, Double.NaN, Double.NaN)
                : new PredictionError(n, absolute / n, signed / n);
    }

    /** (predicted − measured) / measured for one response. */
    static double relative(AccessLogEntry e) {
        return (e.predictedTtftMs() - e.ttftMs()) / e.ttftMs();
    }
}
