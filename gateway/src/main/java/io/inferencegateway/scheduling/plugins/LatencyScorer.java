package io.inferencegateway.scheduling.plugins;

import java.util.List;

import io.inferencegateway.domain.PickReason;
import io.inferencegateway.domain.Priority;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.Scorer;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

/**
 * {@value #TYPE}: among the pods predicted to meet a request's latency targets, prefers those with the most headroom,
 * or those that meet them with the least to spare (packing), so that the fast pods stay free for the requests that
 * need them (docs/slo.md). Score, with r the pod's predicted latency over the target (at most 1 when met):
 * {@code headroom}: 1 − r; {@code pack}: r; a pod predicted late scores 0. {@code mode: by-priority} (the default)
 * packs sheddable requests and gives the others headroom: a batch job fills the slow pods, an interactive chat
 * gets the fast one. Requests without targets, and pods without a prediction, score 0 everywhere: the other
 * scorers decide, as without this one. Prefix and adapter affinity count through the prediction itself (a cached
 * prefix makes a pod fast) and through their own scorers.
 */
public final class LatencyScorer extends NamedScorer {

    public static final String TYPE = "latency-scorer";
    public static final String HEADROOM = "headroom";
    public static final String PACK = "pack";
    public static final String BY_PRIORITY = "by-priority";
    /**
     * Parameter: {@code mode}, one of headroom, pack, by-priority (default). Brings its pool's latency predictions and
     * admission by them.
     */
    public static final PluginType<Scorer> PLUGIN = PluginType.scorer(TYPE, parameters -> {
        String mode = parameters.choice("mode", BY_PRIORITY, HEADROOM, PACK, BY_PRIORITY);
        LatencyPredictions.register(parameters.pool());
        return new LatencyScorer(mode);
    });

    private final String mode;

    public LatencyScorer(String mode) {
        super(TYPE, PickReason.LATENCY_TARGET);
        this.mode = mode;
    }

    @Override
    public void score(SchedulingCycle cycle, List<EndpointState> endpoints, double[] scores) {
        if (!cycle.targets().any()) {
            return;
        }
        boolean pack = mode.equals(PACK) || mode.equals(BY_PRIORITY) && Priority.sheddable(cycle.request().priority());
        for (int i = 0; i < endpoints.size(); i++) {
            double ratio = endpoints.get(i).latencyRatio();
            if (ratio <= 1) { // NaN: no prediction, 0
                scores[i] = pack ? ratio : 1 - ratio;
            }
        }
    }

    @Override
    public String toString() {
        return mode.equals(BY_PRIORITY) ? TYPE : TYPE + "(" + mode + ")";
    }
}
