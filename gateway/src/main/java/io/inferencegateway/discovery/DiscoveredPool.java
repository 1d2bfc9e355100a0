package io.inferencegateway.discovery;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.fabric8.kubernetes.api.model.Pod;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.pool.ModelPool;

/**
 * A model pool whose pods are found on Kubernetes: its selector, what the watch and the resyncs said about
 * its pods, and the {@link ModelPool} they feed. The pool's endpoints are its static endpoints followed by
 * its serving pods as {@code podIP:targetPort}; they are replaced whole on every change, so the request path
 * only ever reads a list.
 */
public final class DiscoveredPool {

    /** Taken before a resync lists the pods; hands the list back to the pool that asked for it. */
    public record ResyncTicket(DiscoveredPool pool, long seq) {
    }

    private final String namespace;
    private final Map<String, String> matchLabels;
    private final PodSet pods = new PodSet();
    // the endpoints this pool had under its previous selector: kept until the new selector's first list
    private List<Endpoint> inherited;
    private ModelPool target;

    DiscoveredPool(String namespace, Map<String, String> matchLabels, List<Endpoint> inherited) {
        this.namespace = namespace;
        this.matchLabels = Map.copyOf(matchLabels);
        this.inherited = List.copyOf(inherited);
    }

    public String namespace() {
        return namespace;
    }

    public Map<String, String> matchLabels() {
        return matchLabels;
    }

    boolean selects(String otherNamespace, Map<String, String> otherLabels) {
        return namespace.equals(otherNamespace) && matchLabels.equals(otherLabels);
    }

    /** Makes {@code pool} the one this discovery feeds (at start-up, or after a reload), and fills it. */
    synchronized void feed(ModelPool pool) {
        target = pool;
        publish();
    }

    /**
     * Applies one watch event ({@code ADDED}, {@code MODIFIED}, {@code DELETED}; others carry no pod state).
     * A pod that no longer matches the selector counts as not serving.
     *
     * @return true when the pool's endpoints changed
     */
    public synchronized boolean onWatchEvent(String action, Pod pod) {
        if (pod == null || pod.getMetadata() == null || pod.getMetadata().getName() == null) {
            return false;
        }
        String name = pod.getMetadata().getName();
        boolean changed = switch (action) {
            case "ADDED", "MODIFIED" -> pods.put(name, servingIpIfSelected(pod));
            case "DELETED" -> pods.delete(name);
            default -> false;
        };
        if (changed) {
            publish();
        }
        return changed;
    }

    public synchronized ResyncTicket beginResync() {
        return new ResyncTicket(this, pods.beginResync());
    }

    /**
     * Applies the list a resync fetched with {@code ticket}.
     *
     * @return true when the list corrected pods the watch should have reported: the watch has missed events
     *         (the first list does not count, since the watch may not have reported anything yet)
     */
    synchronized boolean onResync(long ticket, List<Pod> listed) {
        Map<String, String> byName = new HashMap<>();
        for (Pod pod : listed) {
            if (pod.getMetadata() != null && pod.getMetadata().getName() != null
                    && ServingPods.selectedBy(pod, namespace, matchLabels)) {
                byName.put(pod.getMetadata().getName(), ServingPods.servingIp(pod));
            }
        }
        boolean first = pods.resyncs() == 0;
        PodSet.ResyncResult result = pods.resync(ticket, byName);
        if (first && !inherited.isEmpty()) {
            inherited = List.of();
            publish();
        } else if (result.changed()) {
            publish();
        }
        return !first && result.corrected() > 0;
    }

    /** The serving pods as endpoints of the pool fed now. */
    synchronized List<Endpoint> discovered() {
        if (target == null) {
            return List.of();
        }
        return List.copyOf(podEndpoints(target.config().targetPort()));
    }

    private String servingIpIfSelected(Pod pod) {
        return ServingPods.selectedBy(pod, namespace, matchLabels) ? ServingPods.servingIp(pod) : null;
    }

    private void publish() {
        if (target == null) {
            return;
        }
        Set<Endpoint> all = new LinkedHashSet<>(target.config().endpoints());
        all.addAll(inherited);
        all.addAll(podEndpoints(target.config().targetPort()));
        target.updateEndpoints(List.copyOf(all));
    }

    private Set<Endpoint> podEndpoints(int port) {
        Set<Endpoint> endpoints = new LinkedHashSet<>();
        for (String ip : pods.servingIps()) {
            endpoints.add(new Endpoint(ip, port));
        }
        return endpoints;
    }
}
