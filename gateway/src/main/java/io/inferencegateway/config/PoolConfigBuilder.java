package io.inferencegateway.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.inferencegateway.domain.Endpoint;

/**
 * Builds a {@link PoolConfig} by naming its fields; start with {@link PoolConfig#builder(String)}. Every field left
 * unset takes the value {@link ConfigLoader} gives a scheduler entry that omits it, so a pool built here with a model
 * name and endpoints equals the one the loader makes of {@code {modelName: m, endpoints: [...]}}.
 */
public final class PoolConfigBuilder {

    private final String modelName;
    private String name;
    private List<String> loraAdapters = List.of();
    private List<Endpoint> endpoints = List.of();
    private Map<String, String> modelSelector = Map.of();
    private String namespace;
    private int targetPort = PoolConfig.DEFAULT_TARGET_PORT;
    private String engine = PoolConfig.DEFAULT_ENGINE;
    private Policy policy = Policy.GPU_AWARE;
    private EndpointPickerConfig endpointPicker; // null: the default for pods, or for targets
    private Duration routeTimeout = PoolConfig.DEFAULT_ROUTE_TIMEOUT;
    private Duration metricsInterval = PoolConfig.DEFAULT_METRICS_INTERVAL;
    private Duration metricsStalenessThreshold;
    private boolean streamUsage;
    private FailoverConfig failover = FailoverConfig.DEFAULT;
    private OutlierConfig outlierDetection = OutlierConfig.DEFAULT;
    private FlowControlConfig flowControl = FlowControlConfig.DEFAULT;
    private SloConfig slo = SloConfig.NONE;
    private ReplicaConfig replicas = ReplicaConfig.SINGLE;
    private List<TargetConfig> targets = List.of();
    private String homeRegion;
    private ShadowConfig shadow = ShadowConfig.OFF;
    private TokenizerConfig tokenizer;
    private SessionAffinityConfig sessionAffinity; // null: on for a GPU-aware pool of pods, else off

    PoolConfigBuilder(String modelName) {
        this.modelName = modelName;
    }

    /** The pool's name; the model name when unset. */
    public PoolConfigBuilder name(String name) {
        this.name = name;
        return this;
    }

    public PoolConfigBuilder loraAdapters(List<String> loraAdapters) {
        this.loraAdapters = loraAdapters;
        return this;
    }

    public PoolConfigBuilder endpoints(List<Endpoint> endpoints) {
        this.endpoints = endpoints;
        return this;
    }

    public PoolConfigBuilder modelSelector(Map<String, String> modelSelector) {
        this.modelSelector = modelSelector;
        return this;
    }

    public PoolConfigBuilder namespace(String namespace) {
        this.namespace = namespace;
        return this;
    }

    public PoolConfigBuilder targetPort(int targetPort) {
        this.targetPort = targetPort;
        return this;
    }

    /** The engine's config name, e.g. {@code sglang}. */
    public PoolConfigBuilder engine(String engine) {
        this.engine = engine;
        return this;
    }

    public PoolConfigBuilder policy(Policy policy) {
        this.policy = policy;
        return this;
    }

    /** The GPU-aware scheduler in HyperPod's form; the same as {@code endpointPicker(weights.endpointPicker())}. */
    public PoolConfigBuilder weights(Weights weights) {
        return endpointPicker(weights.endpointPicker());
    }

    public PoolConfigBuilder endpointPicker(EndpointPickerConfig endpointPicker) {
        this.endpointPicker = endpointPicker;
        return this;
    }

    public PoolConfigBuilder routeTimeout(Duration routeTimeout) {
        this.routeTimeout = routeTimeout;
        return this;
    }

    public PoolConfigBuilder metricsInterval(Duration metricsInterval) {
        this.metricsInterval = metricsInterval;
        return this;
    }

    /** When unset, {@link PoolConfig#defaultStalenessThreshold} of the interval this replica scrapes at. */
    public PoolConfigBuilder metricsStalenessThreshold(Duration metricsStalenessThreshold) {
        this.metricsStalenessThreshold = metricsStalenessThreshold;
        return this;
    }

    public PoolConfigBuilder streamUsage(boolean streamUsage) {
        this.streamUsage = streamUsage;
        return this;
    }

    public PoolConfigBuilder failover(FailoverConfig failover) {
        this.failover = failover;
        return this;
    }

    public PoolConfigBuilder outlierDetection(OutlierConfig outlierDetection) {
        this.outlierDetection = outlierDetection;
        return this;
    }

    public PoolConfigBuilder flowControl(FlowControlConfig flowControl) {
        this.flowControl = flowControl;
        return this;
    }

    public PoolConfigBuilder slo(SloConfig slo) {
        this.slo = slo;
        return this;
    }

    public PoolConfigBuilder replicas(ReplicaConfig replicas) {
        this.replicas = replicas;
        return this;
    }

    /** A global tier's clusters and providers; give their addresses as the endpoints too. */
    public PoolConfigBuilder targets(List<TargetConfig> targets) {
        this.targets = targets;
        return this;
    }

    /** At a global tier, the home region; see {@link PoolConfig#homeRegion()}. */
    public PoolConfigBuilder homeRegion(String homeRegion) {
        this.homeRegion = homeRegion;
        return this;
    }

    /** The model's tokenizer; see {@link PoolConfig#tokenizer()}. */
    public PoolConfigBuilder tokenizer(TokenizerConfig tokenizer) {
        this.tokenizer = tokenizer;
        return this;
    }

    /** The share of the pool's requests copied to a candidate model; see {@link PoolConfig#shadow()}. */
    public PoolConfigBuilder shadow(ShadowConfig shadow) {
        this.shadow = shadow;
        return this;
    }

    /** When unset: {@link SessionAffinityConfig#DEFAULT} for a GPU-aware pool of pods, else off. */
    public PoolConfigBuilder sessionAffinity(SessionAffinityConfig sessionAffinity) {
        this.sessionAffinity = sessionAffinity;
        return this;
    }

    /** Without an endpoint picker set: the default weights for pods, or {@link GlobalWeights#DEFAULT} for targets. */
    public PoolConfig build() {
        Duration staleness = metricsStalenessThreshold != null ? metricsStalenessThreshold
                : PoolConfig.defaultStalenessThreshold(replicas.scrapeInterval(metricsInterval));
        return new PoolConfig(name == null ? modelName : name, modelName, loraAdapters, endpoints, modelSelector,
                namespace, targetPort, engine, policy, endpointPicker != null ? endpointPicker
                        : targets.isEmpty() ? Weights.DEFAULT.endpointPicker() : GlobalWeights.DEFAULT.endpointPicker(),
                routeTimeout, metricsInterval, staleness,
                streamUsage, failover, outlierDetection, flowControl, slo, replicas, targets, homeRegion, shadow,
                sessionAffinity != null ? sessionAffinity
                        : policy == Policy.GPU_AWARE && targets.isEmpty() ? SessionAffinityConfig.DEFAULT
                        : SessionAffinityConfig.OFF, tokenizer);
    }
}
