package io.inferencegateway.scheduling.plugins;

import java.util.List;

import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.PickReason;
import io.inferencegateway.domain.Priority;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.Scorer;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

/**
 * {@value #TYPE}: at a global tier, gives each priority band what it is for.
 * <ul>
 * <li><b>Critical</b> (priority above 0): the fastest target. Score {@code soonest / t}, where {@code t} is when the
 * first token would be back: the cluster's predicted time to first token (its recent mean while it predicts none) plus
 * the measured round trip; the soonest scores 1, one twice as slow 0.5, one unknown 0. When no candidate's time is
 * known, the shortest queue per ready pod instead (min-max). Reason {@code fastest_target}.</li>
 * <li><b>Sheddable and batch</b> (below 0): the cheapest target that can still serve it. Score {@code cheapest / cost}
 * as the cost scorer's, 0 for a target expected to miss the request's first-token target; the overflow filter has
 * already taken out the clusters that are full. Reason {@code cheapest_target}.</li>
 * <li><b>Standard</b> (0): nothing (every candidate 0): the other weights decide.</li>
 * </ul>
 * With a weight well above the others it decides for critical and sheddable requests; a conversation's prefix can still
 * hold it on its cluster while that cluster is within {@code prefix / priority} of the best.
 */
public final class PriorityScorer extends NamedScorer {

    public static final String TYPE = "priority-scorer";
    /** Parameter: {@code outputTokens}, the output expected of a request without {@code max_tokens} (256). */
    public static final PluginType<Scorer> PLUGIN = PluginType.scorer(TYPE, parameters -> new PriorityScorer(
            parameters.integer("outputTokens", TargetFacts.DEFAULT_OUTPUT_TOKENS, 1, 1_000_000)));

    private final int outputTokens;

    public PriorityScorer(int outputTokens) {
        super(TYPE, PickReason.FASTEST_TARGET);
        this.outputTokens = outputTokens;
    }

    @Override
    public void score(SchedulingCycle cycle, List<EndpointState> endpoints, double[] scores) {
        InferenceRequest request = cycle.request();
        int n = endpoints.size();
        if (request.priority() > Priority.STANDARD) {
            double[] millis = cycle.doubleScratch(n);
            if (TargetFacts.firstTokenMillis(endpoints, millis) > 0) {
                TargetFacts.lowerIsBetterRatio(millis, n, TargetFacts.FLOOR_MILLIS, scores);
            } else {
                MinMax.lowerIsBetter(endpoints, TargetFacts::queuePerPod, scores);
            }
        } else if (Priority.sheddable(request.priority())) {
            double[] cost = cycle.doubleScratch(n);
            for (int i = 0; i < n; i++) {
                EndpointState e = endpoints.get(i);
                cost[i] = TargetFacts.late(e, cycle.targets()) ? Double.NaN
                        : TargetFacts.cost(e, request, outputTokens);
            }
            TargetFacts.lowerIsBetterRatio(cost, n, 0, scores);
        }
    }

    /** Fastest for a critical request, cheapest for the others (a standard one never gives this scorer a lead). */
    @Override
    public PickReason reason(SchedulingCycle cycle) {
        return cycle.request().priority() > Priority.STANDARD ? PickReason.FASTEST_TARGET : PickReason.CHEAPEST_TARGET;
    }
}
