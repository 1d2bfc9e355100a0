package io.inferencegateway.scheduling.plugins;

import java.util.List;

import io.inferencegateway.config.TargetConfig;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.LatencyTargets;
import io.inferencegateway.metrics.ClusterCapacity;
import io.inferencegateway.scheduling.framework.EndpointState;

/** What the global tier's plugins read off a candidate: its kind, load per pod, speed and price (docs/global.md). */
final class TargetFacts {

    /** Output tokens a request that sets no {@code max_tokens} is expected to cost: a chat answer of a few paragraphs. */
    static final int DEFAULT_OUTPUT_TOKENS = 256;
    /** Round trips and first-token times below this count as this: closer than a millisecond is not faster. */
    static final double FLOOR_MILLIS = 1;

    private TargetFacts() {
    }

    static boolean cluster(EndpointState e) {
        TargetConfig t = e.target();
        return t != null && t.kind() == TargetConfig.Kind.CLUSTER;
    }

    static boolean provider(EndpointState e) {
        TargetConfig t = e.target();
        return t != null && t.provider();
    }

    /** Queued requests per ready pod for a cluster with a summary (its queues differ in size); the queue otherwise. */
    static double queuePerPod(EndpointState e) {
        ClusterCapacity c = e.cluster();
        return c != null && c.readyPods() > 0 ? (double) e.waiting() / c.readyPods() : e.waiting();
    }

    /** The summary's measured round trip in milliseconds; NaN when unmeasured (providers, unread clusters). */
    static double roundTripMillis(EndpointState e) {
        ClusterCapacity c = e.cluster();
        return c == null || !(c.roundTripMillis() >= 0) ? Double.NaN : c.roundTripMillis();
    }

    /**
     * When the first token would reach this gateway: the cluster's predicted time to first token (its recent mean while
     * it predicts none) plus the round trip; NaN without either.
     */
    static double firstTokenMillis(EndpointState e) {
        ClusterCapacity c = e.cluster();
        if (c == null) {
            return Double.NaN;
        }
        double ttft = c.predictedTtftMillis() >= 0 ? c.predictedTtftMillis()
                : c.ttftMillis() >= 0 ? c.ttftMillis() : Double.NaN;
        double rtt = roundTripMillis(e);
        return Double.isNaN(rtt) ? ttft : ttft + rtt;
    }

    /** Whether the request has a first-token target ({@code targets}) that this target is expected to miss. */
    static boolean late(EndpointState e, LatencyTargets targets) {
        long target = targets.ttftMillis();
        return target > 0 && firstTokenMillis(e) > target; // NaN: not known to be late
    }

    /**
     * What the request costs on this target: its price for the prompt's estimated tokens and its {@code max_tokens}
     * (or {@code outputTokens} when it sets none); NaN for an endpoint that is no target.
     */
    static double cost(EndpointState e, InferenceRequest request, int outputTokens) {
        TargetConfig t = e.target();
        if (t == null) {
            return Double.NaN;
        }
        long output = request.maxTokens() > 0 ? request.maxTokens() : outputTokens;
        return t.price().cost(Math.max(0, request.promptTokensEstimate()), output);
    }

    /**
     * Scores {@code values[i]} (lower is better) as {@code min / value}: the best scores 1, one twice as high 0.5; values
     * at or below {@code floor} count as {@code floor} (for a price: 0, so a free target scores 1 and a paid one beside it
     * 0). NaN values score 0 and take no part.
     */
    static void lowerIsBetterRatio(double[] values, int n, double floor, double[] scores) {
        double min = Double.POSITIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            if (!Double.isNaN(values[i])) {
                min = Math.min(min, Math.max(floor, values[i]));
            }
        }
        for (int i = 0; i < n; i++) {
            double v = values[i];
            if (Double.isNaN(v)) {
                scores[i] = 0;
            } else {
                v = Math.max(floor, v);
                scores[i] = v <= min ? 1.0 : min / v;
            }
        }
    }

    /** Every candidate's {@link #firstTokenMillis} into {@code into}; returns how many are known. */
    static int firstTokenMillis(List<EndpointState> endpoints, double[] into) {
        int known = 0;
        for (int i = 0; i < endpoints.size(); i++) {
            into[i] = firstTokenMillis(endpoints.get(i));
            if (!Double.isNaN(into[i])) {
                known++;
            }
        }
        return known;
    }
}
