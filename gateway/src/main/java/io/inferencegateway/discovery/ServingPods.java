package io.inferencegateway.discovery;

import java.util.Map;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;

/**
 * When a pod may take requests: it runs, its Ready condition is True (the model server's readiness probe
 * passed) and it is not being deleted. A terminating pod stays Running and often Ready for its grace period,
 * so the deletion timestamp is what takes it out at once.
 */
final class ServingPods {

    private ServingPods() {
    }

    /** The pod's IP when it may take requests, else null. */
    static String servingIp(Pod pod) {
        if (pod.getMetadata() == null || pod.getMetadata().getDeletionTimestamp() != null || pod.getStatus() == null) {
            return null;
        }
        if (!"Running".equals(pod.getStatus().getPhase()) || !isReady(pod)) {
            return null;
        }
        String ip = pod.getStatus().getPodIP();
        return ip == null || ip.isBlank() ? null : ip;
    }

    private static boolean isReady(Pod pod) {
        if (pod.getStatus().getConditions() == null) {
            return false;
        }
        for (PodCondition c : pod.getStatus().getConditions()) {
            if ("Ready".equals(c.getType())) {
                return "True".equals(c.getStatus());
            }
        }
        return false;
    }

    /** True when the pod lives in {@code namespace} and carries every label of the selector. */
    static boolean selectedBy(Pod pod, String namespace, Map<String, String> matchLabels) {
        if (pod.getMetadata() == null) {
            return false;
        }
        String podNamespace = pod.getMetadata().getNamespace();
        if (podNamespace != null && !podNamespace.equals(namespace)) {
            return false;
        }
        Map<String, String> labels = pod.getMetadata().getLabels();
        if (labels == null) {
            return matchLabels.isEmpty();
        }
        for (Map.Entry<String, String> wanted : matchLabels.entrySet()) {
            if (!wanted.getValue().equals(labels.get(wanted.getKey()))) {
                return false;
            }
        }
        return true;
    }
}
