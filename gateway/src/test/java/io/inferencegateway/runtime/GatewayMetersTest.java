package io.inferencegateway.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.LatencyPrediction;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.metrics.MetricsScraper;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.scheduling.PluginPolicy;
import io.inferencegateway.scheduling.SchedulerEvents;
import io.inferencegateway.scheduling.latency.LatencyPredictor;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * The gateway's meters as its subsystems' binders register them, without HTTP: pods joining and leaving by discovery,
 * counters reused, NaN for unknown.
 */
class GatewayMetersTest {

    static final Endpoint A = Endpoint.parse("127.0.0.1:8001");
    static final Endpoint B = Endpoint.parse("127.0.0.1:8002");
    static final Endpoint C = Endpoint.parse("127.0.0.1:8003");

    final long[] now = {1_000_000_000L};
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    Gateway gateway() throws Exception {
        return new Gateway(ConfigLoader.parse("""
                kind: InferenceGatewayConfig
                spec:
                  schedulers:
                    - {name: llama, modelName: m, policy: gpu-aware, endpoints: ['127.0.0.1:8001', '127.0.0.1:8002']}
                """), () -> now[0], registry);
    }

    Set<String> podsWithSeries() {
        return registry.getMeters().stream().map(Meter::getId)
                .filter(id -> id.getName().startsWith("inference_pool_per_pod_")
                        || id.getName().equals("inference_gateway_metrics_scrapes"))
                .map(id -> id.getTag("model_server_pod") != null ? id.getTag("model_server_pod") : id.getTag("pod"))
                .collect(java.util.stream.Collectors.toSet());
    }

    @Test
    void theScrapeCarriesTheProcessHealthBesideTheGateways() {
        io.netty.buffer.ByteBuf held = io.netty.buffer.PooledByteBufAllocator.DEFAULT.directBuffer(64 * 1024);
        try {
            String text = GatewayMeters.newRegistry().scrape();
            // what an operator's leak and saturation alerts read (docs/observability.md, "The process")
            assertThat(text).contains("jvm_memory_used_bytes{area=\"heap\"", "jvm_buffer_memory_used_bytes{id=\"direct\"}",
                    "jvm_threads_live_threads ", "process_cpu_usage ", "process_files_open_files ",
                    "process_uptime_seconds ");
            double pinnedDirect = text.lines().filter(l -> l.startsWith("netty_allocator_memory_pinned{")
                    && l.contains("memory_type=\"direct\"")).mapToDouble(l -> Double.parseDouble(
                            l.substring(l.lastIndexOf(' ') + 1))).sum();
            assertThat(pinnedDirect).as("direct memory held by live pooled buffers, this one's included")
                    .isGreaterThanOrEqualTo(64 * 1024);
        } finally {
            held.release();
        }
    }

    @Test
    void podSeriesFollowWhatDiscoveryPutsInThePool() throws Exception {
        try (Gateway gateway = gateway()) {
            ModelPool pool = gateway.pools().pool("llama");
            assertThat(podsWithSeries()).containsExactlyInAnyOrder(A.toString(), B.toString());

            pool.updateEndpoints(List.of(B, C)); // what discovery does when a pod is replaced
            assertThat(podsWithSeries()).containsExactlyInAnyOrder(B.toString(), C.toString());
            assertThat(registry.find("inference_pool_per_pod_queue_size").tags("model_server_pod", A.toString())
                    .gauge()).isNull();

            pool.updateEndpoints(List.of());
            assertThat(podsWithSeries()).isEmpty();
        }
    }

    @Test
    void perPodGaugesReadTheLastScrapeAndAreNaNBeforeOne() throws Exception {
        try (Gateway gateway = gateway()) {
            assertThat(gauge("inference_pool_per_pod_queue_size", A)).isNaN();
            assertThat(gauge("inference_pool_per_pod_metrics_age_seconds", A)).isNaN();
            assertThat(registry.get("inference_pool_ready_pods").gauge().value()).isZero();

            gateway.metrics().recordSuccess(A, new EndpointMetrics(4, 2, 0.25, Set.of("sql"), Set.of(), 2, 16, 100,
                    Double.NaN, Double.NaN, now[0], InFlightRequests.Counters.ZERO, null), now[0]);
            now[0] += 150_000_000L;
            assertThat(gauge("inference_pool_per_pod_queue_size", A)).isEqualTo(4);
            assertThat(gauge("inference_pool_per_pod_running_requests", A)).isEqualTo(2);
            assertThat(gauge("inference_pool_per_pod_kv_cache_utilization", A)).isEqualTo(0.25);
            assertThat(gauge("inference_pool_per_pod_loaded_adapters", A)).isEqualTo(1);
            assertThat(gauge("inference_pool_per_pod_metrics_age_seconds", A)).isEqualTo(0.15);
            assertThat(registry.get("inference_pool_ready_pods").gauge().value()).isEqualTo(1);
            assertThat(registry.get("inference_pool_average_queue_size").gauge().value()).isEqualTo(4);

            now[0] += 100_000_000L; // 250 ms: older than the 200 ms staleness threshold
            assertThat(registry.get("inference_pool_ready_pods").gauge().value()).isZero();
            assertThat(registry.get("inference_pool_average_queue_size").gauge().value()).isNaN();
            assertThat(gauge("inference_pool_per_pod_queue_size", A)).as("still the last scrape").isEqualTo(4);
        }
    }

