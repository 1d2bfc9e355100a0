package io.inferencegateway.simulator;

/** TensorRT-LLM's trtllm-serve /metrics (names as in docs/configuration.md, "Model-server metrics"; labels model_name and engine_type). */
final class TrtllmMetricsFormat {

    private TrtllmMetricsFormat() {
    }

    static String render(EngineCore e, long nowNanos) {
        EngineMetrics m = e.metrics();
        String[] l = {"model_name", e.config().modelName(), "engine_type", "trtllm"};
        PromText p = new PromText();
        p.gauge("trtllm_num_requests_waiting", "Number of requests waiting to be scheduled.", e.numWaiting(), l);
        p.gauge("trtllm_num_requests_running", "Number of requests in the running batch.", e.numRunning(), l);
        p.gauge("trtllm_kv_cache_utilization", "Fraction of KV-cache blocks in use.", e.kvUsage(), l);
        p.gauge("trtllm_kv_cache_tokens_per_block", "Tokens per KV-cache block.", e.config().blockSize(), l);
        p.gauge("trtllm_kv_cache_max_blocks", "KV-cache blocks in total.", e.config().numGpuBlocks(), l);
        p.gauge("trtllm_kv_cache_hit_rate", "KV-cache reuse rate of prompt tokens.",
                m.prefixQueries == 0 ? 0 : (double) m.prefixHits / m.prefixQueries, l);
        p.header("trtllm_request_success_total", "Count of successfully processed requests.", "counter");
        String[] reasons = {"stop", "length", "abort"};
        double[] counts = {m.finishedStop, m.finishedLength, m.aborted};
        for (int i = 0; i < reasons.length; i++) {
            p.sample("trtllm_request_success_total", counts[i], "model_name", e.config().modelName(), "engine_type",
                    "trtllm", "finished_reason", reasons[i]);
        }
        p.histogram("trtllm_e2e_request_latency_seconds", "Histogram of end to end request latency in seconds.",
                m.e2eLatency, l);
        p.histogram("trtllm_time_to_first_token_seconds", "Histogram of time to first token in seconds.",
                m.timeToFirstToken, l);
        p.histogram("trtllm_time_per_output_token_seconds", "Histogram of time per output token in seconds.",
                m.interTokenLatency, l);
        p.histogram("trtllm_request_queue_time_seconds", "Histogram of time spent in WAITING phase for request.",
                m.queueTime, l);
        return p.toString();
    }
}
