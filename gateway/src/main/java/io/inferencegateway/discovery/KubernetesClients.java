package io.inferencegateway.discovery;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/**
 * The one Kubernetes API client the discovery routes share (a client per route would cost each its own
 * connection pool and event-loop threads, and removed routes would keep theirs).
 */
public final class KubernetesClients {

    private KubernetesClients() {
    }

    /**
     * {@code local} (or blank): the standard configuration, i.e. the pod's service account in a cluster, else the
     * kubeconfig and the {@code KUBERNETES_*} environment; anything else is the API server's URL.
     */
    public static KubernetesClient connect(String masterUrl) {
        ConfigBuilder config = new ConfigBuilder(Config.autoConfigure(null))
                // the resync route retries every period anyway; the client's own backoff (about 100 s over
                // 10 retries by default) would only hold a failing list, and shutdown, for that long
                .withRequestRetryBackoffLimit(1);
        if (masterUrl != null && !masterUrl.isBlank() && !masterUrl.equals("local")) {
            config.withMasterUrl(masterUrl);
        }
        return new KubernetesClientBuilder().withConfig(config.build()).build();
    }
}
