package io.inferencegateway.pool;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * Ticks the queue of the pool with a given name ({@link FlowControl#tick()}): the step that follows each scrape in a
 * pool's scrape route (routes/metrics-scrape.camel.yaml), so that the readings may bind waiting requests and the
 * waits that ran out are refused. The pool is looked up among the current pools on every tick, since a reload
 * replaces them while the route keeps its pool's name.
 */
public final class FlowControlTicker {

    private final Supplier<ModelPools> pools;

    public FlowControlTicker(Supplier<ModelPools> pools) {
        this.pools = Objects.requireNonNull(pools, "pools");
    }

    /** Ticks the named pool's queue; nothing for a pool that is gone. */
    public void tick(String poolName) {
        ModelPools current = pools.get();
        ModelPool pool = current == null ? null : current.pool(poolName);
        if (pool != null) {
            pool.flowControl().tick();
        }
    }
}
