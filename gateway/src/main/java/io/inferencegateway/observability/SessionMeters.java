package io.inferencegateway.observability;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.scheduling.PluginPolicy;
import io.inferencegateway.scheduling.session.SessionTable;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * The meters of a pool's session affinity (docs/sessions.md): the sessions it remembers, and the sessions that moved to
 * another pod, by why. Both read the pool's session table when Prometheus scrapes, so the request path pays nothing
 * for them. Labels: the pool, and one of three reasons.
 */
final class SessionMeters {

    private SessionMeters() {
    }

    /** Registers the pool's session meters, or removes them when its policy (after a reload) keeps no sessions. */
    static void register(MeterRegistry registry, LiveState state, ModelPool pool) {
        String name = pool.name();
        List<Meter.Id> ids = new ArrayList<>();
        ids.add(new Meter.Id("inference_gateway_sessions", Tags.of("pool", name), null, null, Meter.Type.GAUGE));
        for (String reason : SessionTable.MOVE_REASONS) {
            ids.add(new Meter.Id("inference_gateway_session_moves", Tags.of("pool", name, "reason", reason), null,
                    null, Meter.Type.COUNTER));
        }
        if (table(pool) == null) {
            ids.forEach(registry::remove);
            return;
        }
        Gauge.builder("inference_gateway_sessions", state,
                g -> value(g, name, t -> t.size(g.clock().nanoTime()), Double.NaN))
                .description("Sessions (conversations) the pool remembers the pod of")
                .tag("pool", name).register(registry);
        for (String reason : SessionTable.MOVE_REASONS) {
            FunctionCounter.builder("inference_gateway_session_moves", state, g -> value(g, name, t -> t.moves(reason), 0))
                    .description("Sessions sent to another pod than their own: saturated (a filter removed it), "
                            + "pod_gone (no longer a candidate) or outscored (other scorers outweighed it); a pool "
                            + "rebuilt by a reload counts afresh")
                    .tag("pool", name).tag("reason", reason).register(registry);
        }
    }

    private static SessionTable table(ModelPool pool) {
        return pool.policy() instanceof PluginPolicy plugins ? plugins.sessions() : null;
    }

    /** {@code read} of the pool's table as it is now; {@code none} when the pool (or its table) is gone. */
    private static double value(LiveState g, String pool, ToDoubleFunction<SessionTable> read, double none) {
        ModelPool p = g.pools().get().pool(pool);
        SessionTable t = p == null ? null : table(p);
        return t == null ? none : read.applyAsDouble(t);
    }
}
