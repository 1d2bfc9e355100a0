package io.inferencegateway.camel;

import java.util.List;

import io.fabric8.kubernetes.api.model.Pod;
import io.inferencegateway.discovery.DiscoveredPool;
import io.inferencegateway.discovery.PodDiscovery;
import org.apache.camel.AggregationStrategy;
import org.apache.camel.Exchange;
import org.apache.camel.component.kubernetes.KubernetesConstants;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The decisions of the pod-resync route (routes/pod-resync.camel.yaml): {@link #begin} before it lists a pool's
 * pods, and {@link #aggregate}, the list's aggregation strategy, after. The ticket taken before the list keeps what
 * the watch reports meanwhile over the list (src/main/java/io/inferencegateway/discovery/PodSet.java). A list
 * that had to correct pods the watch should have reported means the watch is dead (camel-kubernetes does not
 * re-open a watch the API server ended, e.g. 410 Gone), so it is restarted; a list that fails is logged and the
 * next tick tries again.
 */
public final class PodResync implements AggregationStrategy {

    private static final Logger LOG = LoggerFactory.getLogger("io.inferencegateway.discovery.resync");

    /** The resync under way: its pool and the ticket taken before the list. */
    private record PendingResync(String pool, DiscoveredPool.ResyncTicket ticket) {
    }

    private static final String RESYNC = "gatewayResync";

    private final PodDiscovery discovery;
    private final PoolRoutes poolRoutes;

    public PodResync(PodDiscovery discovery, PoolRoutes poolRoutes) {
        this.discovery = discovery;
        this.poolRoutes = poolRoutes;
    }

    /**
     * Takes the pool's resync ticket and sets the namespace and labels to list by; stops the exchange for a pool a
     * config reload removed.
     */
    public void begin(String pool, Exchange exchange) {
        DiscoveredPool.ResyncTicket ticket = discovery.beginResync(pool);
        if (ticket == null) {
            exchange.setRouteStop(true);
            return;
        }
        exchange.setProperty(RESYNC, new PendingResync(pool, ticket));
        exchange.getMessage().setHeader(KubernetesConstants.KUBERNETES_NAMESPACE_NAME, ticket.pool().namespace());
        exchange.getMessage().setHeader(KubernetesConstants.KUBERNETES_PODS_LABELS, ticket.pool().matchLabels());
    }

    /** Applies the listed pods to the pool that asked for them and re-opens a watch that missed changes. */
    @Override
    public Exchange aggregate(Exchange tick, Exchange listed) {
        PendingResync resync = tick.getProperty(RESYNC, PendingResync.class);
        Exception failure = listed.getException();
        if (failure != null) {
            LOG.warn("pool {}: listing pods in namespace {} failed: {}", resync.pool(),
                    resync.ticket().pool().namespace(), describe(failure));
            return tick;
        }
        @SuppressWarnings("unchecked")
        List<Pod> pods = listed.getMessage().getBody(List.class);
        if (discovery.onResync(resync.ticket(), pods)) {
            LOG.warn("pool {}: the pod watch missed changes; corrected them and re-opening the watch", resync.pool());
            poolRoutes.rewatch(resync.pool());
        }
        return tick;
    }

    /** The failure's message and, when it has one, its root cause's (the client's own says only "list failed"). */
    private static String describe(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == failure ? failure.getMessage()
                : failure.getMessage() + " (" + root.getClass().getSimpleName() + ": " + root.getMessage() + ")";
    }
}
