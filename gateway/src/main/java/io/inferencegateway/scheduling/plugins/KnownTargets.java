package io.inferencegateway.scheduling.plugins;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.inferencegateway.config.TargetConfig;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.RecentFailures;
import io.inferencegateway.scheduling.framework.DataProducer;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.PluginContext;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

/**
 * At a global tier, which cluster or provider each candidate is (its region, kind and price) and the share of this
 * gateway's recent requests to it that failed: the facts the global tier's plugins weigh (docs/global.md). A pool of
 * targets brings it; a pool of pods has none.
 */
public final class KnownTargets implements DataProducer {

    private final Map<Endpoint, TargetConfig> byAddress = new HashMap<>();
    private final RecentFailures failures;

    private KnownTargets(List<TargetConfig> targets, RecentFailures failures) {
        targets.forEach(t -> byAddress.put(t.address(), t));
        this.failures = failures;
    }

    /** Registers the facts of {@code pool}'s targets, when it has any. */
    public static void register(PluginContext pool) {
        if (!pool.targets().isEmpty()) {
            pool.producer(DataProducer.FACTS, new KnownTargets(pool.targets(), pool.failures()));
        }
    }

    @Override
    public void produce(SchedulingCycle cycle) {
        List<EndpointState> states = cycle.states();
        for (int i = 0; i < states.size(); i++) {
            EndpointState s = states.get(i);
            s.target(byAddress.get(s.endpoint()), failures.failureRatio(s.endpoint()));
        }
    }

    @Override
    public String toString() {
        return "known-targets";
    }
}
