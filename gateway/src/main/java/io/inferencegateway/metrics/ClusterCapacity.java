package io.inferencegateway.metrics;

/**
 * What a cluster's capacity summary says beyond the queue and KV figures every scrape carries, as the global tier
 * reads it (docs/global.md). Unknown values are NaN.
 *
 * @param readyPods           the cluster's pods that are ready to serve
 * @param errorRatio          the share of its recent requests that failed, 0..1
 * @param ttftMillis          its recent mean time to first token
 * @param tpotMillis          its recent mean time per output token
 * @param predictedTtftMillis the time to first token its own predictor expects for a new request; NaN while unknown
 * @param predictedTpotMillis the time per output token its own predictor expects; NaN while unknown
 * @param saturation          the share of its pods that are saturated, 0..1
 * @param roundTripMillis     the round trip of the global tier's last poll of the summary, as the tier measured it
 */
public record ClusterCapacity(int readyPods, double errorRatio, double ttftMillis, double tpotMillis,
        double predictedTtftMillis, double predictedTpotMillis, double saturation, double roundTripMillis) {
}
