package io.inferencegateway.discovery;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.Pod;
import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.pool.ModelPools;

/**
 * Kubernetes pod discovery for every pool with a {@code modelSelector}. The per-pool routes call it: the
 * watch with each pod event, the resync with each list. A reload re-attaches it to the new pools; a pool
 * whose namespace and labels did not change keeps the pods it knows.
 */
public final class PodDiscovery {

    private final String defaultNamespace;
    private volatile Map<String, DiscoveredPool> pools = Map.of();

    /** @param defaultNamespace where pools without a {@code namespace} look for their pods */
    public PodDiscovery(String defaultNamespace) {
        this.defaultNamespace = defaultNamespace;
    }

    /**
     * Feeds {@code modelPools} (at start-up, or the new pools of a reload, before they are served): pools
     * whose selector is unchanged keep their pods; a changed selector starts afresh but serves the old pods
     * until its first list; pools without a selector are left alone.
     */
    public synchronized void attach(ModelPools modelPools) {
        Map<String, DiscoveredPool> next = new HashMap<>();
        for (ModelPool pool : modelPools.pools()) {
            PoolConfig config = pool.config();
            if (config.modelSelector().isEmpty()) {
                continue;
            }
            String namespace = namespaceOf(config);
            DiscoveredPool discovered = pools.get(pool.name());
            if (discovered == null || !discovered.selects(namespace, config.modelSelector())) {
                discovered = new DiscoveredPool(namespace, config.modelSelector(),
                        discovered == null ? List.of() : discovered.discovered());
            }
            discovered.feed(pool);
            next.put(pool.name(), discovered);
        }
        pools = Map.copyOf(next);
    }

    /** The namespace a pool's pods live in: its own, else the gateway's. */
    public String namespaceOf(PoolConfig pool) {
        return pool.namespace() == null || pool.namespace().isBlank() ? defaultNamespace : pool.namespace().trim();
    }

    /** The discovery of a pool, or null when the pool has no selector (or no longer exists). */
    public DiscoveredPool pool(String name) {
        return pools.get(name);
    }

    /** Watch route: one pod event; events for pools that no longer exist are dropped. */
    public boolean onWatchEvent(String pool, String action, Pod pod) {
        DiscoveredPool discovered = pools.get(pool);
        return discovered != null && discovered.onWatchEvent(action, pod);
    }

    /** Resync route: the ticket to list with, or null when the pool no longer exists. */
    public DiscoveredPool.ResyncTicket beginResync(String pool) {
        DiscoveredPool discovered = pools.get(pool);
        return discovered == null ? null : discovered.beginResync();
    }

    /** Resync route: the labels to list by. */
    public Map<String, String> labels(String pool) {
        DiscoveredPool discovered = pools.get(pool);
        return discovered == null ? Map.of() : discovered.matchLabels();
    }

    /**
     * Resync route: applies a list to the pool that asked for it (a pool replaced meanwhile by a reload
     * takes it harmlessly); true when the watch had missed events and should be restarted.
     */
    public boolean onResync(DiscoveredPool.ResyncTicket ticket, List<Pod> pods) {
        return ticket.pool().onResync(ticket.seq(), pods == null ? List.of() : pods);
    }
}
