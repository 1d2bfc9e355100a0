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

/**
 * SGLang. Scheduler series carry {@code tp_rank}, {@code pp_rank} and, with data-parallel attention, {@code dp_rank};
 * only {@code dp_rank} separates queues, the other ranks repeat the same scheduler's numbers. With priority scheduling
 * the queue gauges add per-priority breakdowns under {@code priority="<n>"} beside the total under
 * {@code priority=""}; only the total is read. KV geometry comes from {@code sglang:cache_config_info} labels (older
 * releases) or the {@code sglang:page_size} / {@code sglang:num_pages} gauges (newer ones).
 */
final class SglangDialect {

    static final EngineDialect INSTANCE = new EngineDialect.Of("sglang", "/metrics", SeriesTable.rankedBy("dp_rank",
            gauge("sglang:num_queue_reqs", WAITING).where("priority", ""),
            gauge("sglang:num_running_reqs", RUNNING).where("priority", ""),
            gauge("sglang:token_usage", KV_USAGE),
            counter("sglang:prompt_tokens_total", PREFIX_QUERIES),
            // hits in host memory or storage are not GPU prefix-cache hits
            counter("sglang:cached_tokens_total", PREFIX_HITS).where("cache_source", "device"),
            infoLabel("sglang:cache_config_info", "page_size", BLOCK_SIZE),
            infoLabel("sglang:cache_config_info", "num_pages", KV_BLOCKS),
            gauge("sglang:page_size", BLOCK_SIZE),
            gauge("sglang:num_pages", KV_BLOCKS)));

    private SglangDialect() {
    }
}
