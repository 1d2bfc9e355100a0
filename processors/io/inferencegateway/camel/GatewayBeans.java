package io.inferencegateway.camel;

import io.inferencegateway.discovery.PodDiscovery;
import io.inferencegateway.edge.ClientConnections;
import io.inferencegateway.edge.RequestSizeGuard;
import io.inferencegateway.metrics.MetricsScraper;
import io.inferencegateway.pool.FlowControlTicker;
import io.inferencegateway.runtime.Gateway;

/**
 * Where the Camel layer meets the gateway's state: the beans of routes/gateway-beans.camel.yaml that need a part of the
 * {@link Gateway} are made here, each given only the parts it uses (a YAML bean can be made by a static factory method
 * given other beans, not by a getter of one). Pools, the authenticator and the config are handed over as suppliers:
 * a reload replaces them.
 */
public final class GatewayBeans {

    private GatewayBeans() {
    }

    /** What routes/metrics-scrape.camel.yaml calls. */
    public static MetricsScraper metricsScraper(Gateway gateway) {
        return gateway.metricsScraper();
    }

    /** What routes/metrics-scrape.camel.yaml calls after the scrape. */
    public static FlowControlTicker flowControlTicker(Gateway gateway) {
        return gateway.flowControlTicker();
    }

    /** What routes/pod-watch.camel.yaml calls, and routes/pod-resync.camel.yaml through PodResync. */
    public static PodDiscovery podDiscovery(Gateway gateway) {
        return gateway.discovery();
    }

    /** The ingress's connection hygiene, counting in the gateway's connection meters. */
    public static ClientConnections clientConnections(Gateway gateway) {
        return new ClientConnections(gateway.meters().connections());
    }

    public static RequestSizeGuard requestSizeGuard(Gateway gateway) {
        return new RequestSizeGuard(gateway::maxRequestBodyBytes);
    }

    public static GracefulDrain gracefulDrain(Gateway gateway) {
        return new GracefulDrain(gateway.inFlight());
    }

    public static Readiness readiness(Gateway gateway, GracefulDrain drain) {
        return new Readiness(gateway::pools, drain);
    }

    public static Authenticate authenticate(Gateway gateway) {
        return new Authenticate(gateway::authenticator, gateway::config, gateway::clusterToken);
    }

    public static ParseInferenceRequest parseInferenceRequest(Gateway gateway) {
        return new ParseInferenceRequest(gateway.requestListeners(), gateway.clock(),
                () -> gateway.pools().promptChars());
    }

    public static TokenizePrompt tokenizePrompt(Gateway gateway) {
        return new TokenizePrompt(gateway.tokenizers());
    }

    public static ChooseModelVersion chooseModelVersion(Gateway gateway) {
        return new ChooseModelVersion(gateway::modelVersions, gateway::rolloutWeights);
    }

    public static ResolveModelPool resolveModelPool(Gateway gateway) {
        return new ResolveModelPool(gateway::pools);
    }

    /** What routes/inference.camel.yaml's copy-to-shadow step calls (docs/shadow.md). */
    public static CopyToShadow copyToShadow(Gateway gateway) {
        return new CopyToShadow(gateway.shadowTraffic());
    }

    public static EnforceRateLimit enforceRateLimit(Gateway gateway) {
        return new EnforceRateLimit(gateway.rateLimiter());
    }

    public static ListModels listModels(Gateway gateway) {
        return new ListModels(gateway::pools, gateway::modelVersions);
    }

    public static RetrieveModel retrieveModel(Gateway gateway) {
        return new RetrieveModel(gateway::pools, gateway::modelVersions);
    }

    public static FleetState fleetState(Gateway gateway) {
        return new FleetState(gateway.fleetView());
    }

    public static CapacityExposition capacityExposition(Gateway gateway) {
        return new CapacityExposition(gateway.capacitySummary());
    }
}
