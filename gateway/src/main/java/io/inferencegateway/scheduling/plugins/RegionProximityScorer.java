package io.inferencegateway.scheduling.plugins;

import java.util.List;

import io.inferencegateway.domain.PickReason;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.Scorer;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

/**
 * {@value #TYPE}: at a global tier, prefers the cluster this gateway reaches fastest, by the round trip it measured on
 * its last poll of the cluster's summary (rather than by region names: a region next door can be far on the network).
 * Score: {@code shortest / rtt} over the candidates measured, round trips below 1 ms counted as 1 ms: the nearest
 * scores 1, one twice as far 0.5. A target without a measurement (a provider, an unread cluster) scores 0.
 */
public final class RegionProximityScorer extends NamedScorer {

    public static final String TYPE = "region-proximity-scorer";
    /** Takes no parameters. */
    public static final PluginType<Scorer> PLUGIN = PluginType.scorer(TYPE, parameters -> new RegionProximityScorer());

    public RegionProximityScorer() {
        super(TYPE, PickReason.NEAREST_TARGET);
    }

    @Override
    public void score(SchedulingCycle cycle, List<EndpointState> endpoints, double[] scores) {
        int n = endpoints.size();
        double[] rtt = cycle.doubleScratch(n);
        for (int i = 0; i < n; i++) {
            rtt[i] = TargetFacts.roundTripMillis(endpoints.get(i));
        }
        TargetFacts.lowerIsBetterRatio(rtt, n, TargetFacts.FLOOR_MILLIS, scores);
    }
}
