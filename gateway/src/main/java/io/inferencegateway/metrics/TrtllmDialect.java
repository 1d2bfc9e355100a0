package io.inferencegateway.metrics;

import static io.inferencegateway.metrics.SeriesTable.ReadingField.BLOCK_SIZE;
import static io.inferencegateway.metrics.SeriesTable.ReadingField.KV_BLOCKS;
import static io.inferencegateway.metrics.SeriesTable.ReadingField.KV_USAGE;
import static io.inferencegateway.metrics.SeriesTable.ReadingField.PREFIX_HITS;
import static io.inferencegateway.metrics.SeriesTable.ReadingField.PREFIX_QUERIES;
import static io.inferencegateway.metrics.SeriesTable.ReadingField.RUNNING;
import static io.inferencegateway.metrics.SeriesTable.ReadingField.WAITING;
import static io.inferencegateway.metrics.SeriesTable.counter;
import static io.inferencegateway.metrics.SeriesTable.gauge;

/**
 * TensorRT-LLM's {@code trtllm-serve}. Its Prometheus exposition lives at {@code /prometheus/metrics} ({@code /metrics}
 * answers JSON iteration stats) and exists only when the server runs with {@code return_perf_metrics}. It is
 * written by prometheus_client in multiprocess mode, so a gauge may appear once per process id; those copies combine
 * by max.
 */
final class TrtllmDialect {

    static final EngineDialect INSTANCE = new EngineDialect.Of("trtllm", "/prometheus/metrics", SeriesTable.unranked(
            gauge("trtllm_num_requests_waiting", WAITING),
            gauge("trtllm_num_requests_running", RUNNING),
            gauge("trtllm_kv_cache_utilization", KV_USAGE),
            gauge("trtllm_kv_cache_tokens_per_block", BLOCK_SIZE),
            gauge("trtllm_kv_cache_max_blocks", KV_BLOCKS),
            counter("trtllm_prompt_tokens_total", PREFIX_QUERIES),
            counter("trtllm_prompt_cached_tokens_total", PREFIX_HITS)));

    private TrtllmDialect() {
    }
}
