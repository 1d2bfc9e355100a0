package io.inferencegateway.metrics;

import io.inferencegateway.domain.Endpoint;

/** Read side of the metrics cache, as the scheduler sees it. */
@FunctionalInterface
public interface MetricsView {

    /** The last good scrape of the endpoint, or null if it was never scraped successfully. */
    EndpointMetrics latest(Endpoint endpoint);

    /**
     * A reader of one endpoint's last good scrape that a caller may keep and read request after request while it is
     * {@link Reader#live() live}: a pick reads every candidate's scrape, and a kept reader saves the map lookup each
     * time. This default looks the endpoint up on every read; {@link MetricsCache} hands out its own per-endpoint
     * entry, read with one volatile load.
     */
    default Reader reader(Endpoint endpoint) {
        return new Reader() {
            @Override
            public Endpoint endpoint() {
                return endpoint;
            }

            @Override
            public EndpointMetrics latest() {
                return MetricsView.this.latest(endpoint);
            }
        };
    }

    /** One endpoint's last good scrape, read afresh on every call. */
    interface Reader {
        Endpoint endpoint();

        /** The same as {@link MetricsView#latest} of the endpoint now. */
        EndpointMetrics latest();

        /** False once the view forgot the endpoint: ask the view for a new reader. */
        default boolean live() {
            return true;
        }
    }
}
