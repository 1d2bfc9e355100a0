package io.inferencegateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** Every dialect's /metrics values equal the engine state they describe. */
class MetricsStateTest {

    private static final long SECOND = 1_000_000_000L;

    /** A busy engine caught mid-run: some finished, some running, some waiting, one aborted. */
    private static EngineCore busyEngine(MetricsDialect dialect, List<SimRequest> all) {
        EngineConfig cfg = EngineConfig.defaults().withAdapters(List.of("ad-1", "ad-2"), 1).withKvBlocks(400)
                .withMaxNumSeqs(6);
        EngineCore engine = new EngineCore(cfg, dialect, 1_700_000_000L * SECOND, 1.0);
        VirtualTimeRunner runner = new VirtualTimeRunner(engine);
        int[] shared = Calibration.distinctPrompt(99, 256);
        for (int i = 0; i < 12; i++) {
            int[] p = i % 3 == 0 ? shared : Calibration.distinctPrompt(i, 100 + 40 * i);
            String adapter = i % 4 == 1 ? "ad-1" : (i % 4 == 3 ? "ad-2" : null);
            int id = i;
            int maxTokens = id % 3 == 0 ? 30 : 400;
            runner.at(i * 50_000_000L, () -> all.add(engine.submit(adapter, p, maxTokens, runner.now(), null)));
        }
        runner.runUntil(SECOND);
        engine.abort(engine.waitingQueue().get(0), runner.now());
        runner.runUntil(3 * SECOND);
        return engine;
    }

    @Test
    void vllmMetricsMatchTheEngineState() {
        List<SimRequest> all = new ArrayList<>();
        EngineCore e = busyEngine(MetricsDialect.VLLM, all);
        PromSamples m = new PromSamples(MetricsDialect.VLLM.render(e, 3 * SECOND));
        EngineMetrics em = e.metrics();

        assertThat(e.numRunning()).isPositive();
        assertThat(e.numWaiting()).isPositive();
        assertThat(m.value("vllm:num_requests_running")).isEqualTo(e.numRunning());
        assertThat(m.value("vllm:num_requests_waiting")).isEqualTo(e.numWaiting());
        assertThat(m.value("vllm:kv_cache_usage_perc")).isCloseTo(1.0 - e.freeKvBlocks() / 400.0, within(1e-9));
        assertThat(m.value("vllm:gpu_cache_usage_perc")).isEqualTo(m.value("vllm:kv_cache_usage_perc"));

        long promptOfStarted = all.stream().filter(r -> r.firstTokenNanos() >= 0).mapToLong(SimRequest::promptLength).sum();
        long generated = all.stream().mapToLong(SimRequest::outputTokens).sum();
        long finished = all.stream().filter(r -> r.status() == SimRequest.Status.FINISHED).count();
        long started = all.stream().filter(r -> r.firstTokenNanos() >= 0).count();
        assertThat(finished).isPositive();
        assertThat(m.value("vllm:prompt_tokens_total")).isEqualTo(promptOfStarted);
        assertThat(m.value("vllm:generation_tokens_total")).isEqualTo(generated);
        assertThat(m.value("vllm:request_success_total", "finished_reason=\"length\"")).isEqualTo(finished);
        assertThat(m.value("vllm:request_success_total", "finished_reason=\"abort\"")).isEqualTo(1);
        assertThat(m.value("vllm:time_to_first_token_seconds_count")).isEqualTo(started);
        assertThat(m.value("vllm:inter_token_latency_seconds_count")).isEqualTo(generated - started);
        assertThat(m.value("vllm:e2e_request_latency_seconds_count")).isEqualTo(finished);
        assertThat(m.value("vllm:time_to_first_token_seconds_bucket", "le=\"+Inf\"")).isEqualTo(started);
        assertThat(m.value("vllm:prefix_cache_hits_total")).isEqualTo(em.prefixHits()).isPositive();
        assertThat(m.value("vllm:prefix_cache_queries_total")).isEqualTo(em.prefixQueries());
        assertThat(m.value("vllm:num_preemptions_total")).isEqualTo(em.preemptions());
        assertThat(m.value("vllm:cache_config_info", "num_gpu_blocks=\"400\"", "block_size=\"16\"")).isEqualTo(1.0);

        String running = String.join(",", e.runningAdapters());
        String waiting = String.join(",", e.waitingAdapters());
        double latest = m.value("vllm:lora_requests_info", "running_lora_adapters=\"" + running + "\"",
                "waiting_lora_adapters=\"" + waiting + "\"", "max_lora=\"1\"");
        assertThat(latest).isCloseTo(1_700_000_003.0, within(0.2));
        double max = m.all().entrySet().stream().filter(en -> en.getKey().startsWith("vllm:lora_requests_info"))
                .mapToDouble(java.util.Map.Entry::getValue).max().orElseThrow();
        assertThat(max).isEqualTo(latest);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = MetricsDialect.class, names = {"SGLANG", "TGI", "TRTLLM"})
    void otherDialectsReportTheSameQueueAndKvState(MetricsDialect dialect) {
        EngineCore e = busyEngine(dialect, new ArrayList<>());
        PromSamples m = new PromSamples(dialect.render(e, 3 * SECOND));
        double usage = 1.0 - e.freeKvBlocks() / 400.0;
        switch (dialect) {
            case SGLANG -> {
                assertThat(m.value("sglang:num_queue_reqs")).isEqualTo(e.numWaiting());
                assertThat(m.value("sglang:num_running_reqs")).isEqualTo(e.numRunning());
                assertThat(m.value("sglang:token_usage")).isCloseTo(usage, within(1e-9));
                assertThat(m.value("sglang:cache_config_info", "page_size=\"16\"", "num_pages=\"400\"")).isEqualTo(1);
                assertThat(m.value("sglang:generation_tokens_total")).isEqualTo(e.metrics().generationTokens());
            }
            case TGI -> {
                assertThat(m.value("tgi_queue_size")).isEqualTo(e.numWaiting());
                assertThat(m.value("tgi_batch_current_size")).isEqualTo(e.numRunning());
                assertThat(m.value("tgi_request_count")).isEqualTo(12);
            }
            case TRTLLM -> {
                assertThat(m.value("trtllm_num_requests_waiting")).isEqualTo(e.numWaiting());
                assertThat(m.value("trtllm_num_requests_running")).isEqualTo(e.numRunning());
                assertThat(m.value("trtllm_kv_cache_utilization")).isCloseTo(usage, within(1e-9));
                assertThat(m.value("trtllm_kv_cache_tokens_per_block")).isEqualTo(16);
                assertThat(m.value("trtllm_kv_cache_max_blocks")).isEqualTo(400);
            }
            default -> throw new IllegalStateException();
        }
    }

