package io.inferencegateway.simulator;

/** SGLang's /metrics (names and buckets of sglang/srt/metrics/collector.py; the table in docs/configuration.md, "Model-server metrics"). */
final class SglangMetricsFormat {

    static final double[] TTFT_BUCKETS = {0.1, 0.2, 0.4, 0.6, 0.8, 1, 2, 4, 6, 8, 10, 20, 40, 60, 80, 100, 200, 400};
    static final double[] ITL_BUCKETS = {0.002, 0.004, 0.006, 0.008, 0.010, 0.015, 0.020, 0.025, 0.030, 0.035, 0.040,
        0.060, 0.080, 0.100, 0.200, 0.400, 0.600, 0.800, 1.000, 2.000, 4.000, 6.000, 8.000};
    static final double[] E2E_BUCKETS = {0.1, 0.2, 0.4, 0.6, 0.8, 1, 2, 4, 6, 8, 10, 20, 40, 60, 80, 100, 200, 400, 600,
        1200, 1800, 2400};

    private SglangMetricsFormat() {
    }

    static String render(EngineCore e, long nowNanos) {
        EngineMetrics m = e.metrics();
        String[] l = {"model_name", e.config().modelName(), "engine_type", "unified", "tp_rank", "0", "pp_rank", "0"};
        long maxTokens = (long) e.config().numGpuBlocks() * e.config().blockSize();
        PromText p = new PromText();
        p.gauge("sglang:num_running_reqs", "The number of running requests.", e.numRunning(), l);
        p.gauge("sglang:num_used_tokens", "The number of used tokens.", e.usedKvTokens(), l);
        p.gauge("sglang:token_usage", "The token usage.", e.kvUsage(), l);
        p.gauge("sglang:gen_throughput", "The generation throughput (token/s).", m.recentGenerationThroughput(), l);
        p.gauge("sglang:num_queue_reqs", "The number of requests in the waiting queue.", e.numWaiting(), l);
        p.gauge("sglang:cache_hit_rate", "The prefix cache hit rate.",
                m.prefixQueries == 0 ? 0 : (double) m.prefixHits / m.prefixQueries, l);
        p.gauge("sglang:max_total_num_tokens", "Maximum total number of tokens in the KV cache pool.", maxTokens, l);
        p.counter("sglang:num_retracted_reqs_total", "The number of retracted requests.", m.preemptions, l);
        p.counter("sglang:prompt_tokens_total", "Number of prefill tokens processed.", m.promptTokens, l);
        p.counter("sglang:generation_tokens_total", "Number of generation tokens processed.", m.generationTokens, l);
        p.counter("sglang:cached_tokens_total", "Number of cached prompt tokens.", m.prefixHits, l);
        p.counter("sglang:num_requests_total", "Number of requests processed.", m.finishedLength + m.finishedStop, l);
        p.counter("sglang:num_aborted_requests_total", "Number of requests aborted.", m.aborted, l);
        p.histogram("sglang:time_to_first_token_seconds", "Histogram of time to first token in seconds.",
                m.timeToFirstToken, l);
        p.histogram("sglang:inter_token_latency_seconds", "Histogram of inter-token latency in seconds.",
                m.interTokenLatency, l);
        p.histogram("sglang:e2e_request_latency_seconds", "Histogram of End-to-end request latency in seconds",
                m.e2eLatency, l);
        p.histogram("sglang:queue_time_seconds", "Histogram of queueing time in seconds.", m.queueTime, l);
        p.gauge("sglang:cache_config_info", "Information of the KV cache configuration.", 1.0,
                "model_name", e.config().modelName(), "page_size", Integer.toString(e.config().blockSize()),
                "num_pages", Integer.toString(e.config().numGpuBlocks()));
        return p.toString();
    }
}
