package io.inferencegateway.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.camel.BeanInject;
import org.apache.camel.BindToRegistry;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.TemplatedRouteBuilder;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.pool.ModelPools;
import io.inferencegateway.domain.NanoClock;

/** The real route template, loaded by Camel Main, scraping a loopback server into the cache. */
@CamelMainTest(properties = {
        "camel.main.routes-include-pattern=file:routes/metrics-scrape.camel.yaml",
})
class MetricsScrapeRouteTest {

    private static final String POOL = "meta-llama/Llama-3.1-8B-Instruct";
    private static final String OTHER_POOL = "qwen3:8b";

    private final FakeModelServer server = new FakeModelServer()
            .serving(PrometheusTextParserTest.fixture("vllm-0.10-metrics.txt"));
    private final FakeModelServer otherServer = new FakeModelServer()
            .serving(PrometheusTextParserTest.fixture("sglang-0.5-metrics.txt"));
    private final MetricsCache cache = new MetricsCache();
    private final AtomicReference<ModelPools> pools = new AtomicReference<>(new ModelPools(List.of(
            MetricsScraperTest.pool(POOL, "vllm", server.endpoint()),
            MetricsScraperTest.pool(OTHER_POOL, "sglang", otherServer.endpoint()))));

    @BindToRegistry("metricsScraper")
    private final MetricsScraper scraper = new MetricsScraper(pools::get, cache, new InFlightRequests(),
            NanoClock.SYSTEM);

    @BeanInject
    private CamelContext context;

    MetricsScrapeRouteTest() throws IOException {
    }

    @AfterEach
    void stop() {
        scraper.close();
        server.close();
        otherServer.close();
    }

    @Test
    void templateInstancePerPoolKeepsTheCacheFilled() throws Exception {
        String routeId = TemplatedRouteBuilder.builder(context, "metrics-scrape")
                .routeId("metrics-scrape-llama")
                .parameter("pool", POOL)
                .parameter("period", "20")
                .add();

        assertThat(routeId).isEqualTo("metrics-scrape-llama");
        await().atMost(Duration.ofSeconds(10)).until(() -> cache.latest(server.endpoint()) != null);
        assertThat(cache.latest(server.endpoint()).waiting()).isEqualTo(3);
        // the timer keeps ticking: more scrapes follow the first
        await().atMost(Duration.ofSeconds(10)).until(() -> server.requests() >= 3);
        assertThat(context.getRoute("metrics-scrape-llama")).isNotNull();
        assertThat(cache.latest(otherServer.endpoint())).as("no route for the other pool yet").isNull();
    }

    @Test
    void eachPoolGetsItsOwnTimerRouteAndPeriodDefaultsTo50Ms() throws Exception {
        for (String pool : List.of(POOL, OTHER_POOL)) {
            TemplatedRouteBuilder.builder(context, "metrics-scrape")
                    .routeId("metrics-scrape-" + pool)
                    .parameter("pool", pool)
                    .add();
        }

        await().atMost(Duration.ofSeconds(10))
                .until(() -> cache.latest(server.endpoint()) != null && cache.latest(otherServer.endpoint()) != null);
        assertThat(cache.latest(otherServer.endpoint()).waiting()).isEqualTo(5);
        assertThat(context.getRoutes()).extracting(route -> route.getEndpoint().getEndpointUri())
                .containsExactlyInAnyOrder("timer://metrics-scrape-" + POOL + "?delay=0&period=50",
                        "timer://metrics-scrape-" + OTHER_POOL + "?delay=0&period=50");
    }

    @Test
    void aPoolIsOneRouteAndRemovingItLeavesNothingBehind() throws Exception {
        TemplatedRouteBuilder.builder(context, "metrics-scrape")
                .routeId("metrics-scrape-llama")
                .parameter("pool", POOL)
                .add();
        await().atMost(Duration.ofSeconds(10)).until(() -> cache.latest(server.endpoint()) != null);
        assertThat(context.getRoutes()).extracting(route -> route.getRouteId())
                .containsExactly("metrics-scrape-llama");

        context.getRouteController().stopRoute("metrics-scrape-llama");
        context.removeRoute("metrics-scrape-llama");

        assertThat(context.getRoutes()).isEmpty();
    }
}
