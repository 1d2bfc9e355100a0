package io.inferencegateway.scheduling.extending;

import java.util.List;

import io.inferencegateway.scheduling.framework.DataProducer;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.Fact;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

/** A data producer: attaches each candidate's recent time to first token to the request's snapshot, as a fact. */
public final class RecentFirstTokenFacts implements DataProducer {

    private final RecentFirstTokens learned;
    private final Fact recentMillis;

    public RecentFirstTokenFacts(RecentFirstTokens learned, Fact recentMillis) {
        this.learned = learned;
        this.recentMillis = recentMillis;
    }

    @Override
    public void produce(SchedulingCycle cycle) {
        List<EndpointState> candidates = cycle.states();
        for (int i = 0; i < candidates.size(); i++) {
            EndpointState candidate = candidates.get(i);
            candidate.fact(recentMillis, learned.millis(candidate.endpoint()));
        }
    }
}
