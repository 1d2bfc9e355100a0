package io.inferencegateway.testing;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;

/**
 * fabric8's Kubernetes mock API server on loopback, in CRUD mode (pods created, changed and deleted through
 * the client are listed and watched like on a cluster) plus one-off expectations, used to make the server
 * end a watch.
 */
public final class MockCluster implements AutoCloseable {

    private final KubernetesMockServer server;
    private final KubernetesClient client;
    private final List<String> requestPaths = new ArrayList<>();

    public MockCluster() throws Exception {
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        server = new KubernetesMockServer(new Context(), new MockWebServer(), responses,
                new KubernetesMixedDispatcher(responses), false);
        server.init(InetAddress.getByName("127.0.0.1"), 0);
        client = server.createClient();
    }

    /** What the gateway's {@code gateway.kubernetes.masterUrl} should be. */
    public String masterUrl() {
        return "http://127.0.0.1:" + server.getPort();
    }

    public KubernetesClient client() {
        return client;
    }

    /** A pod in the Running phase with Ready={@code ready}. */
    public Pod createPod(String namespace, String name, Map<String, String> labels, String ip, boolean ready) {
        Pod pod = new PodBuilder()
                .withNewMetadata().withName(name).withNamespace(namespace).withLabels(labels).endMetadata()
                .withNewSpec().addNewContainer().withName("vllm").withImage("vllm/vllm-openai").endContainer().endSpec()
                .withNewStatus().withPhase("Running").withPodIP(ip)
                .addNewCondition().withType("Ready").withStatus(ready ? "True" : "False").endCondition()
                .endStatus()
                .build();
        return client.pods().inNamespace(namespace).resource(pod).create();
    }

    /** Flips the pod's Ready condition, as the kubelet does when its readiness probe passes or fails. */
    public void setReady(String namespace, String name, boolean ready) {
        client.pods().inNamespace(namespace).withName(name).edit(p -> new PodBuilder(p).editStatus()
                .withConditions().addNewCondition().withType("Ready").withStatus(ready ? "True" : "False")
                .endCondition().endStatus().build());
    }

    public void deletePod(String namespace, String name) {
        client.pods().inNamespace(namespace).withName(name).delete();
    }

    /**
     * The next watch of pods in {@code namespace} by {@code labelKey=labelValue} is ended by the server with
     * 410 Gone (its resource version expired), which ends a fabric8 watch for good.
     */
    public void expireNextWatch(String namespace, String labelKey, String labelValue) {
        server.expect().get()
                .withPath("/api/v1/namespaces/" + namespace + "/pods?allowWatchBookmarks=true&labelSelector="
                        + labelKey + "%3D" + labelValue + "&watch=true")
                .andUpgradeToWebSocket().open()
                .immediately().andEmit(new WatchEvent(new StatusBuilder().withCode(410).withReason("Expired")
                        .withMessage("too old resource version").build(), "ERROR"))
                .done().once();
    }

    /** Paths of every request the server received so far, in order. */
    public synchronized List<String> requestPaths() throws InterruptedException {
        for (RecordedRequest r = server.takeRequest(0, TimeUnit.MILLISECONDS); r != null;
                r = server.takeRequest(0, TimeUnit.MILLISECONDS)) {
            requestPaths.add(r.getPath());
        }
        return List.copyOf(requestPaths);
    }

    /** How many watches of pods in {@code namespace} were opened. */
    public long watchesOpened(String namespace) throws InterruptedException {
        return requestPaths().stream()
                .filter(p -> p.startsWith("/api/v1/namespaces/" + namespace + "/pods?") && p.contains("watch=true"))
                .count();
    }

    @Override
    public void close() {
        client.close();
        server.destroy();
    }
}
