package io.inferencegateway.scheduling.plugins;

import java.util.List;

import io.inferencegateway.domain.PickReason;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.Scorer;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

/**
 * {@value #TYPE}: at a global tier, prefers the target where this request costs least. The cost is the target's price
 * per million input and output tokens applied to the request's estimated prompt tokens and its {@code max_tokens} (or
 * {@code outputTokens} when it sets none), so a long prompt weighs the input price and a long answer the output price.
 * Score: {@code cheapest / cost}: the cheapest scores 1, one twice the cost 0.5; equal prices score equal; next to a
 * free target every paid one scores 0. Endpoints that are no target (pods) score 0.
 */
public final class CostScorer extends NamedScorer {

    public static final String TYPE = "cost-scorer";
    /** Parameter: {@code outputTokens}, the output expected of a request without {@code max_tokens} (256). */
    public static final PluginType<Scorer> PLUGIN = PluginType.scorer(TYPE, parameters -> new CostScorer(
            parameters.integer("outputTokens", TargetFacts.DEFAULT_OUTPUT_TOKENS, 1, 1_000_000)));

    private final int outputTokens;

    public CostScorer(int outputTokens) {
        super(TYPE, PickReason.CHEAPEST_TARGET);
        this.outputTokens = outputTokens;
    }

    @Override
    public void score(SchedulingCycle cycle, List<EndpointState> endpoints, double[] scores) {
        int n = endpoints.size();
        double[] cost = cycle.doubleScratch(n);
        for (int i = 0; i < n; i++) {
            cost[i] = TargetFacts.cost(endpoints.get(i), cycle.request(), outputTokens);
        }
        TargetFacts.lowerIsBetterRatio(cost, n, 0, scores);
    }
}
