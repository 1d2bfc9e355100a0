package io.inferencegateway.simulator;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Which engine's /metrics the pod imitates: vLLM (default), SGLang, TGI, TensorRT-LLM or llama.cpp. The
 * engine underneath is the same vLLM-like scheduler; only names, labels and buckets differ.
 */
public enum MetricsDialect {
    VLLM(VllmMetricsFormat::render, "/metrics"),
    SGLANG(SglangMetricsFormat::render, "/metrics"),
    TGI(TgiMetricsFormat::render, "/metrics"),
    // trtllm-serve publishes Prometheus text under /prometheus/metrics (its /metrics is JSON iteration stats)
    TRTLLM(TrtllmMetricsFormat::render, "/prometheus/metrics"),
    LLAMACPP(LlamaCppMetricsFormat::render, "/metrics");

    /** Histogram bounds of one dialect. */
    public record Buckets(double[] timeToFirstToken, double[] interToken, double[] requestLatency,
                          double[] tokenCounts) {
    }

    interface Renderer {
        String render(EngineCore engine, long nowNanos);
    }

    private final Renderer renderer;
    private final String path;

    MetricsDialect(Renderer renderer, String path) {
        this.renderer = renderer;
        this.path = path;
    }

    /** The HTTP path the engine serves its Prometheus exposition on. */
    public String path() {
        return path;
    }

    /** The /metrics body for the engine's current state. Call on the engine's thread. */
    public String render(EngineCore engine, long nowNanos) {
        return renderer.render(engine, nowNanos);
    }

    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static MetricsDialect fromCliName(String name) {
        for (MetricsDialect d : values()) {
            if (d.cliName().equals(name)) {
                return d;
            }
        }
        throw new IllegalArgumentException("unknown engine '" + name + "' ("
                + Arrays.stream(values()).map(MetricsDialect::cliName).collect(Collectors.joining(", ")) + ")");
    }

    Buckets buckets(int maxModelLen) {
        return switch (this) {
            // llama.cpp publishes no histograms; the pod still keeps its latency statistics
            case VLLM, TRTLLM, LLAMACPP -> new Buckets(VllmMetricsFormat.TTFT_BUCKETS, VllmMetricsFormat.ITL_BUCKETS,
                    VllmMetricsFormat.REQUEST_LATENCY_BUCKETS, Histogram.oneTwoFive(maxModelLen));
            case SGLANG -> new Buckets(SglangMetricsFormat.TTFT_BUCKETS, SglangMetricsFormat.ITL_BUCKETS,
                    SglangMetricsFormat.E2E_BUCKETS, Histogram.oneTwoFive(maxModelLen));
            case TGI -> new Buckets(TgiMetricsFormat.DURATION_BUCKETS, TgiMetricsFormat.DURATION_BUCKETS,
                    TgiMetricsFormat.DURATION_BUCKETS, TgiMetricsFormat.lengthBuckets(maxModelLen));
        };
    }
}
