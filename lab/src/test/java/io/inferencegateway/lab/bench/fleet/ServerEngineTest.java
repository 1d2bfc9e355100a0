package io.inferencegateway.lab.bench.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What the bench reads from each engine's Prometheus text for its per-server columns. */
class ServerEngineTest {

    private static final String LLAMACPP = """
            # HELP llamacpp:prompt_tokens_total Number of prompt tokens processed.
            # TYPE llamacpp:prompt_tokens_total counter
            llamacpp:prompt_tokens_total 300
            llamacpp:prompt_tokens_cached_total 100
            llamacpp:prompt_tokens_seconds 41.5
            llamacpp:requests_processing 2
            llamacpp:requests_deferred 3
            """;

    private static final String VLLM = """
            vllm:num_requests_running{engine="0",model_name="m"} 4.0
            vllm:num_requests_running{engine="1",model_name="m"} 1.0
            vllm:num_requests_waiting{engine="0",model_name="m"} 0.0
            vllm:num_requests_waiting{engine="1",model_name="m"} 2.0
            vllm:prefix_cache_queries_total{engine="0",model_name="m"} 1000.0
            vllm:prefix_cache_hits_total{engine="0",model_name="m"} 250.0
            vllm:request_success_total{engine="0",finished_reason="stop",model_name="m"} 7.0
            vllm:request_success_total{engine="0",finished_reason="length",model_name="m"} 5.0
            vllm:num_preemptions_total{engine="0",model_name="m"} 3.0
            """;

    private static final String SGLANG = """
            sglang:num_queue_reqs{model_name="m",priority=""} 6.0
            sglang:num_queue_reqs{model_name="m",priority="1"} 4.0
            sglang:num_running_reqs{model_name="m"} 2.0
            sglang:prompt_tokens_total{model_name="m"} 800.0
            sglang:cached_tokens_total{cache_source="device",model_name="m"} 200.0
            sglang:cached_tokens_total{cache_source="host",model_name="m"} 100.0
            """;

    @Test
    void llamaCppCountsPromptTokensComputedAndCachedApartAndNoRequests() {
        ServerReading r = ServerEngine.LLAMACPP.read(LLAMACPP);

        assertThat(r.waiting()).isEqualTo(3);
        assertThat(r.running()).isEqualTo(2);
        assertThat(r.prefixQueries()).as("computed + cached").isEqualTo(400);
        assertThat(r.prefixHits()).isEqualTo(100);
        assertThat(r.served()).isNaN();
        assertThat(r.preemptions()).isNaN();
    }

    @Test
    void vllmSumsItsDataParallelRanksAndFinishReasons() {
        ServerReading r = ServerEngine.VLLM.read(VLLM);

        assertThat(r.running()).isEqualTo(5);
        assertThat(r.waiting()).isEqualTo(2);
        assertThat(r.prefixQueries()).isEqualTo(1000);
        assertThat(r.prefixHits()).isEqualTo(250);
        assertThat(r.served()).isEqualTo(12);
        assertThat(r.preemptions()).isEqualTo(3);
    }

    @Test
    void sglangReadsTheQueueTotalAndDeviceCacheHitsOnly() {
        ServerReading r = ServerEngine.SGLANG.read(SGLANG);

        assertThat(r.waiting()).as("priority=\"\" is the total").isEqualTo(6);
        assertThat(r.running()).as("a series without the label counts as its empty value").isEqualTo(2);
        assertThat(r.prefixHits()).isEqualTo(200);
    }

    @ParameterizedTest(name = "{0} text read as {1}: {2}")
    @CsvSource({"LLAMACPP, LLAMACPP, true", "VLLM, VLLM, true", "VLLM, LLAMACPP, false", "LLAMACPP, TGI, false",
            "SGLANG, SGLANG, true"})
    void aWrongEngineFindsNoQueueInTheText(ServerEngine wrote, ServerEngine reader, boolean recognised) {
        String text = switch (wrote) {
            case LLAMACPP -> LLAMACPP;
            case VLLM -> VLLM;
            default -> SGLANG;
        };
        assertThat(reader.recognises(text)).isEqualTo(recognised);
    }

    @Test
    void aSampleCountsFromTheRunsStartAndLeavesWhatIsUnknownOut() {
        ServerReading start = new ServerReading(0, 0, 1000, 100, Double.NaN, Double.NaN);
        ServerReading now = new ServerReading(2, 1, 1600, 400, Double.NaN, Double.NaN);

        PodSample sample = now.since(start);

        assertThat(sample.waiting()).isEqualTo(2);
        assertThat(sample.running()).isEqualTo(1);
        assertThat(sample.prefixQueries()).isEqualTo(600);
        assertThat(sample.prefixHits()).isEqualTo(300);
        assertThat(sample.served()).as("unknown").isEqualTo(-1);
        assertThat(sample.preemptions()).as("unknown").isEqualTo(-1);
        assertThat(ServerReading.UNKNOWN.since(start).prefixQueries()).as("no hit rate").isZero();
    }

    @Test
    void theEngineOfALabelIgnoresCaseAndAnUnknownOneListsTheKnown() {
        assertThat(ServerEngine.fromLabel("TrtLLM")).isEqualTo(ServerEngine.TRTLLM);
        assertThat(ServerEngine.TRTLLM.metricsPath()).isEqualTo("/prometheus/metrics");
        assertThatThrownBy(() -> ServerEngine.fromLabel("ollama"))
                .hasMessage("unknown engine 'ollama'; known: llamacpp, vllm, sglang, tgi, trtllm");
    }
}
