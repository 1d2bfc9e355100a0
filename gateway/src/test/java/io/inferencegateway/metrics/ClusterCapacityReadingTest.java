package io.inferencegateway.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.inferencegateway.config.Policy;
import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.pool.ModelPools;
import io.inferencegateway.scheduling.RoundRobinPolicy;

/** The {@code inference-gateway} engine: a cluster gateway's capacity summary read as one very large model server. */
class ClusterCapacityReadingTest {

    private static final InFlightRequests.Counters DISPATCHED = new InFlightRequests.Counters(0, 0, 0);
    private static final String LLAMA = "meta-llama/Llama-3.1-8B-Instruct";

    /** What a cluster with a Llama pool (two adapters, one warm) and a Qwen pool answers. */
    static final String SUMMARY = """
            # TYPE inference_gateway_capacity_info gauge
            inference_gateway_capacity_info{version="1",cluster="us-east",region="us-east-1"} 1
            inference_gateway_capacity_pods{model="meta-llama/Llama-3.1-8B-Instruct"} 4
            inference_gateway_capacity_ready_pods{model="meta-llama/Llama-3.1-8B-Instruct"} 3
            inference_gateway_capacity_kv_headroom{model="meta-llama/Llama-3.1-8B-Instruct"} 0.25
            inference_gateway_capacity_queued_requests{model="meta-llama/Llama-3.1-8B-Instruct"} 7
            inference_gateway_capacity_gateway_queued_requests{model="meta-llama/Llama-3.1-8B-Instruct"} 2
            inference_gateway_capacity_running_requests{model="meta-llama/Llama-3.1-8B-Instruct"} 40
            inference_gateway_capacity_ttft_seconds{model="meta-llama/Llama-3.1-8B-Instruct"} 0.2
            inference_gateway_capacity_tpot_seconds{model="meta-llama/Llama-3.1-8B-Instruct"} 0.025
            inference_gateway_capacity_predicted_ttft_seconds{model="meta-llama/Llama-3.1-8B-Instruct"} NaN
            inference_gateway_capacity_predicted_tpot_seconds{model="meta-llama/Llama-3.1-8B-Instruct"} NaN
            inference_gateway_capacity_error_ratio{model="meta-llama/Llama-3.1-8B-Instruct"} 0.1
            inference_gateway_capacity_saturation{model="meta-llama/Llama-3.1-8B-Instruct"} 0.5
            inference_gateway_capacity_recent_requests{model="meta-llama/Llama-3.1-8B-Instruct"} 30
            inference_gateway_capacity_pods{model="sql-lora",base_model="meta-llama/Llama-3.1-8B-Instruct"} 4
            inference_gateway_capacity_ready_pods{model="sql-lora",base_model="meta-llama/Llama-3.1-8B-Instruct"} 3
            inference_gateway_capacity_adapter_loaded_pods{model="sql-lora",base_model="meta-llama/Llama-3.1-8B-Instruct"} 2
            inference_gateway_capacity_pods{model="ko-chat",base_model="meta-llama/Llama-3.1-8B-Instruct"} 4
            inference_gateway_capacity_ready_pods{model="ko-chat",base_model="meta-llama/Llama-3.1-8B-Instruct"} 3
            inference_gateway_capacity_adapter_loaded_pods{model="ko-chat",base_model="meta-llama/Llama-3.1-8B-Instruct"} 0
            inference_gateway_capacity_pods{model="Qwen/Qwen3-8B"} 2
            inference_gateway_capacity_ready_pods{model="Qwen/Qwen3-8B"} 2
            inference_gateway_capacity_queued_requests{model="Qwen/Qwen3-8B"} 100
            """;

    private final java.util.List<FakeModelServer> servers = new java.util.ArrayList<>();
    private MetricsScraper scraper;

    @AfterEach
    void stop() {
        if (scraper != null) {
            scraper.close();
        }
        servers.forEach(FakeModelServer::close);
    }

