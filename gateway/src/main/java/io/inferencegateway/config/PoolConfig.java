package io.inferencegateway.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.inferencegateway.domain.Endpoint;

/**
 * One validated scheduler entry: a model pool.
 *
 * @param endpoints                 static endpoints (the local default when there is no Kubernetes)
 * @param modelSelector             pod labels that select this pool's pods on Kubernetes; empty when static
 * @param engine                    the model-server engine's config name ({@code engineType}, e.g. {@code vllm}),
 *                                  which decides the metric names the gateway reads
 * @param endpointPicker            the GPU-aware policy's plugins and profile, from either config form
 * @param routeTimeout              longest wait for the model server's response headers, and for any gap
 *                                  between body chunks after that
 * @param metricsStalenessThreshold metrics older than this are stale: such a pod counts as saturated, and
 *                                  when every pod's are, the GPU-aware policy routes by in-flight counts
 * @param streamUsage               ask the model server for {@code stream_options.include_usage} on every chat or
 *                                  completion stream, so that its tokens are counted, and strip the usage chunk
 *                                  again when the client did not ask for it
 * @param flowControl               how requests wait in the gateway while every pod is saturated
 * @param slo                       the latency targets of requests that name none (docs/slo.md)
 * @param replicas                  the other active gateway replicas of this pool, and how they agree on placement
 * @param targets                   at a global tier, the clusters and providers whose addresses are the pool's
 *                                  endpoints (docs/global.md); empty for a pool of pods
 * @param homeRegion                at a global tier, its home region (where standard traffic stays while it can be
 *                                  served there in time); null for a pool of pods
 * @param shadow                    the share of the pool's requests copied to a candidate model (docs/shadow.md);
 *                                  {@link ShadowConfig#OFF} when none is
 * @param sessionAffinity           which requests form one conversation, kept on one pod while it has room
 *                                  (docs/sessions.md); off for other policies and a global tier's pool
 * @param tokenizer                 the model's tokenizer, for exact prompt tokens (docs/tokenization.md); null for the
 *                                  estimate of about 4 characters a token
 */
public record PoolConfig(
        String name,
        String modelName,
        List<String> loraAdapters,
        List<Endpoint> endpoints,
        Map<String, String> modelSelector,
        String namespace,
        int targetPort,
        String engine,
        Policy policy,
        EndpointPickerConfig endpointPicker,
        Duration routeTimeout,
        Duration metricsInterval,
        Duration metricsStalenessThreshold,
        boolean streamUsage,
        FailoverConfig failover,
        OutlierConfig outlierDetection,
        FlowControlConfig flowControl,
        SloConfig slo,
        ReplicaConfig replicas,
        List<TargetConfig> targets,
        String homeRegion,
        ShadowConfig shadow,
        SessionAffinityConfig sessionAffinity,
        TokenizerConfig tokenizer) {

    public static final int DEFAULT_TARGET_PORT = 8000;
    public static final String DEFAULT_ENGINE = "vllm";
    /** What a global tier's pool reads from its clusters: the gateway's own capacity summary. */
    public static final String GATEWAY_ENGINE = "inference-gateway";
    public static final Duration DEFAULT_ROUTE_TIMEOUT = Duration.ofSeconds(300);
    public static final Duration DEFAULT_METRICS_INTERVAL = Duration.ofMillis(50);
    /** The least default staleness threshold; see {@link #defaultStalenessThreshold}. */
    public static final Duration MIN_DEFAULT_STALENESS = Duration.ofMillis(200);

    public PoolConfig {
        loraAdapters = List.copyOf(loraAdapters);
        endpoints = List.copyOf(endpoints);
        modelSelector = Map.copyOf(modelSelector);
        failover = failover == null ? FailoverConfig.DEFAULT : failover;
        outlierDetection = outlierDetection == null ? OutlierConfig.DEFAULT : outlierDetection;
        flowControl = flowControl == null ? FlowControlConfig.DEFAULT : flowControl;
        replicas = replicas == null ? ReplicaConfig.SINGLE : replicas;
        slo = slo == null ? SloConfig.NONE : slo;
        targets = targets == null ? List.of() : List.copyOf(targets);
        shadow = shadow == null ? ShadowConfig.OFF : shadow;
        sessionAffinity = sessionAffinity == null ? SessionAffinityConfig.OFF : sessionAffinity;
    }

    /** The cluster or provider at {@code address}, or null (a pod, or a target no longer configured). */
    public TargetConfig target(Endpoint address) {
        for (TargetConfig t : targets) {
            if (t.address().equals(address)) {
                return t;
            }
        }
        return null;
    }

    /** Whether a global tier's clusters and providers serve this pool, rather than pods. */
    public boolean global() {
        return !targets.isEmpty();
    }

    /** A builder for the pool serving {@code modelName}, every other field at the loader's default. */
    public static PoolConfigBuilder builder(String modelName) {
        return new PoolConfigBuilder(modelName);
    }

    /** How often this replica scrapes the pool's pods: {@code metricsInterval}, or spread over the replicas. */
    public Duration scrapeInterval() {
        return replicas.scrapeInterval(metricsInterval);
    }

    /**
     * 200 ms or four scrape intervals, whichever is longer, so that a pool scraped every second is not
     * permanently stale.
     */
    public static Duration defaultStalenessThreshold(Duration metricsInterval) {
        Duration fourScrapes = metricsInterval.multipliedBy(4);
        return fourScrapes.compareTo(MIN_DEFAULT_STALENESS) > 0 ? fourScrapes : MIN_DEFAULT_STALENESS;
    }
}
