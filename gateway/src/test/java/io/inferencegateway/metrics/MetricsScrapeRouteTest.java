package io.inferencegateway.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.camel.BeanInject;
import org.apache.camel.BindToRegistry;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.TemplatedRouteBuilder;
import org.apache.camel.test.main.junit5.CamelMainTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.Priority;
import io.inferencegateway.pool.FlowControl;
import io.inferencegateway.pool.FlowControlTicker;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.pool.ModelPools;
import io.inferencegateway.pool.Placement;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.scheduling.SchedulingPolicies;

/**
 * The real route template, loaded by Camel Main, scraping a loopback server into the cache and then ticking the pool's
 * queue.
 */
@CamelMainTest(properties = {
        "camel.main.routes-include-pattern=classpath:routes/metrics-scrape.camel.yaml",
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

    private final InFlightRequests inFlight = new InFlightRequests();

    @BindToRegistry("metricsScraper")
    private final MetricsScraper scraper = new MetricsScraper(pools::get, cache, inFlight, NanoClock.SYSTEM);

    @BindToRegistry("flowControlTicker")
    private final FlowControlTicker ticker = new FlowControlTicker(pools::get);

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

    /**
     * A gpu-aware pool with flow control on, whose one pod the fake server shows saturated (9 waiting) until the test
     * says otherwise; metrics count as fresh for 10 s, so that a busy machine's late scrapes do not look stale.
     */
    private ModelPool saturatedPoolWithAQueue(String queueTimeout) throws Exception {
        server.serving(MetricsScraperTest.vllmWaiting(9));
        PoolConfig config = ConfigLoader.parse("""
                kind: InferenceGatewayConfig
                spec:
                  schedulers:
                    - name: queued
                      modelName: m
                      endpoints: ["%s"]
                      policy: gpu-aware
                      metricsStalenessThreshold: 10s
                      flowControl: {enabled: true, queueTimeout: %s}
                """.formatted(server.endpoint(), queueTimeout)).pools().get(0);
        ModelPool pool = new ModelPool(config, SchedulingPolicies.create(config, cache, inFlight, NanoClock.SYSTEM),
                config.endpoints(), inFlight, NanoClock.SYSTEM);
        pools.set(new ModelPools(List.of(pool)));
        TemplatedRouteBuilder.builder(context, "metrics-scrape").routeId("metrics-scrape-queued")
                .parameter("pool", "queued").parameter("period", "20").add();
        await().atMost(Duration.ofSeconds(10)).until(() -> cache.latest(server.endpoint()) != null
                && cache.latest(server.endpoint()).waiting() == 9);
        return pool;
    }

    /** Queues a request in the saturated pool; {@code heard} gets how its wait ends. */
    private void queue(ModelPool pool, Queue<String> heard) {
        InferenceRequest request = InferenceRequest.builder("m").promptText("hi").promptTokensEstimate(1).build();
        assertThat(pool.flowControl().admit(request)).as("saturated: it waits").isNull();
        pool.flowControl().enqueue(request, new FlowControl.Waiter() {
            @Override
            public void bound(Placement placement, long pickNanos) {
                heard.add("bound to " + placement.endpoint());
                placement.finish();
            }

            @Override
            public void refused(GatewayError error) {
                heard.add("refused " + error.headers().get("x-gateway-dropped-reason"));
            }
        });
        assertThat(pool.flowControl().queued()).isEqualTo(1);
    }

    @Test
    void theTickStepAfterTheScrapeReleasesAQueuedRequestOnceTheReadingsShowRoom() throws Exception {
        ModelPool pool = saturatedPoolWithAQueue("30s");
        Queue<String> heard = new ConcurrentLinkedQueue<>();
        queue(pool, heard);

        server.serving(MetricsScraperTest.vllmWaiting(0)); // room, and no request of the pool ends to say so

        await().atMost(Duration.ofSeconds(10)).until(() -> !heard.isEmpty());
        assertThat(heard).containsExactly("bound to " + server.endpoint());
        assertThat(pool.flowControl().queued()).isZero();
    }

    @Test
    void theTickStepRefusesARequestThatWaitedPastTheQueueTimeout() throws Exception {
        ModelPool pool = saturatedPoolWithAQueue("200ms");
        Queue<String> heard = new ConcurrentLinkedQueue<>();
        queue(pool, heard);

        await().atMost(Duration.ofSeconds(10)).until(() -> !heard.isEmpty());
        assertThat(heard).containsExactly("refused queue_timeout");
        assertThat(pool.flowControl().queued()).isZero();
    }
}
