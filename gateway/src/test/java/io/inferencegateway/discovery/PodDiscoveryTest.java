package io.inferencegateway.discovery;

import static io.inferencegateway.discovery.TestPods.LLAMA;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.Pod;
import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.config.GatewayConfig;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.runtime.Gateway;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.domain.NanoClock;

/** Discovery feeding pools through the Camel-free gateway: events, resyncs and what a reload keeps. */
class PodDiscoveryTest {

    static GatewayConfig config(String llamaSelector, String llamaExtra) throws Exception {
        return ConfigLoader.parse("""
                kind: InferenceGatewayConfig
                spec:
                  schedulers:
                    - name: llama
                      modelName: meta-llama/Llama-3.1-8B-Instruct
                      namespace: ns
                      targetPort: 8000
                      modelSelector: {matchLabels: %s}
                      endpoints: ["10.9.9.9:8000"]
                %s
                    - name: static
                      modelName: qwen
                      endpoints: ["127.0.0.1:9000"]
                """.formatted(llamaSelector, llamaExtra));
    }

    private final Gateway gateway;
    private final PodDiscovery discovery;

    PodDiscoveryTest() throws Exception {
        gateway = new Gateway(config("{app: llama, tier: gpu}", ""), NanoClock.SYSTEM);
        discovery = gateway.discovery();
    }

    private ModelPool llama() {
        return gateway.pools().pool("llama");
    }

    private static Endpoint e(String text) {
        return Endpoint.parse(text);
    }

    private void event(String action, Pod pod) {
        discovery.onWatchEvent("llama", action, pod);
    }

    @Test
    void staticEndpointsComeFirstThenServingPodsOnTheTargetPort() {
        assertThat(llama().endpoints()).containsExactly(e("10.9.9.9:8000"));
        assertThat(discovery.pool("static")).as("no selector, no discovery").isNull();

        event("ADDED", TestPods.serving("b", "ns", "10.0.0.2", LLAMA));
        event("ADDED", TestPods.serving("a", "ns", "10.0.0.1", LLAMA));
        event("ADDED", TestPods.pod("c", "ns", "10.0.0.3", LLAMA, "Pending", "False"));

        assertThat(llama().endpoints()).containsExactly(e("10.9.9.9:8000"), e("10.0.0.1:8000"), e("10.0.0.2:8000"));
    }

    @Test
    void notReadyTerminatingDeletedAndRelabelledPodsLeaveAtOnce() {
        Pod a = TestPods.serving("a", "ns", "10.0.0.1", LLAMA);
        Pod b = TestPods.serving("b", "ns", "10.0.0.2", LLAMA);
        Pod c = TestPods.serving("c", "ns", "10.0.0.3", LLAMA);
        Pod d = TestPods.serving("d", "ns", "10.0.0.4", LLAMA);
        for (Pod p : List.of(a, b, c, d)) {
            event("ADDED", p);
        }

        event("MODIFIED", TestPods.withReady(a, "False"));
        event("MODIFIED", TestPods.terminating(b));
        event("DELETED", c);
        event("MODIFIED", TestPods.serving("d", "ns", "10.0.0.4", java.util.Map.of("app", "llama")));

        assertThat(llama().endpoints()).containsExactly(e("10.9.9.9:8000"));
    }

    @Test
    void podsOfAnotherNamespaceOrLabelAreIgnored() {
        event("ADDED", TestPods.serving("x", "other", "10.0.0.1", LLAMA));
        event("ADDED", TestPods.serving("y", "ns", "10.0.0.2", java.util.Map.of("app", "llama", "tier", "cpu")));
        discovery.onWatchEvent("no-such-pool", "ADDED", TestPods.serving("z", "ns", "10.0.0.3", LLAMA));

        assertThat(llama().endpoints()).containsExactly(e("10.9.9.9:8000"));
    }

    @Test
    void onlyALaterResyncThatCorrectsSomethingSaysTheWatchMissedEvents() {
        DiscoveredPool.ResyncTicket first = discovery.beginResync("llama");
        assertThat(discovery.onResync(first, List.of(TestPods.serving("a", "ns", "10.0.0.1", LLAMA))))
                .as("the first list may run ahead of the watch").isFalse();
        assertThat(llama().endpoints()).containsExactly(e("10.9.9.9:8000"), e("10.0.0.1:8000"));

        DiscoveredPool.ResyncTicket agreeing = discovery.beginResync("llama");
        assertThat(discovery.onResync(agreeing, List.of(TestPods.serving("a", "ns", "10.0.0.1", LLAMA)))).isFalse();

        DiscoveredPool.ResyncTicket correcting = discovery.beginResync("llama");
        assertThat(discovery.onResync(correcting, List.of())).as("a deletion the watch never reported").isTrue();
        assertThat(llama().endpoints()).containsExactly(e("10.9.9.9:8000"));
        assertThat(discovery.labels("llama")).isEqualTo(LLAMA);
        assertThat(discovery.beginResync("no-such-pool")).isNull();
    }

    @Test
    void reloadWithTheSameSelectorKeepsDiscoveredPodsEvenWhenThePoolIsRebuilt() throws Exception {
        event("ADDED", TestPods.serving("a", "ns", "10.0.0.1", LLAMA));
        ModelPool before = llama();

        gateway.reload(config("{app: llama, tier: gpu}", "      policy: round-robin"));

        assertThat(llama()).as("changed config, new pool").isNotSameAs(before);
        assertThat(llama().endpoints()).containsExactly(e("10.9.9.9:8000"), e("10.0.0.1:8000"));
        event("DELETED", TestPods.serving("a", "ns", "10.0.0.1", LLAMA));
        assertThat(llama().endpoints()).as("events now feed the new pool").containsExactly(e("10.9.9.9:8000"));
        assertThat(before.endpoints()).as("the old pool is left as it was").contains(e("10.0.0.1:8000"));
    }

    @Test
    void reloadWithANewSelectorServesTheOldPodsUntilItsFirstList() throws Exception {
        event("ADDED", TestPods.serving("a", "ns", "10.0.0.1", LLAMA));

        gateway.reload(config("{app: llama-v2}", ""));

        assertThat(llama().endpoints()).containsExactly(e("10.9.9.9:8000"), e("10.0.0.1:8000"));
        event("ADDED", TestPods.serving("v2", "ns", "10.0.0.2", java.util.Map.of("app", "llama-v2")));
        discovery.onResync(discovery.beginResync("llama"),
                List.of(TestPods.serving("v2", "ns", "10.0.0.2", java.util.Map.of("app", "llama-v2"))));
        assertThat(llama().endpoints()).containsExactly(e("10.9.9.9:8000"), e("10.0.0.2:8000"));
    }

    @Test
    void aListAskedForBeforeAReloadChangedTheSelectorDoesNotTouchTheNewPool() throws Exception {
        DiscoveredPool.ResyncTicket stale = discovery.beginResync("llama");
        gateway.reload(config("{app: llama-v2}", ""));
        event("ADDED", TestPods.serving("v2", "ns", "10.0.0.2", java.util.Map.of("app", "llama-v2")));

        discovery.onResync(stale, List.of(TestPods.serving("old", "ns", "10.0.0.1", LLAMA)));

        assertThat(llama().endpoints()).containsExactly(e("10.9.9.9:8000"), e("10.0.0.2:8000"));
    }
}
