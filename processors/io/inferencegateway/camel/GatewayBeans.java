package io.inferencegateway.camel;

import io.inferencegateway.runtime.Gateway;
import io.inferencegateway.discovery.PodDiscovery;
import io.inferencegateway.metrics.MetricsScraper;
import io.inferencegateway.pool.FlowControlTicker;

/**
 * The gateway's parts the per-pool routes call, as factories for routes/gateway-beans.camel.yaml: a YAML bean can be
 * made by a static factory method given other beans, not by a getter of one.
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
}
