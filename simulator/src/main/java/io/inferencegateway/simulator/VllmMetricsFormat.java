package io.inferencegateway.simulator;

/** vLLM V1's /metrics (names, labels and buckets of vllm/v1/metrics/loggers.py, 0.10). */
final class VllmMetricsFormat {

    static final double[] TTFT_BUCKETS = {0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5,
        5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0};
    static final double[] ITL_BUCKETS = {0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5, 5.0,
        7.5, 10.0, 20.0, 40.0, 80.0};
    static final double[] REQUEST_LATENCY_BUCKETS = {0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0,
        40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0};

    private VllmMetricsFormat() {
    }

    static String render(EngineCore e, long nowNanos) {
        EngineMetrics m = e.metrics();
        String[] l = {"model_name", e.config().modelName(), "engine", "0"};
        PromText p = new PromText();
        p.gauge("vllm:num_requests_running", "Number of requests in model execution batches.", e.numRunning(), l);
        p.gauge("vllm:num_requests_waiting", "Number of requests waiting to be processed.", e.numWaiting(), l);
        p.gauge("vllm:gpu_cache_usage_perc",
                "GPU KV-cache usage. 1 means 100 percent usage.DEPRECATED: Use vllm:kv_cache_usage_perc instead.",
                e.kvUsage(), l);
        p.counter("vllm:gpu_prefix_cache_queries_total",
                "GPU prefix cache queries, in terms of number of queriedtokens. DEPRECATED: Use vllm:prefix_cache_queries instead.",
                m.prefixQueries, l);
        p.counter("vllm:gpu_prefix_cache_hits_total",
                "GPU prefix cache hits, in terms of number of cached tokens. DEPRECATED: Use vllm:prefix_cache_hits instead.",
                m.prefixHits, l);
        p.gauge("vllm:kv_cache_usage_perc", "KV-cache usage. 1 means 100 percent usage.", e.kvUsage(), l);
        p.counter("vllm:prefix_cache_queries_total", "Prefix cache queries, in terms of number of queried tokens.",
                m.prefixQueries, l);
        p.counter("vllm:prefix_cache_hits_total", "Prefix cache hits, in terms of number of cached tokens.",
                m.prefixHits, l);
        p.counter("vllm:num_preemptions_total", "Cumulative number of preemption from the engine.", m.preemptions, l);
        p.counter("vllm:prompt_tokens_total", "Number of prefill tokens processed.", m.promptTokens, l);
        p.counter("vllm:generation_tokens_total", "Number of generation tokens processed.", m.generationTokens, l);
        p.header("vllm:request_success_total", "Count of successfully processed requests.", "counter");
        String[] reasons = {"stop", "length", "abort"};
        double[] counts = {m.finishedStop, m.finishedLength, m.aborted};
        for (int i = 0; i < reasons.length; i++) {
            p.sample("vllm:request_success_total", counts[i], "model_name", e.config().modelName(), "engine", "0",
                    "finished_reason", reasons[i]);
        }
        p.histogram("vllm:request_prompt_tokens", "Number of prefill tokens processed.", m.promptTokensPerRequest, l);
        p.histogram("vllm:request_generation_tokens", "Number of generation tokens processed.",
                m.generationTokensPerRequest, l);
        p.histogram("vllm:iteration_tokens_total", "Histogram of number of tokens per engine_step.", m.iterationTokens,
                l);
        p.histogram("vllm:request_params_max_tokens", "Histogram of the max_tokens request parameter.",
                m.maxTokensParam, l);
        p.histogram("vllm:time_to_first_token_seconds", "Histogram of time to first token in seconds.",
                m.timeToFirstToken, l);
        p.histogram("vllm:time_per_output_token_seconds", "Histogram of time per output token in seconds.",
                m.interTokenLatency, l);
        p.histogram("vllm:inter_token_latency_seconds", "Histogram of inter-token latency in seconds.",
                m.interTokenLatency, l);
        p.histogram("vllm:e2e_request_latency_seconds", "Histogram of e2e request latency in seconds.", m.e2eLatency,
                l);
        p.histogram("vllm:request_queue_time_seconds", "Histogram of time spent in WAITING phase for request.",
                m.queueTime, l);
        p.histogram("vllm:request_inference_time_seconds", "Histogram of time spent in RUNNING phase for request.",
                m.inferenceTime, l);
        p.histogram("vllm:request_prefill_time_seconds", "Histogram of time spent in PREFILL phase for request.",
                m.prefillTime, l);
        p.histogram("vllm:request_decode_time_seconds", "Histogram of time spent in DECODE phase for request.",
                m.decodeTime, l);
        if (!m.loraInfo.isEmpty()) {
            p.header("vllm:lora_requests_info", "Running stats on lora requests.", "gauge");
            String maxLora = Integer.toString(e.config().maxLoras());
            m.loraInfo.forEach((key, unixSeconds) -> {
                int bar = key.indexOf('|');
                p.sample("vllm:lora_requests_info", unixSeconds, "max_lora", maxLora, "running_lora_adapters",
                        key.substring(0, bar), "waiting_lora_adapters", key.substring(bar + 1));
            });
        }
        p.gauge("vllm:cache_config_info", "Information of the LLMEngine CacheConfig", 1.0,
                "block_size", Integer.toString(e.config().blockSize()), "cache_dtype", "auto",
                "enable_prefix_caching", "True", "engine", "0", "gpu_memory_utilization", "0.9",
                "num_gpu_blocks", Integer.toString(e.config().numGpuBlocks()));
        return p.toString();
    }
}
