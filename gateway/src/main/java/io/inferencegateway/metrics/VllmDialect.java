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
import static io.inferencegateway.metrics.SeriesTable.infoLabel;
import static io.inferencegateway.metrics.SeriesTable.loraInfo;

/**
 * vLLM (V1 engine, 0.9 and later; older names as fallbacks). Every series carries {@code engine}, the data-parallel
 * rank. {@code lora_requests_info} has no rank label: vLLM does not serve LoRA with data parallelism.
 */
final class VllmDialect {

    static final EngineDialect INSTANCE = new EngineDialect.Of("vllm", "/metrics", SeriesTable.rankedBy("engine",
            gauge("vllm:num_requests_waiting", WAITING),
            gauge("vllm:num_requests_running", RUNNING),
            gauge("vllm:kv_cache_usage_perc", KV_USAGE),
            gauge("vllm:gpu_cache_usage_perc", KV_USAGE).olderName(),
            counter("vllm:prefix_cache_queries_total", PREFIX_QUERIES),
            counter("vllm:prefix_cache_hits_total", PREFIX_HITS),
            counter("vllm:gpu_prefix_cache_queries_total", PREFIX_QUERIES).olderName(),
            counter("vllm:gpu_prefix_cache_hits_total", PREFIX_HITS).olderName(),
            loraInfo("vllm:lora_requests_info"),
            infoLabel("vllm:cache_config_info", "block_size", BLOCK_SIZE),
            infoLabel("vllm:cache_config_info", "num_gpu_blocks", KV_BLOCKS)));

    private VllmDialect() {
    }
}
