package io.inferencegateway.metrics;

/**
 * TensorRT-LLM's {@code trtllm-serve}. Its Prometheus exposition lives at {@code /prometheus/metrics} ({@code /metrics}
 * answers JSON iteration stats) and exists only when the server runs with {@code return_perf_metrics}. It is
 * written by prometheus_client in multiprocess mode, so a gauge may appear once per process id; those copies combine
 * by max.
 */
final class TrtllmDialect {

    static final EngineDialect INSTANCE = new EngineDialect.Of("trtllm", "/prometheus/metrics", TrtllmReading::new);

    private static final int WAITING = 0;
    private static final int RUNNING = 1;
    private static final int KV_USAGE = 2;
    private static final int TOKENS_PER_BLOCK = 3;
    private static final int MAX_BLOCKS = 4;
    private static final int PROMPT_TOKENS = 5;
    private static final int CACHED_PROMPT_TOKENS = 6;
    private static final MetricNameTable NAMES = new MetricNameTable(
            "trtllm_num_requests_waiting",
            "trtllm_num_requests_running",
            "trtllm_kv_cache_utilization",
            "trtllm_kv_cache_tokens_per_block",
            "trtllm_kv_cache_max_blocks",
            "trtllm_prompt_tokens_total",
            "trtllm_prompt_cached_tokens_total");

    private TrtllmDialect() {
    }

    private static final class TrtllmReading extends EngineReading {

        TrtllmReading() {
            super(NAMES);
        }

        @Override
        public void sample(int id, Labels labels, double value) {
            switch (id) {
                case WAITING -> waiting.record(labels, null, value);
                case RUNNING -> running.record(labels, null, value);
                case KV_USAGE -> kvUsage.record(labels, null, value);
                case TOKENS_PER_BLOCK -> recordBlockSize(value);
                case MAX_BLOCKS -> kvTotalBlocks.record(labels, null, value);
                case PROMPT_TOKENS -> addPrefixCacheQueries(value);
                case CACHED_PROMPT_TOKENS -> addPrefixCacheHits(value);
                default -> {
                }
            }
        }
    }
}
