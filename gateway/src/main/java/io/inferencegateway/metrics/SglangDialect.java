package io.inferencegateway.metrics;

/**
 * SGLang. Scheduler series carry {@code tp_rank}, {@code pp_rank} and, with data-parallel attention, {@code dp_rank};
 * only {@code dp_rank} separates queues, the other ranks repeat the same scheduler's numbers. With priority scheduling
 * the queue gauges add per-priority breakdowns under {@code priority="<n>"} beside the total under
 * {@code priority=""}; only the total is read. KV geometry comes from {@code sglang:cache_config_info} labels (older
 * releases) or the {@code sglang:page_size} / {@code sglang:num_pages} gauges (newer ones).
 */
final class SglangDialect {

    static final EngineDialect INSTANCE = new EngineDialect.Of("sglang", "/metrics", SglangReading::new);

    private static final String RANK = "dp_rank";
    private static final int WAITING = 0;
    private static final int RUNNING = 1;
    private static final int KV_USAGE = 2;
    private static final int PROMPT_TOKENS = 3;
    private static final int CACHED_TOKENS = 4;
    private static final int CACHE_CONFIG = 5;
    private static final int PAGE_SIZE = 6;
    private static final int NUM_PAGES = 7;
    private static final MetricNameTable NAMES = new MetricNameTable(
            "sglang:num_queue_reqs",
            "sglang:num_running_reqs",
            "sglang:token_usage",
            "sglang:prompt_tokens_total",
            "sglang:cached_tokens_total",
            "sglang:cache_config_info",
            "sglang:page_size",
            "sglang:num_pages");

    private SglangDialect() {
    }

    private static final class SglangReading extends EngineReading {

        SglangReading() {
            super(NAMES);
        }

        @Override
        public void sample(int id, Labels labels, double value) {
            switch (id) {
                case WAITING -> {
                    if (isTotalOverPriorities(labels)) {
                        waiting.record(labels, RANK, value);
                    }
                }
                case RUNNING -> {
                    if (isTotalOverPriorities(labels)) {
                        running.record(labels, RANK, value);
                    }
                }
                case KV_USAGE -> kvUsage.record(labels, RANK, value);
                case PROMPT_TOKENS -> addPrefixCacheQueries(value);
                case CACHED_TOKENS -> {
                    // hits in host memory or storage are not GPU prefix-cache hits
                    int source = labels.indexOf("cache_source");
                    if (source < 0 || labels.valueEquals(source, "device")) {
                        addPrefixCacheHits(value);
                    }
                }
                case CACHE_CONFIG -> recordCacheConfigInfo(labels, RANK, "page_size", "num_pages");
                case PAGE_SIZE -> recordBlockSize(value);
                case NUM_PAGES -> kvTotalBlocks.record(labels, RANK, value);
                default -> {
                }
            }
        }

        private static boolean isTotalOverPriorities(Labels labels) {
            int priority = labels.indexOf("priority");
            return priority < 0 || labels.isEmptyValue(priority);
        }
    }
}
