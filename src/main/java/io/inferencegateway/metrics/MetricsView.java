package io.inferencegateway.metrics;

import io.inferencegateway.domain.Endpoint;

/** Read side of the metrics cache, as the scheduler sees it. */
@FunctionalInterface
public interface MetricsView {

    /** The last good scrape of the endpoint, or null if it was never scraped successfully. */
    EndpointMetrics latest(Endpoint endpoint);
}
