package io.inferencegateway.discovery;

import java.util.Map;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;

/** Pods as the API server reports them, in the states discovery cares about. */
public final class TestPods {

    public static final Map<String, String> LLAMA = Map.of("app", "llama", "tier", "gpu");

    private TestPods() {
    }

    /** Running, Ready=True, not terminating. */
    public static Pod serving(String name, String namespace, String ip, Map<String, String> labels) {
        return pod(name, namespace, ip, labels, "Running", "True");
    }

    public static Pod pod(String name, String namespace, String ip, Map<String, String> labels, String phase,
            String ready) {
        PodBuilder b = new PodBuilder()
                .withNewMetadata().withName(name).withNamespace(namespace).withLabels(labels).endMetadata()
                .withNewSpec().addNewContainer().withName("vllm").withImage("vllm/vllm-openai").endContainer()
                .endSpec()
                .withNewStatus().withPhase(phase).withPodIP(ip).endStatus();
        if (ready != null) {
            b.editStatus().addNewCondition().withType("Ready").withStatus(ready).endCondition().endStatus();
        }
        return b.build();
    }

    /** The pod with its Ready condition set to {@code ready}. */
    public static Pod withReady(Pod pod, String ready) {
        Pod copy = new PodBuilder(pod).editStatus().withConditions().addNewCondition().withType("Ready")
                .withStatus(ready).endCondition().endStatus().build();
        return copy;
    }

    /** The pod as it looks while terminating: still Running and Ready, with a deletion timestamp. */
    public static Pod terminating(Pod pod) {
        return new PodBuilder(pod).editMetadata().withDeletionTimestamp("2026-01-01T00:00:00Z")
                .withDeletionGracePeriodSeconds(30L).endMetadata().build();
    }
}