    @Test
    void aSummaryReadsAsThePoolsModelWithItsQueuesSummedAndItsHeadroomTurnedIntoKvUse() {
        EndpointMetrics m = read(LLAMA, SUMMARY);

        assertThat(m.waiting()).as("the pods' queues and the gateway's").isEqualTo(9);
        assertThat(m.running()).isEqualTo(40);
        assertThat(m.kvUsage()).isEqualTo(0.75);
        assertThat(m.runningAdapters()).as("adapters warm on some pod").containsExactly("sql-lora");
        ClusterCapacity c = m.cluster();
        assertThat(c.version()).isEqualTo("1");
        assertThat(c.cluster()).isEqualTo("us-east");
        assertThat(c.region()).isEqualTo("us-east-1");
        assertThat(c.readyPods()).isEqualTo(3);
        assertThat(c.pods()).isEqualTo(4);
        assertThat(c.gatewayQueued()).isEqualTo(2);
        assertThat(c.ttftMillis()).isEqualTo(200.0);
        assertThat(c.tpotMillis()).isEqualTo(25.0);
        assertThat(c.predictedTtftMillis()).as("still learning").isNaN();
        assertThat(c.predictedTpotMillis()).isNaN();
        assertThat(c.errorRatio()).isEqualTo(0.1);
        assertThat(c.saturation()).isEqualTo(0.5);
        assertThat(c.recentRequests()).isEqualTo(30);
        assertThat(c.adapters()).containsExactlyInAnyOrder("sql-lora", "ko-chat");
        assertThat(c.roundTripMillis()).as("measured by the scraper, not read").isNaN();
    }

    @Test
    void aModelTheClusterDoesNotServeReadsAsNoReadyPods() {
        EndpointMetrics m = read("mistralai/Mistral-7B-Instruct-v0.3", SUMMARY);

        assertThat(m.cluster().readyPods()).isZero();
        assertThat(m.cluster().pods()).isZero();
        assertThat(m.cluster().adapters()).isEmpty();
        assertThat(m.waiting()).isEqualTo(-1);
        assertThat(m.cluster().cluster()).isEqualTo("us-east");
    }

    @Test
    void aSummaryOfAnUnknownMajorVersionIsRefused() {
        String v2 = SUMMARY.replace("version=\"1\"", "version=\"2\"");

        assertThatThrownBy(() -> read(LLAMA, v2)).hasMessageContaining("version 2")
                .hasMessageContaining("reads version 1");
    }

    @Test
    void aNewerMinorVersionIsRead() {
        EndpointMetrics m = read(LLAMA, SUMMARY.replace("version=\"1\"", "version=\"1.4\""));

        assertThat(m.cluster().version()).isEqualTo("1.4");
        assertThat(m.cluster().readyPods()).isEqualTo(3);
    }

    @Test
    void rowsWithoutTheInfoSeriesAreRefused() {
        String unversioned = SUMMARY.lines().filter(l -> !l.contains("capacity_info")).reduce("", (a, l) -> a + l
                + "\n");

        assertThatThrownBy(() -> read(LLAMA, unversioned)).hasMessageContaining("has no " + CapacitySeries.INFO);
    }

    @Test
    void aWholeSummaryReadOnceGivesEachPoolItsOwnModelsReading() {
        EngineDialect whole = EngineDialects.forEngine("inference-gateway");
        assertThat(whole.metricsPath()).isEqualTo("/capacity");

        EndpointMetrics all = parse(whole, SUMMARY);
        assertThat(all.cluster().readyPods()).as("the cluster's totals").isEqualTo(5);
        assertThat(all.waiting()).isEqualTo(109);

        EndpointMetrics llama = all.forModel(LLAMA);
        assertThat(llama).as("the same as a reading of the model alone").isEqualTo(read(LLAMA, SUMMARY));
        EndpointMetrics qwen = all.forModel("Qwen/Qwen3-8B");
        assertThat(qwen.waiting()).isEqualTo(100);
        assertThat(qwen.cluster().readyPods()).isEqualTo(2);
        assertThat(qwen.cluster().adapters()).isEmpty();
        EndpointMetrics mistral = all.forModel("mistralai/Mistral-7B-Instruct-v0.3");
        assertThat(mistral.cluster().readyPods()).as("not served here").isZero();
        assertThat(mistral.scrapeStartedNanos()).isEqualTo(all.scrapeStartedNanos());
        assertThat(llama.forModel("Qwen/Qwen3-8B")).as("a model's own reading is its own").isSameAs(llama);
    }

    @Test
    void aPoolsDialectAsksForItsModelOnly() {
        assertThat(EngineDialects.forEngine("inference-gateway").forModel(LLAMA).metricsPath())
                .isEqualTo("/capacity?model=meta-llama%2FLlama-3.1-8B-Instruct");
        assertThat(EngineDialects.forEngine("vllm").forModel(LLAMA).metricsPath()).isEqualTo("/metrics");
    }

