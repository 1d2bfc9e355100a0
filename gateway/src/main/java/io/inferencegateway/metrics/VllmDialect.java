package io.inferencegateway.metrics;

/**
 * vLLM (V1 engine, 0.9 and later; older names as fallbacks). Every series carries {@code engine}, the data-parallel
 * rank. {@code lora_requests_info} has no rank label: vLLM does not serve LoRA with data parallelism.
 */
final class VllmDialect {

    static final EngineDialect INSTANCE = new EngineDialect.Of("vllm", "/metrics", VllmReading::new);

    private static final String RANK = "engine";
    private static final int WAITING = 0;
    private static final int RUNNING = 1;
    private static final int KV_USAGE = 2;
    private static final int KV_USAGE_BEFORE_0_10 = 3;
    private static final int PREFIX_QUERIES = 4;
    private static final int PREFIX_HITS = 5;
    private static final int PREFIX_QUERIES_BEFORE_0_10 = 6;
    private static final int PREFIX_HITS_BEFORE_0_10 = 7;
    private static final int LORA_INFO = 8;
    private static final int CACHE_CONFIG = 9;
    private static final MetricNameTable NAMES = new MetricNameTable(
            "vllm:num_requests_waiting",
            "vllm:num_requests_running",
            "vllm:kv_cache_usage_perc",
            "vllm:gpu_cache_usage_perc",
            "vllm:prefix_cache_queries_total",
            "vllm:prefix_cache_hits_total",
            "vllm:gpu_prefix_cache_queries_total",
            "vllm:gpu_prefix_cache_hits_total",
            "vllm:lora_requests_info",
            "vllm:cache_config_info");

    private VllmDialect() {
    }

    private static final class VllmReading extends EngineReading {
        private final PerRankValues kvUsageBefore010 = new PerRankValues();
        private double prefixQueriesBefore010 = Double.NaN;
        private double prefixHitsBefore010 = Double.NaN;

        VllmReading() {
            super(NAMES);
        }

        @Override
        public void sample(int id, Labels labels, double value) {
            switch (id) {
                case WAITING -> waiting.record(labels, RANK, value);
                case RUNNING -> running.record(labels, RANK, value);
                case KV_USAGE -> kvUsage.record(labels, RANK, value);
                case KV_USAGE_BEFORE_0_10 -> kvUsageBefore010.record(labels, RANK, value);
                case PREFIX_QUERIES -> addPrefixCacheQueries(value);
                case PREFIX_HITS -> addPrefixCacheHits(value);
                case PREFIX_QUERIES_BEFORE_0_10 -> prefixQueriesBefore010 = sum(prefixQueriesBefore010, value);
                case PREFIX_HITS_BEFORE_0_10 -> prefixHitsBefore010 = sum(prefixHitsBefore010, value);
                case LORA_INFO -> recordLoraInfo(labels, value);
                case CACHE_CONFIG -> recordCacheConfigInfo(labels, RANK, "block_size", "num_gpu_blocks");
                default -> {
                }
            }
        }

        /** vLLM 0.9 exports old and new names side by side; the old ones count only when the new are absent. */
        @Override
        protected void finish() {
            if (kvUsage.isEmpty()) {
                kvUsage.take(kvUsageBefore010);
            }
            if (!hasPrefixCacheCounters()) {
                addPrefixCacheQueries(prefixQueriesBefore010);
                addPrefixCacheHits(prefixHitsBefore010);
            }
        }

        private static double sum(double total, double value) {
            if (!Double.isFinite(value) || value < 0) {
                return total;
            }
            return Double.isNaN(total) ? value : total + value;
        }
    }
}
