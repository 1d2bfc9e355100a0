package io.inferencegateway.camel;

import io.inferencegateway.core.Gateway;
import io.inferencegateway.core.ModelPool;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.TemplatedRouteBuilder;
import org.apache.camel.spi.OnCamelContextStarted;

/**
 * Gives every model pool its own routes from the YAML route templates: today the {@code metrics-scrape}
 * timer that keeps the pool's metrics fresh. Pools come from the config, so their routes are made when
 * the context starts rather than written out in YAML.
 */
public final class PoolRoutes implements OnCamelContextStarted {

    private final Gateway gateway;

    public PoolRoutes(Gateway gateway) {
        this.gateway = gateway;
    }

    /** Registry name of the scraper bean the {@code model-server-metrics-source} Kamelet calls. */
    static final String METRICS_SCRAPER = "metricsScraper";

    @Override
    public void onContextStarted(CamelContext context) {
        context.getRegistry().bind(METRICS_SCRAPER, gateway.metricsScraper());
        for (ModelPool pool : gateway.pools().pools()) {
            addMetricsScrape(context, pool);
        }
    }

    static String metricsRouteId(String pool) {
        return "metrics-scrape-" + pool;
    }

    private static void addMetricsScrape(CamelContext context, ModelPool pool) {
        TemplatedRouteBuilder.builder(context, "metrics-scrape")
                .routeId(metricsRouteId(pool.name()))
                .parameter("pool", pool.name())
                .parameter("period", Long.toString(pool.config().metricsInterval().toMillis()))
                .add();
    }
}
