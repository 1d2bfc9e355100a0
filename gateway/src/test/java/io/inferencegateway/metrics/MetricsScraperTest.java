package io.inferencegateway.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.inferencegateway.testing.ScriptedPolicy;
import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.config.Policy;
import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.Priority;
import io.inferencegateway.domain.SchedulingPolicy;
import io.inferencegateway.pool.FlowControl;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.pool.ModelPools;
import io.inferencegateway.pool.Placement;
import io.inferencegateway.scheduling.RoundRobinPolicy;

class MetricsScraperTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private final AtomicLong now = new AtomicLong(1_000);
    private final InFlightRequests inFlight = new InFlightRequests();
    private final MetricsCache cache = new MetricsCache();
    private final AtomicReference<ModelPools> pools = new AtomicReference<>();
    private final List<FakeModelServer> servers = new ArrayList<>();
    private MetricsScraper scraper = scraper(MetricsScraper.DEFAULT_TIMEOUT, MetricsScraper.DEFAULT_MAX_BODY_BYTES);

    @AfterEach
    void stop() {
        scraper.close();
        servers.forEach(FakeModelServer::close);
    }

    @Test
    void fillsTheCacheForEveryEndpointOfThePool() throws IOException {
        FakeModelServer a = server().serving(fixture("vllm-0.10-metrics.txt"));
        FakeModelServer b = server().serving(fixture("vllm-0.10-full-metrics.txt"));
        usePools(pool("llama", "vllm", a.endpoint(), b.endpoint()));
        now.set(5_000);

        int started = scraper.scrape("llama");

        assertThat(started).isEqualTo(2);
        await().atMost(WAIT).until(() -> cache.latest(a.endpoint()) != null && cache.latest(b.endpoint()) != null);
        EndpointMetrics first = cache.latest(a.endpoint());
        assertThat(first.waiting()).isEqualTo(3);
        assertThat(first.runningAdapters()).containsExactly("adapter_ko");
        assertThat(first.scrapeStartedNanos()).isEqualTo(5_000);
        assertThat(cache.latest(b.endpoint()).waiting()).isEqualTo(7);
        assertThat(a.lastPath()).isEqualTo("/metrics");
        assertThat(scraper.stats()).isEqualTo(new MetricsScraper.ScrapeStats(2, 2, 0, 0, 0, 0));
    }

    /** Scrapes the pool {@code times} times, each once the one before has succeeded. */
    void scrapeOneAfterAnother(String pool, int times) {
        for (int i = 1; i <= times; i++) {
            scraper.scrape(pool);
            int done = i;
            await().atMost(WAIT).until(() -> scraper.stats().succeeded() == done);
        }
    }

    @Test
    void successiveScrapesOfAnEndpointShareOneConnection() throws IOException {
        FakeModelServer a = server().serving(vllmWaiting(1));
        usePools(pool("llama", "vllm", a.endpoint()));

        scrapeOneAfterAnother("llama", 3);

        assertThat(a.requests()).isEqualTo(3);
        assertThat(a.connections()).isEqualTo(1);
    }

    @Test
    void aServerThatClosesEachConnectionIsConnectedToAfresh() throws IOException {
        FakeModelServer a = server().serving(vllmWaiting(1)).closingConnections();
        usePools(pool("llama", "vllm", a.endpoint()));

        scrapeOneAfterAnother("llama", 3);

        assertThat(a.connections()).isEqualTo(3);
        assertThat(scraper.stats().failed()).isZero();
    }

    @Test
    void theConnectionToAnEndpointThatLeftEveryPoolIsClosed() throws IOException {
        FakeModelServer staying = server().serving(vllmWaiting(1));
        FakeModelServer leaving = server().serving(vllmWaiting(2));
        ModelPool pool = pool("llama", "vllm", staying.endpoint(), leaving.endpoint());
        usePools(pool);
        scraper.scrape("llama");
        await().atMost(WAIT).until(() -> scraper.stats().succeeded() == 2);
        assertThat(scraper.openConnections()).isEqualTo(2);

        pool.updateEndpoints(List.of(staying.endpoint()));
        scraper.scrape("llama");

        await().atMost(WAIT).until(() -> scraper.openConnections() == 1);
        await().atMost(WAIT).until(this::noScrapeInFlight);
        assertThat(scraper.stats().failed()).isZero();
    }

    @Test
    void dispatchCountersAreTakenWhenTheScrapeStarts() throws IOException {
        FakeModelServer a = server().serving(fixture("vllm-0.10-metrics.txt")).holding();
        usePools(pool("llama", "vllm", a.endpoint()));
        inFlight.started(a.endpoint(), 100);
        inFlight.started(a.endpoint(), 100);
        inFlight.finished(a.endpoint());

        scraper.scrape("llama");
        inFlight.started(a.endpoint(), 50); // sent while the scrape is under way: the picker adds it on top
        a.release();

        await().atMost(WAIT).until(() -> cache.latest(a.endpoint()) != null);
        assertThat(cache.latest(a.endpoint()).dispatchedAtScrape())
                .isEqualTo(new InFlightRequests.Counters(2, 1, 200));
    }

    @Test
    void aSlowEndpointIsSkippedWhileTheOthersKeepBeingScraped() throws IOException {
        FakeModelServer slow = server().serving(fixture("vllm-0.10-metrics.txt")).holding();
        FakeModelServer fast = server().serving(vllmWaiting(1));
        usePools(pool("llama", "vllm", slow.endpoint(), fast.endpoint()));

        assertThat(scraper.scrape("llama")).isEqualTo(2);
        await().atMost(WAIT).until(() -> cache.latest(fast.endpoint()) != null && !scraper.isScraping(fast.endpoint()));
        fast.serving(vllmWaiting(2));

        assertThat(scraper.scrape("llama")).isEqualTo(1);
        await().atMost(WAIT).until(() -> cache.latest(fast.endpoint()).waiting() == 2);
        assertThat(slow.requests()).isEqualTo(1);
        assertThat(cache.latest(slow.endpoint())).isNull();
        assertThat(scraper.stats().skippedBusy()).isEqualTo(1);

        slow.release();
        await().atMost(WAIT).until(() -> cache.latest(slow.endpoint()) != null && noScrapeInFlight());
        assertThat(scraper.scrape("llama")).isEqualTo(2);
    }

    @Test
    void aScrapeThatOutlivesTheTimeoutIsCancelledCountedAndFreesTheEndpoint() throws IOException {
        scraper = scraper(Duration.ofMillis(300), MetricsScraper.DEFAULT_MAX_BODY_BYTES);
        FakeModelServer stuck = server().serving(fixture("vllm-0.10-metrics.txt")).holding();
        usePools(pool("llama", "vllm", stuck.endpoint()));

        scraper.scrape("llama");

        await().atMost(WAIT).until(() -> cache.state(stuck.endpoint()) != null && noScrapeInFlight());
        MetricsCache.ScrapeState state = cache.state(stuck.endpoint());
        assertThat(state.consecutiveFailures()).isEqualTo(1);
        assertThat(state.lastError()).contains("timed out");
        assertThat(scraper.stats().timedOut()).isEqualTo(1);
        assertThat(scraper.scrape("llama")).isEqualTo(1);
    }

    @Test
    void failuresAreCountedAndTheLastGoodMetricsStay() throws IOException {
        FakeModelServer a = server().serving(fixture("vllm-0.10-metrics.txt"));
        usePools(pool("llama", "vllm", a.endpoint()));
        scraper.scrape("llama");
        await().atMost(WAIT).until(() -> cache.latest(a.endpoint()) != null && noScrapeInFlight());

        a.answering(503);
        scraper.scrape("llama");

        await().atMost(WAIT).until(() -> cache.state(a.endpoint()).consecutiveFailures() == 1);
        assertThat(cache.state(a.endpoint()).lastError()).endsWith("/metrics: HTTP 503");
        assertThat(cache.latest(a.endpoint()).waiting()).isEqualTo(3);
        assertThat(scraper.stats().failed()).isEqualTo(1);
    }

    @Test
    void anEndpointThatRefusesConnectionsIsAFailure() throws IOException {
        FakeModelServer gone = server();
        Endpoint endpoint = gone.endpoint();
        gone.close();
        usePools(pool("llama", "vllm", endpoint));

        scraper.scrape("llama");

        await().atMost(WAIT).until(() -> cache.state(endpoint) != null);
        assertThat(cache.state(endpoint).lastError()).contains("ConnectException");
        assertThat(cache.latest(endpoint)).isNull();
    }

    @Test
    void aResponseWithoutTheEnginesMetricsIsAFailure() throws IOException {
        FakeModelServer tgi = server().serving(fixture("tgi-3-metrics.txt"));
        usePools(pool("llama", "vllm", tgi.endpoint()));

        scraper.scrape("llama");

        await().atMost(WAIT).until(() -> cache.state(tgi.endpoint()) != null);
        assertThat(cache.state(tgi.endpoint()).lastError()).endsWith("no vllm metrics in the response");
        assertThat(cache.latest(tgi.endpoint())).isNull();
    }

    @Test
    void garbageLinesAreCountedButDoNotFailTheScrape() throws IOException {
        byte[] body = ("!!! broken\n" + new String(fixture("vllm-0.10-metrics.txt"), StandardCharsets.UTF_8)
                + "vllm:num_requests_running{engine=\"0\"} twelve\n").getBytes(StandardCharsets.UTF_8);
        FakeModelServer a = server().serving(body);
        usePools(pool("llama", "vllm", a.endpoint()));

        scraper.scrape("llama");

        await().atMost(WAIT).until(() -> cache.latest(a.endpoint()) != null);
        assertThat(scraper.stats().garbageLines()).isEqualTo(2);
        assertThat(cache.latest(a.endpoint()).running()).isEqualTo(12);
    }

    @Test
    void aBodyOverTheLimitIsAFailure() throws IOException {
        scraper = scraper(MetricsScraper.DEFAULT_TIMEOUT, 4096);
        FakeModelServer a = server().serving(fixture("vllm-0.10-full-metrics.txt"));
        usePools(pool("llama", "vllm", a.endpoint()));

        scraper.scrape("llama");

        await().atMost(WAIT).until(() -> cache.state(a.endpoint()) != null);
        assertThat(cache.state(a.endpoint()).lastError()).contains("larger than 4096 bytes");
    }

    @Test
    void trtllmIsScrapedAtItsPrometheusPath() throws IOException {
        FakeModelServer a = server().serving(fixture("trtllm-serve-metrics.txt"));
        usePools(pool("trt", "trtllm", a.endpoint()));

        scraper.scrape("trt");

        await().atMost(WAIT).until(() -> cache.latest(a.endpoint()) != null);
        assertThat(a.lastPath()).isEqualTo("/prometheus/metrics");
        assertThat(cache.latest(a.endpoint()).kvBlockSize()).isEqualTo(32);
    }

    @Test
    void llamaCppIsScrapedForItsSlotsAndDeferredRequestsAndItsCacheSizeIsReadFromProps() throws IOException {
        FakeModelServer a = server().serving(fixture("llamacpp-metrics-busy.txt"))
                .at("/props", 200, fixture("llamacpp-props.json"));
        usePools(pool("gguf", "llamacpp", a.endpoint()));

        scraper.scrape("gguf"); // a new pod: its /props in place of this tick's scrape
        await().atMost(WAIT).until(() -> a.requests() == 1 && noScrapeInFlight());
        assertThat(a.lastPath()).isEqualTo("/props");
        assertThat(cache.latest(a.endpoint())).isNull();
        scraper.scrape("gguf");
        await().atMost(WAIT).until(() -> cache.latest(a.endpoint()) != null);
        assertThat(a.lastPath()).isEqualTo("/metrics");

        EndpointMetrics m = cache.latest(a.endpoint());
        assertThat(m.running()).isEqualTo(4);
        assertThat(m.waiting()).isEqualTo(2);
        assertThat(m.kvUsage()).isNaN();
        // --parallel 4: four slots of 1,024 tokens each
        assertThat(m.kvTotalBlocks()).isEqualTo(4);
        assertThat(m.kvBlockSize()).isEqualTo(1024);

        scraper.scrape("gguf");
        await().atMost(WAIT).until(() -> a.requests() == 3 && noScrapeInFlight());
        assertThat(a.lastPath()).as("read once, not every tick").isEqualTo("/metrics");

        a.answering(503); // the server restarts, perhaps with other flags...
        scraper.scrape("gguf");
        await().atMost(WAIT).until(() -> scraper.stats().failed() == 1 && noScrapeInFlight());
        a.answering(200); // ...and once it answers, its /props is read again
        scraper.scrape("gguf");
        await().atMost(WAIT).until(() -> a.requests() == 5 && noScrapeInFlight());
        assertThat(a.lastPath()).isEqualTo("/props");
    }

    @Test
    void aLlamaCppBuildWithoutPropsIsScrapedWithItsCacheSizeUnknownAndAskedAgainAMinuteLater() throws IOException {
        FakeModelServer a = server().serving(fixture("llamacpp-metrics-busy.txt")).at("/props", 404, new byte[0]);
        usePools(pool("gguf", "llamacpp", a.endpoint()));
        scraper.scrape("gguf");
        await().atMost(WAIT).until(() -> a.requests() == 1 && noScrapeInFlight());
        scraper.scrape("gguf");
        await().atMost(WAIT).until(() -> cache.latest(a.endpoint()) != null);
        assertThat(cache.latest(a.endpoint()).kvBlockSize()).isEqualTo(-1);
        assertThat(scraper.stats().failed()).as("a missing /props is no failed scrape").isZero();

        a.at("/props", 200, fixture("llamacpp-props.json")); // upgraded
        scraper.scrape("gguf");
        await().atMost(WAIT).until(() -> a.requests() == 3 && noScrapeInFlight());
        assertThat(a.lastPath()).isEqualTo("/metrics");
        now.addAndGet(MetricsScraper.CAPACITY_RETRY.toNanos());
        scraper.scrape("gguf");
        await().atMost(WAIT).until(() -> a.requests() == 4 && noScrapeInFlight());
        assertThat(a.lastPath()).isEqualTo("/props");
        scraper.scrape("gguf");
        await().atMost(WAIT).until(() -> cache.latest(a.endpoint()).kvBlockSize() == 1024);
    }

    @Test
    void endpointsThatLeaveThePoolAreForgottenAndTheirLateAnswersDropped() throws IOException {
        FakeModelServer staying = server().serving(vllmWaiting(1));
        FakeModelServer leaving = server().serving(vllmWaiting(2));
        ModelPool pool = pool("llama", "vllm", staying.endpoint(), leaving.endpoint());
        usePools(pool);
        scraper.scrape("llama");
        await().atMost(WAIT).until(() -> cache.endpoints().size() == 2 && noScrapeInFlight());

        leaving.holding();
        scraper.scrape("llama");
        await().atMost(WAIT).until(() -> leaving.requests() == 2);
        pool.updateEndpoints(List.of(staying.endpoint()));
        scraper.scrape("llama");
        assertThat(cache.endpoints()).containsExactly(staying.endpoint());

        leaving.release();
        await().atMost(WAIT).until(this::noScrapeInFlight);
        assertThat(cache.endpoints()).containsExactly(staying.endpoint());
    }

    @Test
    void aConfigReloadSwapsThePools() throws IOException {
        FakeModelServer old = server().serving(vllmWaiting(1));
        FakeModelServer fresh = server().serving(fixture("sglang-0.5-metrics.txt"));
        usePools(pool("old", "vllm", old.endpoint()));
        scraper.scrape("old");
        await().atMost(WAIT).until(() -> cache.latest(old.endpoint()) != null && noScrapeInFlight());

        usePools(pool("fresh", "sglang", fresh.endpoint()));

        assertThat(scraper.scrape("old")).isZero();
        assertThat(scraper.scrape("fresh")).isEqualTo(1);
        await().atMost(WAIT).until(() -> cache.latest(fresh.endpoint()) != null);
        assertThat(cache.latest(fresh.endpoint()).waiting()).isEqualTo(5);
        assertThat(cache.endpoints()).containsExactly(fresh.endpoint());
    }

    @Test
    void unknownPoolAndClosedScraperStartNothing() throws IOException {
        FakeModelServer a = server().serving(vllmWaiting(1));
        usePools(pool("llama", "vllm", a.endpoint()));

        assertThat(scraper.scrape("nope")).isZero();
        scraper.close();
        assertThat(scraper.scrape("llama")).isZero();
        assertThat(a.requests()).isZero();
    }

    @Test
    void closingCancelsScrapesInFlight() throws IOException {
        scraper = scraper(Duration.ofSeconds(60), MetricsScraper.DEFAULT_MAX_BODY_BYTES); // only close() can end it
        FakeModelServer stuck = server().serving(vllmWaiting(1)).holding();
        usePools(pool("llama", "vllm", stuck.endpoint()));
        scraper.scrape("llama");
        await().atMost(WAIT).until(() -> stuck.requests() == 1);

        scraper.close();

        await().atMost(WAIT).until(this::noScrapeInFlight);
        assertThat(scraper.stats().failed()).isEqualTo(1);
        assertThat(scraper.isScraping(stuck.endpoint())).isFalse();
    }

    @Test
    void aScrapeLeavesThePoolsQueueToTheRoutesTickStep() throws Exception {
        FakeModelServer a = server().serving(vllmWaiting(0));
        AtomicBoolean saturated = new AtomicBoolean(true);
        PoolConfig config = ConfigLoader.parse("""
                kind: InferenceGatewayConfig
                spec:
                  schedulers:
                    - {name: queued, modelName: m, endpoints: ["%s"], flowControl: {enabled: true}}
                """.formatted(a.endpoint())).pools().get(0);
        ModelPool pool = new ModelPool(config, ScriptedPolicy.first().saturatedWhen(candidates -> saturated.get()),
                config.endpoints());
        usePools(pool);
        List<String> heard = new CopyOnWriteArrayList<>();
        pool.flowControl().enqueue(InferenceRequest.builder("m").promptText("hi").promptTokensEstimate(1).build(),
                new FlowControl.Waiter() {
                    @Override
                    public void bound(Placement placement, long pickNanos) {
                        heard.add("bound");
                    }

                    @Override
                    public void refused(GatewayError error) {
                        heard.add("refused");
                    }
                });
        saturated.set(false); // room, for whoever ticks the queue

        scraper.scrape("queued");
        await().atMost(WAIT).until(() -> cache.latest(a.endpoint()) != null);

        assertThat(heard).isEmpty();
        assertThat(pool.flowControl().queued()).isEqualTo(1);
    }

    private boolean noScrapeInFlight() {
        MetricsScraper.ScrapeStats stats = scraper.stats();
        return stats.succeeded() + stats.failed() == stats.started();
    }

    private MetricsScraper scraper(Duration timeout, int maxBodyBytes) {
        if (scraper != null) {
            scraper.close();
        }
        return new MetricsScraper(pools::get, cache, inFlight, now::get, timeout, maxBodyBytes);
    }

    private FakeModelServer server() throws IOException {
        FakeModelServer server = new FakeModelServer();
        servers.add(server);
        return server;
    }

    private void usePools(ModelPool... modelPools) {
        pools.set(new ModelPools(List.of(modelPools)));
    }

    static ModelPool pool(String name, String engine, Endpoint... endpoints) {
        PoolConfig config = PoolConfig.builder(name).endpoints(List.of(endpoints)).engine(engine)
                .policy(Policy.ROUND_ROBIN).build();
        return new ModelPool(config, new RoundRobinPolicy(), List.of(endpoints));
    }

    static byte[] vllmWaiting(int waiting) {
        return ("vllm:num_requests_waiting{engine=\"0\",model_name=\"m\"} " + waiting + ".0\n")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] fixture(String name) throws IOException {
        return PrometheusTextParserTest.fixture(name);
    }
}
