package io.inferencegateway.lab.bench.report;

/**
 * The usual latency digest, in milliseconds of simulated time. Values are NaN when there were no
 * samples (e.g. every request failed).
 */
public record LatencySummary(int count, double meanMs, double p50Ms, double p90Ms, double p99Ms, double maxMs) {

    public static LatencySummary of(Distribution d) {
        if (d.isEmpty()) {
            return new LatencySummary(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        return new LatencySummary(d.count(), d.mean() / 1e6, d.percentile(50) / 1e6, d.percentile(90) / 1e6,
                d.percentile(99) / 1e6, d.max() / 1e6);
    }
}
