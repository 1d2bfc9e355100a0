package io.inferencegateway.scheduling.extending;

import java.util.List;

import io.inferencegateway.scheduling.framework.DataProducer;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.Fact;
import io.inferencegateway.scheduling.framework.PluginContext;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.Scorer;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

/**
 * {@value #TYPE}: prefers the pod whose recent first tokens came soonest: the fastest scores 1, one twice as slow 0.5,
 * a pod not heard from yet 0. Its factory brings the fact it reads: the lifecycle plugin that learns it and the producer
 * that attaches it to every request's candidates.
 */
public final class RecentFirstTokenScorer implements Scorer {

    public static final String TYPE = "recent-first-token-scorer";
    /** Takes no parameters. */
    public static final PluginType<Scorer> PLUGIN = PluginType.scorer(TYPE, parameters -> {
        PluginContext pool = parameters.pool();
        Fact recentMillis = pool.fact("recent-first-token-ms");
        RecentFirstTokens learned = new RecentFirstTokens();
        pool.lifecycle(learned);
        pool.membership(learned);
        pool.producer(DataProducer.FACTS, new RecentFirstTokenFacts(learned, recentMillis));
        return new RecentFirstTokenScorer(recentMillis);
    });

    private final Fact recentMillis;

    private RecentFirstTokenScorer(Fact recentMillis) {
        this.recentMillis = recentMillis;
    }

    @Override
    public void score(SchedulingCycle cycle, List<EndpointState> endpoints, double[] scores) {
        double fastest = Double.POSITIVE_INFINITY;
        for (int i = 0; i < endpoints.size(); i++) {
            double millis = endpoints.get(i).fact(recentMillis);
            if (millis < fastest) { // NaN (not heard from yet) takes no part
                fastest = millis;
            }
        }
        for (int i = 0; i < endpoints.size(); i++) {
            double millis = endpoints.get(i).fact(recentMillis);
            scores[i] = Double.isNaN(millis) ? 0 : fastest / millis;
        }
    }

    @Override
    public String toString() {
        return TYPE;
    }
}