    @Test
    void llamaCppMetricsMatchTheEngineState() {
        List<SimRequest> all = new ArrayList<>();
        EngineCore e = busyEngine(MetricsDialect.LLAMACPP, all);
        PromSamples m = new PromSamples(MetricsDialect.LLAMACPP.render(e, 3 * SECOND));
        EngineMetrics em = e.metrics();

        assertThat(e.numWaiting()).isPositive();
        assertThat(m.value("llamacpp:requests_processing")).isEqualTo(e.numRunning());
        assertThat(m.value("llamacpp:requests_deferred")).isEqualTo(e.numWaiting());
        assertThat(m.value("llamacpp:prompt_tokens_cached_total")).isEqualTo(em.prefixHits()).isPositive();
        assertThat(m.value("llamacpp:prompt_tokens_total") + m.value("llamacpp:prompt_tokens_cached_total"))
                .isEqualTo(em.prefixQueries());
        long predictedByFinished = all.stream().filter(r -> r.status() == SimRequest.Status.FINISHED)
                .mapToLong(SimRequest::outputTokens).sum();
        assertThat(m.value("llamacpp:tokens_predicted_total")).isEqualTo(predictedByFinished).isPositive();
        assertThat(m.value("llamacpp:n_decode_total")).isEqualTo(em.steps());
        assertThat(m.value("llamacpp:n_tokens_max")).isEqualTo(all.stream()
                .mapToLong(r -> r.promptLength() + r.outputTokens()).max().orElseThrow());
        assertThat(m.value("llamacpp:n_busy_slots_per_decode")).isBetween(1.0, 6.0);
        assertThat(m.all().keySet()).noneMatch(series -> series.contains("kv") || series.contains("cache_usage"));
    }

    /** Series, types and help texts exactly as the real b11669 capture has them, in its order. */
    @Test
    void llamaCppExpositionHasTheShapeOfTheRealCapture() throws Exception {
        String real;
        try (InputStream in = MetricsStateTest.class.getResourceAsStream("/fixtures/llamacpp-metrics-busy.txt")) {
            real = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String simulated = MetricsDialect.LLAMACPP.render(busyEngine(MetricsDialect.LLAMACPP, new ArrayList<>()),
                3 * SECOND);

        assertThat(commentLines(simulated)).isEqualTo(commentLines(real));
        assertThat(new PromSamples(simulated).all().keySet()).isEqualTo(new PromSamples(real).all().keySet());
    }

    private static List<String> commentLines(String exposition) {
        return exposition.lines().filter(line -> line.startsWith("#")).toList();
    }

    @ParameterizedTest(name = "{0} prints as {1}")
    @CsvSource({
        "0, 0", "176, 176", "0.178941, 0.178941", "983.564, 983.564", "0.333333333, 0.333333",
        "666.6666667, 666.667", "999999.4, 999999", "999999.5, 1e+06", "1234567, 1.23457e+06",
        "12345678901, 1.23457e+10", "3000000, 3e+06", "1e100, 1e+100", "0.0001, 0.0001",
        "0.00001234, 1.234e-05", "0.000123456789, 0.000123457", "467280, 467280"})
    void llamaCppNumbersArePrintedLikeACppStream(double value, String printed) {
        // expected strings are what g++'s std::ostream << double printed for the same values
        assertThat(LlamaCppMetricsFormat.number(value)).isEqualTo(printed);
    }

    @Test
    void numbersAreFormattedLikePrometheusClient() {
        assertThat(PromText.number(12)).isEqualTo("12.0");
        assertThat(PromText.number(0.42)).isEqualTo("0.42");
        assertThat(PromText.number(1.7886264546318772e9)).isEqualTo("1.7886264546318772e+09");
        assertThat(PromText.number(0.001)).isEqualTo("0.001");
        assertThat(PromText.number(Double.POSITIVE_INFINITY)).isEqualTo("+Inf");
    }
}