    @Test
    void aModelServersReadingHasNoClusterPart() {
        byte[] text = "vllm:num_requests_waiting{engine=\"0\",model_name=\"m\"} 2\n".getBytes(StandardCharsets.UTF_8);

        assertThat(EngineDialects.forEngine("vllm").read(text, 0, text.length, 1, DISPATCHED).metrics().cluster())
                .isNull();
    }

    @Test
    void theScraperAsksTheClusterForThePoolsModelWithTheGivenCredentialAndMeasuresTheRoundTrip() throws IOException {
        FakeModelServer cluster = server().serving(SUMMARY.getBytes(StandardCharsets.UTF_8));
        FakeModelServer vllm = server().serving(MetricsScraperTest.vllmWaiting(1));
        ModelPool global = pool("llama-global", LLAMA, "inference-gateway", cluster.endpoint());
        ModelPool local = pool("qwen-local", "Qwen/Qwen3-8B", "vllm", vllm.endpoint());
        MetricsCache cache = new MetricsCache();
        AtomicLong clock = new AtomicLong(1);
        ModelPools pools = new ModelPools(List.of(global, local));
        scraper = new MetricsScraper(() -> pools, cache, new InFlightRequests(), clock::get);
        scraper.authorization(p -> p.config().engine().equals("inference-gateway") ? "Bearer s3cret" : null);

        scraper.scrape("llama-global");
        scraper.scrape("qwen-local");

        await().atMost(Duration.ofSeconds(10)).until(() -> cache.latest(cluster.endpoint()) != null
                && cache.latest(vllm.endpoint()) != null);
        assertThat(cluster.lastPath()).isEqualTo("/capacity");
        assertThat(cluster.lastQuery()).isEqualTo("model=meta-llama%2FLlama-3.1-8B-Instruct");
        assertThat(cluster.lastAuthorization()).isEqualTo("Bearer s3cret");
        assertThat(vllm.lastAuthorization()).as("a model server never gets the cluster credential").isNull();
        ClusterCapacity read = cache.latest(cluster.endpoint()).cluster();
        assertThat(read.readyPods()).isEqualTo(3);
        assertThat(read.roundTripMillis()).isGreaterThanOrEqualTo(0.0).isLessThan(10_000.0);
    }

    @Test
    void aRefusedSummaryIsAFailedScrapeThatSaysWhy() throws IOException {
        FakeModelServer cluster = server().serving(SUMMARY.replace("version=\"1\"", "version=\"2\"")
                .getBytes(StandardCharsets.UTF_8));
        MetricsCache cache = new MetricsCache();
        ModelPools pools = new ModelPools(List.of(pool("g", LLAMA, "inference-gateway", cluster.endpoint())));
        scraper = new MetricsScraper(() -> pools, cache, new InFlightRequests(), () -> 1);

        scraper.scrape("g");

        await().atMost(Duration.ofSeconds(10)).until(() -> cache.state(cluster.endpoint()) != null);
        assertThat(cache.latest(cluster.endpoint())).isNull();
        assertThat(cache.state(cluster.endpoint()).lastError()).contains("version 2");
    }

    @Test
    void theRoundTripIsTheLowestOfTheRecentPolls() {
        RoundTrips trips = new RoundTrips();

        assertThat(trips.add(30_000_000)).isEqualTo(30.0);
        assertThat(trips.add(10_000_000)).isEqualTo(10.0);
        assertThat(trips.add(900_000_000)).as("one slow poll does not inflate it").isEqualTo(10.0);
        for (int i = 0; i < RoundTrips.POLLS - 1; i++) {
            trips.add(50_000_000);
        }
        assertThat(trips.add(50_000_000)).as("a lasting rise shows once the low poll left the window")
                .isEqualTo(50.0);
    }

    private FakeModelServer server() throws IOException {
        FakeModelServer s = new FakeModelServer();
        servers.add(s);
        return s;
    }

    private static ModelPool pool(String name, String model, String engine, Endpoint... endpoints) {
        PoolConfig config = PoolConfig.builder(model).name(name).endpoints(List.of(endpoints)).engine(engine)
                .policy(Policy.ROUND_ROBIN).build();
        return new ModelPool(config, new RoundRobinPolicy(), List.of(endpoints));
    }

    private static EndpointMetrics read(String model, String text) {
        return parse(EngineDialects.forEngine("inference-gateway").forModel(model), text);
    }

    private static EndpointMetrics parse(EngineDialect dialect, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return dialect.read(bytes, 0, bytes.length, 1, DISPATCHED).metrics();
    }
}