    @Test
    void filterAndScrapeCountersAreRegisteredOnceAndIgnoreDepartedPods() throws Exception {
        try (Gateway gateway = gateway()) {
            SchedulerEvents meters = gateway.meters().scheduler();
            meters.filtered("llama", "saturation-filter", "saturated", 2);
            meters.filtered("llama", "saturation-filter", "saturated", 1);
            meters.filtered("llama", "saturation-filter", "stale", 1);
            assertThat(registry.find("inference_gateway_scheduler_filtered").counters()).hasSize(2);
            assertThat(registry.get("inference_gateway_scheduler_filtered").tag("outcome", "saturated").counter()
                    .count()).isEqualTo(3);

            MetricsScraper.Listener scrapes = gateway.meters().scrapes();
            scrapes.scraped("llama", A, MetricsScraper.Result.TIMED_OUT, 1_000_000_000L);
            scrapes.scraped("llama", A, MetricsScraper.Result.SKIPPED_BUSY, 0);
            scrapes.scraped("llama", C, MetricsScraper.Result.SUCCEEDED, 5_000_000L); // not in the pool
            assertThat(scrapeCount(A, "timed_out")).isEqualTo(1);
            assertThat(scrapeCount(A, "failed")).as("one result per scrape").isZero();
            assertThat(scrapeCount(A, "skipped_busy")).isEqualTo(1);
            assertThat(registry.find("inference_gateway_metrics_scrapes").tag("pod", C.toString()).counter()).isNull();
            assertThat(registry.get("inference_gateway_metrics_scrape_duration").timer().count())
                    .as("skips are not timed").isEqualTo(2);
        }
    }

    @Test
    void predictorAccuracyGaugesReadThePoolsPredictorAndGoWhenAReloadTakesItAway() throws Exception {
        try (Gateway gateway = gateway()) {
            assertThat(predictorGauge("inference_gateway_latency_prediction_mape", "ttft")).as("before any").isNaN();
            assertThat(registry.get("inference_gateway_latency_prediction_samples").gauge().value()).isZero();

            LatencyPredictor predictor = ((PluginPolicy) gateway.pools().pool("llama").policy()).predictor();
            // predicted 100 ms to the first token and 10 ms a token; measured 80 then 125, and 10 both times
            predictor.learn(predicted(predictor, 100, 10), 80, 10, 10);
            predictor.learn(predicted(predictor, 100, 10), 125, 10, 10);
            assertThat(predictorGauge("inference_gateway_latency_prediction_mape", "ttft")).isCloseTo(0.225, within(1e-9));
            assertThat(predictorGauge("inference_gateway_latency_prediction_bias", "ttft")).isCloseTo(0.025, within(1e-9));
            assertThat(predictorGauge("inference_gateway_latency_prediction_mape", "tpot")).isZero();
            assertThat(registry.get("inference_gateway_latency_prediction_samples").gauge().value()).isEqualTo(2);
            assertThat(registry.get("inference_gateway_latency_prediction_concordance").tag("pool", "llama").gauge()
                    .value()).as("one pod: no pair of pods to order").isNaN();

            gateway.reload(ConfigLoader.parse("""
                    kind: InferenceGatewayConfig
                    spec:
                      schedulers:
                        - {name: llama, modelName: m, policy: round-robin, endpoints: ['127.0.0.1:8001']}
                    """));
            assertThat(registry.find("inference_gateway_latency_prediction_mape").gauges()).as("nothing predicts").isEmpty();
            assertThat(registry.find("inference_gateway_latency_prediction_samples").gauges()).isEmpty();
            assertThat(registry.find("inference_gateway_latency_prediction_concordance").gauges()).isEmpty();
        }
    }

    /** A prediction of the predictor's own kind (the features of an idle pod), with the given values. */
    private static LatencyPrediction predicted(LatencyPredictor predictor, double ttftMs, double tpotMs) {
        double[] idle = new double[LatencyPredictor.FEATURES];
        idle[0] = 1; // each model's constant term
        idle[LatencyPredictor.TTFT_FEATURES] = 1;
        return new LatencyPrediction(A, ttftMs, tpotMs, 10, true, 0, idle, predictor);
    }

    private double predictorGauge(String name, String kind) {
        return registry.get(name).tag("pool", "llama").tag("kind", kind).gauge().value();
    }

    private double gauge(String name, Endpoint pod) {
        return registry.get(name).tag("model_server_pod", pod.toString()).gauge().value();
    }

    private double scrapeCount(Endpoint pod, String result) {
        Counter c = registry.get("inference_gateway_metrics_scrapes").tag("pod", pod.toString()).tag("result", result)
                .counter();
        return c.count();
    }
}
