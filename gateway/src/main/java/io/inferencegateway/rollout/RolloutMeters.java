package io.inferencegateway.rollout;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The meters of model versions and their rollouts (docs/rollouts.md): the requests each rewrite sent to each of its
 * targets, and each rollout's weight, step, state and transitions. Labels are names from the config. One for the
 * gateway's life: a reload's rewrites count on in the same counters, and a rollout is metered once by name.
 */
public final class RolloutMeters implements MeterBinder {

    private static final List<String> STATES = List.of("running", "paused", "aborted", "promoted", "rolled_back");

    private final Set<String> metered = ConcurrentHashMap.newKeySet();
    private volatile MeterRegistry registry;

    @Override
    public void bindTo(MeterRegistry registry) {
        this.registry = registry;
    }

    /** The counter of the requests {@code rewrite} sends to {@code target}; resolved when the rewrite is compiled. */
    Counter versionRequests(String rewrite, String target) {
        return Counter.builder("inference_gateway_version_requests")
                .description("Requests a model rewrite sent to each of its targets")
                .tag("rewrite", rewrite).tag("target", target).register(registry);
    }

    /** A transition of a rollout, counted by the replica that made it (rare: once per analysis interval at most). */
    void transitioned(String rollout, String to) {
        Counter.builder("inference_gateway_rollout_transitions_total")
                .description("Transitions of a rollout: to the next step, promoted, rolled_back, paused, aborted or "
                        + "resumed; counted by the replica that made it")
                .tag("rollout", rollout).tag("to", to).register(registry).increment();
    }

    /** The gauges of rollout {@code name}, registered when it first joins; they read its run in {@code rollouts}. */
    void joined(String name, Rollouts rollouts) {
        if (!metered.add(name)) {
            return;
        }
        gauge("inference_gateway_rollout_weight", "The candidate's share of the rollout's traffic, in percent",
                name, null, rollouts, l -> l.percent());
        gauge("inference_gateway_rollout_step", "The rollout's current step, from 1", name, null, rollouts, l -> {
            Progress p = l.progress();
            return p == null ? Double.NaN : p.step() + 1.0;
        });
        for (String state : STATES) {
            gauge("inference_gateway_rollout_state", "1 for the state the rollout is in: running, paused, aborted, "
                    + "promoted or rolled_back", name, state, rollouts, l -> l.stateLabel().equals(state) ? 1.0 : 0.0);
        }
    }

    private void gauge(String metric, String description, String name, String state, Rollouts rollouts,
            ToDoubleFunction<LiveRollout> value) {
        Gauge.Builder<Rollouts> b = Gauge.builder(metric, rollouts, r -> r.read(name, value))
                .description(description).tag("rollout", name);
        if (state != null) {
            b.tag("state", state);
        }
        b.register(registry);
    }
}
