package io.inferencegateway.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.domain.InFlightRequests;

class EngineDialectTest {

    private static final InFlightRequests.Counters DISPATCHED = new InFlightRequests.Counters(40, 31, 9000);
    private static final long STARTED = 123_456_789L;
    private static final double UNKNOWN = Double.NaN;

    /** What a fixture must read as; the timing fields come from the test. */
    record Expected(int waiting, int running, double kvUsage, Set<String> runningAdapters,
            Set<String> waitingAdapters, int maxLora, int kvBlockSize, long kvTotalBlocks, double prefixQueries,
            double prefixHits) {
    }

    static Stream<Arguments> fixtures() {
        return Stream.of(
                Arguments.of("vLLM 0.10 shared sample", "vllm", "vllm-0.10-metrics.txt",
                        new Expected(3, 12, 0.42, Set.of("adapter_ko"), Set.of("adapter_json"), 2, 16, 29205,
                                123456, 65536)),
                Arguments.of("vLLM 0.10 full exposition", "vllm", "vllm-0.10-full-metrics.txt",
                        new Expected(7, 24, 0.6731297196507448, Set.of("sql-lora", "ko-chat"), Set.of("json-mode"),
                                4, 16, 29205, 4_591_104, 2_931_712)),
                Arguments.of("SGLang 0.5", "sglang", "sglang-0.5-metrics.txt",
                        new Expected(5, 31, 0.37, Set.of(), Set.of(), -1, 16, 16303, 12_609_651, 5_819_392)),
                Arguments.of("TGI 3", "tgi", "tgi-3-metrics.txt",
                        new Expected(4, 17, UNKNOWN, Set.of(), Set.of(), -1, -1, -1, UNKNOWN, UNKNOWN)),
                Arguments.of("trtllm-serve", "trtllm", "trtllm-serve-metrics.txt",
                        new Expected(2, 9, 0.3125, Set.of(), Set.of(), -1, 32, 18432, 3_250_592, 1_466_368)),
                // a real capture: --parallel 4, six streams in flight; no KV gauge, no KV geometry
                Arguments.of("llama.cpp b11669, 4 slots busy, 2 deferred", "llamacpp",
                        "llamacpp-metrics-busy.txt",
                        new Expected(2, 4, UNKNOWN, Set.of(), Set.of(), -1, -1, -1, 176, 0)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void readsFixture(String scenario, String engine, String fixture, Expected expected) throws IOException {
        byte[] text = PrometheusTextParserTest.fixture(fixture);

        EngineDialect.Parsed parsed = EngineDialects.forEngine(engine).read(text, 0, text.length, STARTED, DISPATCHED);

        assertThat(parsed.stats().garbageLines()).isZero();
        assertMetrics(parsed.metrics(), expected);
        assertThat(parsed.metrics().scrapeStartedNanos()).isEqualTo(STARTED);
        assertThat(parsed.metrics().dispatchedAtScrape()).isEqualTo(DISPATCHED);
    }

    @ParameterizedTest
    @MethodSource("io.inferencegateway.metrics.EngineDialects#names")
    void emptyExpositionLeavesEverythingUnknown(String engine) {
        EndpointMetrics m = read(engine, "# nothing here\n");

        assertMetrics(m, new Expected(-1, -1, UNKNOWN, Set.of(), Set.of(), -1, -1, -1, UNKNOWN, UNKNOWN));
    }

    @Test
    void eachEngineKnowsWhereItsExpositionLives() {
        assertThat(EngineDialects.forEngine("vllm").metricsPath()).isEqualTo("/metrics");
        assertThat(EngineDialects.forEngine("sglang").metricsPath()).isEqualTo("/metrics");
        assertThat(EngineDialects.forEngine("tgi").metricsPath()).isEqualTo("/metrics");
        assertThat(EngineDialects.forEngine("trtllm").metricsPath()).isEqualTo("/prometheus/metrics");
        assertThat(EngineDialects.forEngine("llamacpp").metricsPath()).isEqualTo("/metrics");
        for (String engine : EngineDialects.names()) {
            assertThat(EngineDialects.forEngine(engine).name()).isEqualTo(engine);
        }
    }

    @Test
    void vllmDataParallelEnginesSumQueuesAndBlocksAndTakeTheFullestCache() {
        EndpointMetrics m = read("vllm", """
                vllm:num_requests_waiting{engine="0",model_name="m"} 2.0
                vllm:num_requests_waiting{engine="1",model_name="m"} 3.0
                vllm:num_requests_running{engine="0",model_name="m"} 4.0
                vllm:num_requests_running{engine="1",model_name="m"} 6.0
                vllm:kv_cache_usage_perc{engine="0",model_name="m"} 0.5
                vllm:kv_cache_usage_perc{engine="1",model_name="m"} 0.7
                vllm:prefix_cache_queries_total{engine="0",model_name="m"} 100.0
                vllm:prefix_cache_queries_total{engine="1",model_name="m"} 50.0
                vllm:prefix_cache_hits_total{engine="0",model_name="m"} 10.0
                vllm:prefix_cache_hits_total{engine="1",model_name="m"} 5.0
                vllm:cache_config_info{block_size="16",engine="0",num_gpu_blocks="1000"} 1.0
                vllm:cache_config_info{block_size="16",engine="1",num_gpu_blocks="1200"} 1.0
                """);

        assertMetrics(m, new Expected(5, 10, 0.7, Set.of(), Set.of(), -1, 16, 2200, 150, 15));
    }

    @Test
    void vllmBefore010NamesCountOnlyWhenTheNewOnesAreAbsent() {
        EndpointMetrics old = read("vllm", """
                vllm:gpu_cache_usage_perc{engine="0",model_name="m"} 0.25
                vllm:gpu_prefix_cache_queries_total{engine="0",model_name="m"} 80.0
                vllm:gpu_prefix_cache_hits_total{engine="0",model_name="m"} 20.0
                """);
        EndpointMetrics both = read("vllm", """
                vllm:gpu_cache_usage_perc{engine="0",model_name="m"} 0.25
                vllm:kv_cache_usage_perc{engine="0",model_name="m"} 0.5
                vllm:gpu_prefix_cache_queries_total{engine="0",model_name="m"} 80.0
                vllm:gpu_prefix_cache_hits_total{engine="0",model_name="m"} 20.0
                vllm:prefix_cache_queries_total{engine="0",model_name="m"} 90.0
                vllm:prefix_cache_hits_total{engine="0",model_name="m"} 30.0
                """);

        assertThat(old.kvUsage()).isEqualTo(0.25);
        assertThat(old.prefixCacheQueries()).isEqualTo(80.0);
        assertThat(old.prefixCacheHits()).isEqualTo(20.0);
        assertThat(both.kvUsage()).isEqualTo(0.5);
        assertThat(both.prefixCacheQueries()).isEqualTo(90.0);
        assertThat(both.prefixCacheHits()).isEqualTo(30.0);
    }

    @Test
    void vllmLoraTakesTheNewestSeriesWhateverItsPosition() {
        EndpointMetrics m = read("vllm", """
                vllm:lora_requests_info{max_lora="3",running_lora_adapters="old",waiting_lora_adapters=""} 1.7e9
                vllm:lora_requests_info{max_lora="3",running_lora_adapters="a, ,b,",waiting_lora_adapters="c"} 1.9e9
                vllm:lora_requests_info{max_lora="3",running_lora_adapters="broken",waiting_lora_adapters=""} NaN
                vllm:lora_requests_info{max_lora="3",running_lora_adapters="middle",waiting_lora_adapters=""} 1.8e9
                """);

        assertThat(m.runningAdapters()).containsExactlyInAnyOrder("a", "b");
        assertThat(m.waitingAdapters()).containsExactly("c");
        assertThat(m.maxLora()).isEqualTo(3);
    }

    @Test
    void vllmLoraWithEmptyAdapterListsMeansNoAdapterIsResident() {
        EndpointMetrics m = read("vllm", """
                vllm:lora_requests_info{max_lora="1",running_lora_adapters="x",waiting_lora_adapters=""} 1.0e9
                vllm:lora_requests_info{max_lora="1",running_lora_adapters="",waiting_lora_adapters=""} 2.0e9
                """);

        assertThat(m.runningAdapters()).isEmpty();
        assertThat(m.waitingAdapters()).isEmpty();
        assertThat(m.maxLora()).isEqualTo(1);
    }

    @Test
    void unreadableValuesStayUnknownAndKvUsageIsClampedToOne() {
        EndpointMetrics m = read("vllm", """
                vllm:num_requests_waiting{engine="0"} NaN
                vllm:num_requests_running{engine="0"} -3
                vllm:kv_cache_usage_perc{engine="0"} 1.2
                vllm:lora_requests_info{max_lora="None",running_lora_adapters="a",waiting_lora_adapters=""} 1.0e9
                vllm:cache_config_info{block_size="16",engine="0",num_gpu_blocks="None"} 1.0
                vllm:prefix_cache_queries_total{engine="0"} +Inf
                """);

        assertThat(m.waiting()).isEqualTo(-1);
        assertThat(m.running()).isEqualTo(-1);
        assertThat(m.kvUsage()).isEqualTo(1.0);
        assertThat(m.maxLora()).isEqualTo(-1);
        assertThat(m.runningAdapters()).containsExactly("a");
        assertThat(m.kvBlockSize()).isEqualTo(16);
        assertThat(m.kvTotalBlocks()).isEqualTo(-1);
        assertThat(m.prefixCacheQueries()).isNaN();
    }

    @Test
    void sglangDataParallelRanksSumWhileTensorParallelCopiesAndPriorityBreakdownsDoNot() {
        EndpointMetrics m = read("sglang", """
                sglang:num_queue_reqs{dp_rank="0",priority="",tp_rank="0"} 4.0
                sglang:num_queue_reqs{dp_rank="0",priority="",tp_rank="1"} 4.0
                sglang:num_queue_reqs{dp_rank="0",priority="1",tp_rank="0"} 3.0
                sglang:num_queue_reqs{dp_rank="0",priority="2",tp_rank="0"} 1.0
                sglang:num_queue_reqs{dp_rank="1",priority="",tp_rank="0"} 6.0
                sglang:num_running_reqs{dp_rank="0",priority="",tp_rank="0"} 10.0
                sglang:num_running_reqs{dp_rank="1",priority="",tp_rank="0"} 12.0
                sglang:token_usage{dp_rank="0",tp_rank="0"} 0.2
                sglang:token_usage{dp_rank="1",tp_rank="0"} 0.6
                sglang:page_size{dp_rank="0",tp_rank="0"} 64.0
                sglang:num_pages{dp_rank="0",tp_rank="0"} 4000.0
                sglang:num_pages{dp_rank="0",tp_rank="1"} 4000.0
                sglang:num_pages{dp_rank="1",tp_rank="0"} 4000.0
                sglang:prompt_tokens_total{is_streaming="false",model_name="m"} 700.0
                sglang:prompt_tokens_total{is_streaming="true",model_name="m"} 300.0
                sglang:cached_tokens_total{cache_source="device",model_name="m"} 400.0
                sglang:cached_tokens_total{cache_source="storage",model_name="m"} 100.0
                """);

        assertMetrics(m, new Expected(10, 22, 0.6, Set.of(), Set.of(), -1, 64, 8000, 1000, 400));
    }

    @Test
    void sglangCachedTokensWithoutSourceLabelCountAsHits() {
        EndpointMetrics m = read("sglang", """
                sglang:prompt_tokens_total{model_name="m"} 50.0
                sglang:cached_tokens_total{model_name="m"} 20.0
                """);

        assertThat(m.prefixCacheQueries()).isEqualTo(50.0);
        assertThat(m.prefixCacheHits()).isEqualTo(20.0);
    }

    @Test
    void trtllmGaugeCopiesFromSeveralProcessesCombineByMax() {
        EndpointMetrics m = read("trtllm", """
                trtllm_num_requests_waiting{engine_type="undefined",model_name="undefined",pid="10"} 0.0
                trtllm_num_requests_waiting{engine_type="undefined",model_name="undefined",pid="11"} 5.0
                trtllm_num_requests_running{engine_type="undefined",model_name="undefined",pid="10"} 8.0
                trtllm_kv_cache_utilization{engine_type="undefined",model_name="undefined",pid="10"} 0.125
                """);

        assertThat(m.waiting()).isEqualTo(5);
        assertThat(m.running()).isEqualTo(8);
        assertThat(m.kvUsage()).isEqualTo(0.125);
        assertThat(m.kvBlockSize()).isEqualTo(-1);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
        "computed and cached: queried is both, hit is cached  | 176         | 64 | 240       | 64",
        "C++ stream formatting of a large counter             | 1.23457e+06 | 0  | 1234570.0 | 0",
        "older build without the cached counter: unknown       | 176         | -  | NaN       | NaN",
    })
    void llamaCppPromptCountersBecomePrefixCacheTokens(String scenario, String computed, String cached,
            double queried, double hit) {
        String text = "llamacpp:requests_processing 1\nllamacpp:prompt_tokens_total " + computed + "\n"
                + (cached == null ? "" : "llamacpp:prompt_tokens_cached_total " + cached + "\n");

        EndpointMetrics m = read("llamacpp", text);

        assertThat(Double.valueOf(m.prefixCacheQueries())).isEqualTo(Double.valueOf(queried));
        assertThat(Double.valueOf(m.prefixCacheHits())).isEqualTo(Double.valueOf(hit));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
        "in any order, others skipped | {\"x\":[{\"n_ctx\":9}],\"default_generation_settings\":{\"n_ctx\":4096},\"total_slots\":2} | 4096",
        "no slot count | {\"default_generation_settings\":{\"n_ctx\":4096}} | -",
        "no context | {\"total_slots\":2,\"default_generation_settings\":{}} | -",
        "zero slots | {\"total_slots\":0,\"default_generation_settings\":{\"n_ctx\":4096}} | -",
        "a context as a string | {\"total_slots\":2,\"default_generation_settings\":{\"n_ctx\":\"4096\"}} | -",
        "cut short | {\"total_slots\":2,\"default_generation_settings\":{\"n_ctx\":40 | -",
        "not an object | [2, 4096] | -",
    })
    void llamaCppPropsGiveItsSlotsAndTheirContextOrNothing(String scenario, String props, Integer context) {
        byte[] body = bytes(props);
        EngineDialect.KvGeometry g = EngineDialects.forEngine("llamacpp").readCapacity(body, 0, body.length);
        assertThat(g).isEqualTo(context == null ? null : new EngineDialect.KvGeometry(context, 2));
    }

    @Test
    void aRealLlamaCppPropsSaysFourSlotsOf1024Tokens() throws IOException {
        byte[] props = PrometheusTextParserTest.fixture("llamacpp-props.json"); // --parallel 4, 4,096 tokens of context
        assertThat(EngineDialects.forEngine("llamacpp").readCapacity(props, 0, props.length))
                .isEqualTo(new EngineDialect.KvGeometry(1024, 4));
        assertThat(EngineDialects.forEngine("vllm").capacityPath()).as("its exposition says it").isNull();
    }

    /**
     * Why the llama.cpp dialect reads no {@code /slots}: in the same moment of the same server, {@code /props} says 4
     * slots, {@code /slots} shows all 4 processing, and {@code /metrics} defers 2 requests. Deferred requests exist
     * only when every slot is busy, so the queue already says the pod is full.
     */
    @Test
    void llamaCppDefersOnlyWhenEverySlotIsBusyAsTheRealCapturesShow() throws IOException {
        ObjectMapper json = new ObjectMapper();
        int totalSlots = json.readTree(PrometheusTextParserTest.fixture("llamacpp-props.json")).get("total_slots")
                .asInt();
        JsonNode slots = json.readTree(
                PrometheusTextParserTest.fixture("llamacpp-slots-busy.json"));
        long processing = StreamSupport.stream(slots.spliterator(), false)
                .filter(slot -> slot.get("is_processing").asBoolean()).count();
        byte[] text = PrometheusTextParserTest.fixture("llamacpp-metrics-busy.txt");
        EndpointMetrics m = EngineDialects.forEngine("llamacpp").read(text, 0, text.length, STARTED, DISPATCHED)
                .metrics();

        assertThat(slots).hasSize(totalSlots);
        assertThat(processing).isEqualTo(totalSlots).isEqualTo(m.running());
        assertThat(m.waiting()).isPositive();
    }

    @Test
    void garbageLinesAreCountedAndTheRestIsStillRead() {
        byte[] text = bytes("""
                tgi_queue_size 4
                tgi_batch_current_size seventeen
                !!! not prometheus
                tgi_batch_current_size 17
                """);

        EngineDialect.Parsed parsed = EngineDialects.forEngine("tgi")
                .read(text, 0, text.length, STARTED, DISPATCHED);

        assertThat(parsed.stats().garbageLines()).isEqualTo(2);
        assertThat(parsed.metrics().waiting()).isEqualTo(4);
        assertThat(parsed.metrics().running()).isEqualTo(17);
    }

    @Test
    void vllmDialectIgnoresOtherEnginesNames() {
        EndpointMetrics m = read("vllm", """
                sglang:num_queue_reqs{dp_rank="0"} 4.0
                tgi_queue_size 4
                vllm:num_requests_waiting_created{engine="0"} 1.7e9
                """);

        assertThat(m.waiting()).isEqualTo(-1);
    }

    private static EndpointMetrics read(String engine, String text) {
        byte[] bytes = bytes(text);
        return EngineDialects.forEngine(engine).read(bytes, 0, bytes.length, STARTED, DISPATCHED).metrics();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static void assertMetrics(EndpointMetrics m, Expected e) {
        assertThat(m.waiting()).as("waiting").isEqualTo(e.waiting());
        assertThat(m.running()).as("running").isEqualTo(e.running());
        assertThat(Double.valueOf(m.kvUsage())).as("kvUsage").isEqualTo(Double.valueOf(e.kvUsage()));
        assertThat(m.runningAdapters()).as("runningAdapters").isEqualTo(e.runningAdapters());
        assertThat(m.waitingAdapters()).as("waitingAdapters").isEqualTo(e.waitingAdapters());
        assertThat(m.maxLora()).as("maxLora").isEqualTo(e.maxLora());
        assertThat(m.kvBlockSize()).as("kvBlockSize").isEqualTo(e.kvBlockSize());
        assertThat(m.kvTotalBlocks()).as("kvTotalBlocks").isEqualTo(e.kvTotalBlocks());
        assertThat(Double.valueOf(m.prefixCacheQueries())).as("prefixCacheQueries")
                .isEqualTo(Double.valueOf(e.prefixQueries()));
        assertThat(Double.valueOf(m.prefixCacheHits())).as("prefixCacheHits")
                .isEqualTo(Double.valueOf(e.prefixHits()));
    }
}
