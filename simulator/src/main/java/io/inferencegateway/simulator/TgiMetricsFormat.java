package io.inferencegateway.simulator;

/**
 * Text Generation Inference's /metrics (Rust metrics-exporter-prometheus): no labels, counters
 * without the {@code _total} suffix, durations in 35 geometric buckets from 0.00015 s.
 */
final class TgiMetricsFormat {

    static final double[] DURATION_BUCKETS = Histogram.geometric(0.0001, 1.5, 35);

    private TgiMetricsFormat() {
    }

    static double[] lengthBuckets(int maxLen) {
        double[] b = new double[100];
        for (int x = 0; x < 100; x++) {
            b[x] = (maxLen / 100.0) * (x + 1);
        }
        return b;
    }

    static String render(EngineCore e, long nowNanos) {
        EngineMetrics m = e.metrics();
        PromText p = new PromText();
        p.gauge("tgi_queue_size", "Current queue size", e.numWaiting());
        p.gauge("tgi_batch_current_size", "Current batch size", e.numRunning());
        p.gauge("tgi_batch_current_max_tokens", "Maximum tokens for the current batch", e.usedKvTokens());
        p.counter("tgi_request_count", "Total number of requests", m.requestsReceived);
        p.counter("tgi_request_success", "Number of successful requests", m.finishedLength + m.finishedStop);
        p.header("tgi_request_failure", "Number of failed requests", "counter");
        p.sample("tgi_request_failure", m.aborted, "err", "cancelled");
        p.histogram("tgi_request_duration", "Total time spent processing the request (e2e latency)", m.e2eLatency);
        p.histogram("tgi_request_queue_duration", "Time spent in the queue per request", m.queueTime);
        p.histogram("tgi_request_inference_duration", "Request inference duration", m.inferenceTime);
        p.histogram("tgi_request_mean_time_per_token_duration", "Mean time per token per request",
                m.interTokenLatency);
        p.histogram("tgi_request_input_length", "Input token length per request", m.promptTokensPerRequest);
        p.histogram("tgi_request_generated_tokens", "Generated tokens per request", m.generationTokensPerRequest);
        return p.toString();
    }
}
