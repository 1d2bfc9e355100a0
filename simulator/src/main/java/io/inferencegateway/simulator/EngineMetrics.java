package io.inferencegateway.simulator;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What an engine counts, the way the real engines count it: token and request counters and
 * latency histograms in simulated seconds. Bucket bounds come from the metrics dialect.
 */
public final class EngineMetrics {

    /** Keeps at most this many distinct LoRA label sets (vLLM keeps all; bounded memory here). */
    static final int MAX_LORA_SERIES = 1024;

    long promptTokens;
    long generationTokens;
    long preemptions;
    long prefixQueries;
    long prefixHits;
    long finishedLength;
    long finishedStop;
    long aborted;
    long requestsReceived;
    long prefillTokensComputed;
    long steps;
    /** Requests scheduled, summed over steps (llama.cpp's busy slots per decode is this over steps). */
    long scheduledSequences;
    /** The longest prompt plus output seen so far, in tokens. */
    long maxSequenceTokens;

    final Histogram timeToFirstToken;
    final Histogram interTokenLatency;
    final Histogram e2eLatency;
    final Histogram queueTime;
    final Histogram prefillTime;
    final Histogram decodeTime;
    final Histogram inferenceTime;
    final Histogram promptTokensPerRequest;
    final Histogram generationTokensPerRequest;
    final Histogram maxTokensParam;
    final Histogram iterationTokens;

    /** LoRA label set "running|waiting" → Unix time it was last seen, in insertion order. */
    final Map<String, Double> loraInfo = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Double> eldest) {
            return size() > MAX_LORA_SERIES;
        }
    };

    EngineMetrics(MetricsDialect.Buckets b) {
        timeToFirstToken = new Histogram(b.timeToFirstToken());
        interTokenLatency = new Histogram(b.interToken());
        e2eLatency = new Histogram(b.requestLatency());
        queueTime = new Histogram(b.requestLatency());
        prefillTime = new Histogram(b.requestLatency());
        decodeTime = new Histogram(b.requestLatency());
        inferenceTime = new Histogram(b.requestLatency());
        promptTokensPerRequest = new Histogram(b.tokenCounts());
        generationTokensPerRequest = new Histogram(b.tokenCounts());
        maxTokensParam = new Histogram(b.tokenCounts());
        iterationTokens = new Histogram(1, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384);
    }

    private long windowStartNanos = -1;
    private long windowStartTokens;
    private double recentThroughput;

    /** Generation throughput over windows of at least one simulated second (SGLang's gen_throughput). */
    void updateThroughput(long nowNanos) {
        if (windowStartNanos < 0) {
            windowStartNanos = nowNanos;
            windowStartTokens = generationTokens;
        } else if (nowNanos - windowStartNanos >= 1_000_000_000L) {
            recentThroughput = (generationTokens - windowStartTokens) * 1e9 / (nowNanos - windowStartNanos);
            windowStartNanos = nowNanos;
            windowStartTokens = generationTokens;
        }
    }

    public double recentGenerationThroughput() {
        return recentThroughput;
    }

    public long promptTokens() {
        return promptTokens;
    }

    public long generationTokens() {
        return generationTokens;
    }

    public long preemptions() {
        return preemptions;
    }

    public long prefixQueries() {
        return prefixQueries;
    }

    public long prefixHits() {
        return prefixHits;
    }

    /** Requests that ran to max_tokens. */
    public long finishedLength() {
        return finishedLength;
    }

    public long finishedStop() {
        return finishedStop;
    }

    /** Requests aborted, e.g. because the client disconnected. */
    public long aborted() {
        return aborted;
    }

    public long requestsReceived() {
        return requestsReceived;
    }

    /** Uncached prompt tokens computed (prefill work actually done). */
    public long prefillTokensComputed() {
        return prefillTokensComputed;
    }

    public long steps() {
        return steps;
    }

    public Histogram timeToFirstToken() {
        return timeToFirstToken;
    }

    public Histogram interTokenLatency() {
        return interTokenLatency;
    }

    public Histogram e2eLatency() {
        return e2eLatency;
    }

    public Histogram queueTime() {
        return queueTime;
    }

    public Histogram prefillTime() {
        return prefillTime;
    }

    public Histogram decodeTime() {
        return decodeTime;
    }

    public Histogram inferenceTime() {
        return inferenceTime;
    }

    public Histogram promptTokensPerRequest() {
        return promptTokensPerRequest;
    }

    public Histogram generationTokensPerRequest() {
        return generationTokensPerRequest;
    }

    public Histogram maxTokensParam() {
        return maxTokensParam;
    }

    public Histogram iterationTokens() {
        return iterationTokens;
    }

    /** LoRA label sets ("running|waiting") with the Unix time each was last recorded. */
    public Map<String, Double> loraInfo() {
        return new LinkedHashMap<>(loraInfo);
    }
}
