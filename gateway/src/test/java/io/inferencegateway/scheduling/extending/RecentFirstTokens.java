package io.inferencegateway.scheduling.extending;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.RequestRecord;
import io.inferencegateway.scheduling.framework.LifecyclePlugin;
import io.inferencegateway.scheduling.framework.MembershipListener;

/**
 * A lifecycle plugin: learns each pod's recent time to first token from the streamed answers it gave to the requests
 * its pool placed there, as a moving average. It forgets pods that left the pool.
 */
public final class RecentFirstTokens implements LifecyclePlugin, MembershipListener {

    private final Map<Endpoint, Double> millisByPod = new ConcurrentHashMap<>();

    @Override
    public void firstToken(RequestRecord record) {
        PickDecision decision = record.decision();
        if (decision == null || !record.stream() || record.status() != 200) {
            return;
        }
        double millis = (record.firstTokenNanos() - record.startNanos()) / 1e6;
        millisByPod.merge(decision.endpoint(), millis, (before, now) -> before + 0.2 * (now - before));
    }

    /** The pod's recent time to first token in milliseconds; NaN before its first answer. */
    public double millis(Endpoint pod) {
        Double millis = millisByPod.get(pod);
        return millis == null ? Double.NaN : millis;
    }

    @Override
    public void endpointsChanged(List<Endpoint> current) {
        millisByPod.keySet().retainAll(current);
    }
}
