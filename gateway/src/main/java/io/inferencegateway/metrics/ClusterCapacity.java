package io.inferencegateway.metrics;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * What a cluster gateway's capacity summary ({@code GET /capacity}, docs/global.md) says about one model beyond what
 * a model server's {@code /metrics} says: the part of {@link EndpointMetrics} that only a cluster has. Null on the
 * readings of model servers. Unknown values: {@code NaN} for doubles, {@code -1} for counts.
 *
 * @param version               the summary's format version, as its info series says ({@code "1"})
 * @param cluster               the cluster's name ({@code spec.cluster.name}), empty when it gives none
 * @param region                the cluster's region ({@code spec.cluster.region}), empty when it gives none
 * @param readyPods             pods of the model whose metrics are fresh; 0 when the cluster does not serve it
 * @param pods                  pods of the model, ready or not
 * @param gatewayQueued         requests waiting in the cluster gateway's own flow-control queue
 * @param ttftMillis            recent time to first token of the model's answers
 * @param tpotMillis            recent time per output token of its streams
 * @param predictedTtftMillis   the cluster's prediction for a typical request on its best pod; NaN while it learns
 * @param predictedTpotMillis   likewise, per output token
 * @param errorRatio            recently failed requests (5xx, broken upstream) over all, 0..1
 * @param saturation            fraction of ready pods the cluster's saturation detector finds full, 0..1
 * @param recentRequests        requests the recent values are taken over
 * @param adapters              LoRA adapters of the model the cluster serves
 * @param roundTripMillis       what the reader measured: the lowest of its recent polls' time from request sent to
 *                              response headers; NaN until measured
 * @param models                a whole summary's reading of each base model the cluster serves (a global tier polls a
 *                              cluster once for all its pools: {@link EndpointMetrics#forModel}); empty in a reading
 *                              of one model
 */
public record ClusterCapacity(
        String version,
        String cluster,
        String region,
        int readyPods,
        int pods,
        int gatewayQueued,
        double ttftMillis,
        double tpotMillis,
        double predictedTtftMillis,
        double predictedTpotMillis,
        double errorRatio,
        double saturation,
        long recentRequests,
        Set<String> adapters,
        double roundTripMillis,
        Map<String, EndpointMetrics> models) {

    public ClusterCapacity {
        cluster = cluster == null ? "" : cluster;
        region = region == null ? "" : region;
        adapters = Set.copyOf(adapters);
        models = models == null ? Map.of() : Map.copyOf(models);
    }

    /** A reading of one model. */
    public ClusterCapacity(String version, String cluster, String region, int readyPods, int pods, int gatewayQueued,
            double ttftMillis, double tpotMillis, double predictedTtftMillis, double predictedTpotMillis,
            double errorRatio, double saturation, long recentRequests, Set<String> adapters, double roundTripMillis) {
        this(version, cluster, region, readyPods, pods, gatewayQueued, ttftMillis, tpotMillis, predictedTtftMillis,
                predictedTpotMillis, errorRatio, saturation, recentRequests, adapters, roundTripMillis, Map.of());
    }

    /** The same summary, each model's reading too, with the round trip the reader measured. */
    public ClusterCapacity withRoundTripMillis(double millis) {
        Map<String, EndpointMetrics> measured = new HashMap<>();
        models.forEach((m, reading) -> measured.put(m, reading.withCluster(reading.cluster().withRoundTripMillis(millis))));
        return new ClusterCapacity(version, cluster, region, readyPods, pods, gatewayQueued, ttftMillis, tpotMillis,
                predictedTtftMillis, predictedTpotMillis, errorRatio, saturation, recentRequests, adapters, millis,
                measured);
    }

    /** The same summary with each model's reading. */
    ClusterCapacity withModels(Map<String, EndpointMetrics> readings) {
        return new ClusterCapacity(version, cluster, region, readyPods, pods, gatewayQueued, ttftMillis, tpotMillis,
                predictedTtftMillis, predictedTpotMillis, errorRatio, saturation, recentRequests, adapters,
                roundTripMillis, readings);
    }

    /** What a summary says of a model the cluster does not serve: no pod, ready or not. */
    ClusterCapacity unserved() {
        return new ClusterCapacity(version, cluster, region, 0, 0, gatewayQueued, Double.NaN, Double.NaN, Double.NaN,
                Double.NaN, Double.NaN, Double.NaN, 0, Set.of(), roundTripMillis);
    }
}
