package io.inferencegateway.camel;

import static io.inferencegateway.discovery.TestPods.LLAMA;
import static io.inferencegateway.discovery.TestPods.serving;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.util.List;
import java.util.Map;

import org.apache.camel.Exchange;
import org.apache.camel.component.kubernetes.KubernetesConstants;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;

import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.runtime.Gateway;
import io.inferencegateway.domain.NanoClock;

/** The pod-resync route's decisions on bare exchanges: what is listed, what a list or a failed list does. */
class PodResyncTest {

    static final DefaultCamelContext CAMEL = new DefaultCamelContext();
    final Gateway gateway;
    final PodResync resync;
    final ListAppender<ILoggingEvent> log = new ListAppender<>();
    final Logger resyncLog = (Logger) LoggerFactory.getLogger("io.inferencegateway.discovery.resync");

    PodResyncTest() throws Exception {
        gateway = new Gateway(ConfigLoader.parse("""
                kind: InferenceGatewayConfig
                spec:
                  schedulers:
                    - {name: llama, modelName: llama, namespace: ns, targetPort: 8000,
                       modelSelector: {matchLabels: {app: llama, tier: gpu}}}
                    - {name: static, modelName: static, endpoints: ["10.0.0.9:8000"]}
                """), NanoClock.SYSTEM);
        resync = new PodResync(gateway.discovery(), new PoolRoutes(gateway));
        log.start();
        resyncLog.addAppender(log);
    }

    @AfterEach
    void stop() {
        resyncLog.detachAppender(log);
    }

    /** One tick of the route: begin, then the list's outcome handed to the strategy. */
    private Exchange tick(String pool, Object listedBody, Exception listFailure) {
        Exchange tick = new DefaultExchange(CAMEL);
        resync.begin(pool, tick);
        if (tick.isRouteStop()) {
            return tick;
        }
        Exchange listed = tick.copy();
        listed.getMessage().setBody(listedBody);
        listed.setException(listFailure);
        return resync.aggregate(tick, listed);
    }

    private List<Endpoint> endpoints() {
        return gateway.pools().pool("llama").endpoints();
    }

    private List<String> warnings() {
        return log.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }

    @Test
    void beginNamesThePoolsNamespaceAndLabels() {
        Exchange tick = new DefaultExchange(CAMEL);
        resync.begin("llama", tick);

        assertThat(tick.isRouteStop()).isFalse();
        assertThat(tick.getMessage().getHeader(KubernetesConstants.KUBERNETES_NAMESPACE_NAME)).isEqualTo("ns");
        assertThat(tick.getMessage().getHeader(KubernetesConstants.KUBERNETES_PODS_LABELS)).isEqualTo(LLAMA);
    }

    @Test
    void aPoolWithoutSelectorOrRemovedByAReloadStopsTheTick() {
        assertThat(tick("static", null, null).isRouteStop()).isTrue();
        assertThat(tick("gone", null, null).isRouteStop()).isTrue();
    }

    @Test
    void aListSetsThePoolsEndpoints() {
        Exchange out = tick("llama", List.of(serving("a", "ns", "10.0.0.1", LLAMA),
                serving("cpu", "ns", "10.0.0.2", Map.of("app", "llama", "tier", "cpu"))), null);

        assertThat(out.getException()).isNull();
        assertThat(endpoints()).containsExactly(Endpoint.parse("10.0.0.1:8000"));
        assertThat(warnings()).isEmpty();
    }

    @Test
    void aFailedListIsAWarningAndTheTickEndsWell() {
        tick("llama", List.of(serving("a", "ns", "10.0.0.1", LLAMA)), null);

        Exchange out = tick("llama", null, new IllegalStateException("list failed",
                new ConnectException("Connection refused")));

        assertThat(out.getException()).isNull();
        assertThat(endpoints()).as("the pods known before stay").containsExactly(Endpoint.parse("10.0.0.1:8000"));
        assertThat(warnings()).containsExactly(
                "pool llama: listing pods in namespace ns failed: list failed (ConnectException: Connection refused)");
    }

    @Test
    void aListThatCorrectsTheWatchReopensIt() {
        tick("llama", List.of(serving("a", "ns", "10.0.0.1", LLAMA)), null);
        tick("llama", List.of(serving("a", "ns", "10.0.0.1", LLAMA)), null);
        assertThat(warnings()).as("a list that agrees").isEmpty();

        tick("llama", List.of(), null); // a deletion no watch event reported

        assertThat(endpoints()).isEmpty();
        assertThat(warnings()).containsExactly(
                "pool llama: the pod watch missed changes; corrected them and re-opening the watch");
    }
}
