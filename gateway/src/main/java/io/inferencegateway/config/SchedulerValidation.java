package io.inferencegateway.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

import io.inferencegateway.config.InferenceGatewayConfig.Scheduler;
import io.inferencegateway.domain.Endpoint;

/**
 * Validates one {@code spec.schedulers} entry into a {@link PoolConfig}: the pool's own fields (its names, what serves
 * it, its engine and policy, its scheduler in either form, its timings), and each of its sections by that section's
 * validator.
 */
final class SchedulerValidation {

    private SchedulerValidation() {
    }

    /**
     * @param at     the entry's path, e.g. {@code spec.schedulers[0]}
     * @param global {@code spec.global}, whose clusters and providers serve a pool without pods
     */
    static PoolConfig scheduler(String at, Scheduler s, GlobalConfig global) throws InvalidConfigException {
        if (s == null) {
            throw new InvalidConfigException(at + " must not be empty");
        }
        String modelName = ConfigChecks.required(s.modelName(), at + ".modelName");
        String name = s.name() == null ? modelName : ConfigChecks.required(s.name(), at + ".name");

        List<String> adapters = s.loraAdapters() == null ? List.of() : s.loraAdapters();
        for (int a = 0; a < adapters.size(); a++) {
            ConfigChecks.required(adapters.get(a), at + ".loraAdapters[" + a + "]");
        }

        List<Endpoint> endpoints = new ArrayList<>();
        List<String> rawEndpoints = s.endpoints() == null ? List.of() : s.endpoints();
        for (int e = 0; e < rawEndpoints.size(); e++) {
            try {
                endpoints.add(Endpoint.parse(rawEndpoints.get(e)));
            } catch (IllegalArgumentException ex) {
                throw new InvalidConfigException(at + ".endpoints[" + e + "] " + ex.getMessage());
            }
        }

        Map<String, String> selector = s.modelSelector() == null || s.modelSelector().matchLabels() == null
                ? Map.of() : s.modelSelector().matchLabels();
        if (s.modelSelector() != null && selector.isEmpty()) {
            throw new InvalidConfigException(at + ".modelSelector.matchLabels must name at least one label");
        }
        List<TargetConfig> targets = targets(at, s, global, modelName, !endpoints.isEmpty() || !selector.isEmpty());
        for (TargetConfig t : targets) {
            endpoints.add(t.address());
        }

        int targetPort = s.targetPort() == null ? PoolConfig.DEFAULT_TARGET_PORT : s.targetPort();
        if (targetPort < 1 || targetPort > 65535) {
            throw new InvalidConfigException(at + ".targetPort must be 1..65535, got " + targetPort);
        }

        String engine = targets.isEmpty() ? PoolConfig.DEFAULT_ENGINE : PoolConfig.GATEWAY_ENGINE;
        if (s.engineType() != null) {
            engine = s.engineType();
            List<String> engines = InstalledEngines.INSTANCE.names();
            if (!engines.contains(engine)) {
                throw new InvalidConfigException(at + ".engineType must be one of " + String.join(", ", engines)
                        + "; got '" + s.engineType() + "'");
            }
        }

        Policy policy = Policy.GPU_AWARE;
        if (s.policy() != null) {
            policy = Policy.fromConfigName(s.policy());
            if (policy == null) {
                throw new InvalidConfigException(at + ".policy must be one of gpu-aware, round-robin, least-request, "
                        + "random; got '" + s.policy() + "'");
            }
        }

        EndpointPickerConfig endpointPicker = endpointPicker(at, s, !targets.isEmpty());

        Duration routeTimeout = ConfigChecks.duration(s.routeTimeout(), at + ".routeTimeout",
                PoolConfig.DEFAULT_ROUTE_TIMEOUT);
        Duration metricsInterval = ConfigChecks.duration(s.metricsInterval(), at + ".metricsInterval",
                targets.isEmpty() ? PoolConfig.DEFAULT_METRICS_INTERVAL : global.summaryInterval(),
                ConfigChecks.MIN_POLL_INTERVAL, ConfigChecks.MAX_POLL_INTERVAL);
        ReplicaConfig replicas = ReplicaValidation.replicas(at + ".replicas", s.replicas());
        Duration scrapeInterval = replicas.scrapeInterval(metricsInterval);
        Duration staleness = ConfigChecks.duration(s.metricsStalenessThreshold(), at + ".metricsStalenessThreshold",
                PoolConfig.defaultStalenessThreshold(scrapeInterval));
        if (staleness.compareTo(scrapeInterval) < 0) {
            throw new InvalidConfigException(at + ".metricsStalenessThreshold must be at least "
                    + (scrapeInterval.equals(metricsInterval) ? "metricsInterval ("
                            : "metricsInterval × replicas.count (")
                    + Durations.format(scrapeInterval) + "), got '" + s.metricsStalenessThreshold()
                    + "': metrics would go stale between two scrapes");
        }

        return PoolConfig.builder(modelName).name(name).loraAdapters(adapters).endpoints(endpoints)
                .modelSelector(selector).namespace(s.namespace()).targetPort(targetPort).engine(engine).policy(policy)
                .endpointPicker(endpointPicker).routeTimeout(routeTimeout).metricsInterval(metricsInterval)
                .metricsStalenessThreshold(staleness).streamUsage(Boolean.TRUE.equals(s.streamUsage()))
                .failover(FailoverValidation.failover(at + ".failover", s.failover()))
                .outlierDetection(OutlierValidation.outlierDetection(at + ".outlierDetection", s.outlierDetection()))
                .flowControl(FlowControlValidation.flowControl(at + ".flowControl", s.flowControl(), modelName,
                        adapters))
                .slo(SloValidation.slo(at + ".slo", s.slo(), modelName, adapters))
                .replicas(replicas).targets(targets).homeRegion(targets.isEmpty() ? null : global.region())
                .shadow(ShadowValidation.shadow(at + ".shadow", s.shadow()))
                .sessionAffinity(SessionAffinityValidation.validate(at + ".sessionAffinity", s.sessionAffinity(),
                        policy == Policy.GPU_AWARE && targets.isEmpty(), !targets.isEmpty()
                                ? "this pool is served by the global tier's clusters and providers"
                                : "this pool's policy is " + s.policy(), endpointPicker))
                .tokenizer(TokenizerValidation.tokenizer(at + ".tokenizer", s.tokenizer(), !targets.isEmpty()))
                .build();
    }

    /**
     * The global tier's clusters and providers that serve a pool without pods ({@code ofPods} false); none for a pool
     * of pods. A pool is served one way or the other, never both, and never by neither.
     */
    private static List<TargetConfig> targets(String at, Scheduler s, GlobalConfig global, String modelName,
            boolean ofPods) throws InvalidConfigException {
        if (s.targets() != null && !global.enabled()) {
            throw new InvalidConfigException(at + ".targets names clusters or providers, which spec.global declares; "
                    + "there is no spec.global");
        }
        if (ofPods && s.targets() != null) {
            throw new InvalidConfigException(at + " sets both targets and endpoints/modelSelector: a pool is served "
                    + "either by pods or by the global tier's clusters and providers");
        }
        if (!ofPods && !global.enabled()) {
            throw new InvalidConfigException(at + " needs endpoints (host:port list) or a modelSelector");
        }
        if (ofPods) {
            return List.of();
        }
        if (s.engineType() != null) {
            throw new InvalidConfigException(at + ".engineType does not apply to a pool of clusters and providers "
                    + "(they publish the gateway's capacity summary)");
        }
        List<TargetConfig> targets = GlobalValidation.poolTargets(at, s.targets(), global, modelName);
        if (targets.isEmpty()) {
            throw new InvalidConfigException(at + " is served by no cluster or provider of spec.global (no "
                    + "provider's models map '" + modelName + "')");
        }
        return targets;
    }

    /**
     * The pool's scheduler, in one of its two forms: the plugin form ({@link EndpointPickerValidation}), or the weights
     * shorthand of its kind of pool ({@link Weights} over a {@code profile} preset for pods, {@link GlobalWeights} for
     * clusters and providers). A pool of clusters and providers brings its residency filter itself (the scheduler puts
     * one first when the profile names none).
     */
    private static EndpointPickerConfig endpointPicker(String at, Scheduler s, boolean ofTargets)
            throws InvalidConfigException {
        EndpointPickerConfig endpointPicker;
        if (s.plugins() != null || s.schedulingProfiles() != null) {
            if (s.weights() != null || s.profile() != null) {
                throw new InvalidConfigException(at + " sets both weights/profile and plugins/schedulingProfiles; "
                        + "they are two ways to configure the same scheduler: use one");
            }
            if (s.picker() != null) {
                throw new InvalidConfigException(at + ".picker belongs to the weights form; the plugin form names its "
                        + "picker among its plugins (e.g. predicted-time-picker)");
            }
            endpointPicker = EndpointPickerValidation.validate(at, s.plugins(), s.schedulingProfiles(),
                    InstalledCatalog.INSTANCE);
        } else if (ofTargets) {
            if (s.profile() != null) {
                throw new InvalidConfigException(at + ".profile selects weights for a pool of pods ("
                        + String.join(", ", Weights.PROFILES) + "); a pool of clusters and providers takes its weights "
                        + "alone");
            }
            if (s.picker() != null) {
                throw new InvalidConfigException(at + ".picker applies to a pool of pods; a pool of clusters and "
                        + "providers picks the highest score");
            }
            endpointPicker = GlobalWeights.SHORTHAND.endpointPicker(GlobalWeights.SHORTHAND.read(at + ".weights",
                    GlobalWeights.SHORTHAND.defaults(), s.weights(), Weights.SHORTHAND));
        } else {
            Weights preset = Weights.forProfile(s.profile());
            if (preset == null) {
                throw new InvalidConfigException(at + ".profile must be one of " + String.join(", ", Weights.PROFILES)
                        + "; got '" + s.profile() + "'");
            }
            if (s.picker() != null && !Weights.PICKERS.contains(s.picker())) {
                throw new InvalidConfigException(at + ".picker must be one of " + String.join(", ", Weights.PICKERS)
                        + "; got '" + s.picker() + "'");
            }
            Weights weights = Weights.of(Weights.SHORTHAND.read(at + ".weights", preset.asMap(), s.weights(),
                    GlobalWeights.SHORTHAND));
            endpointPicker = s.picker() == null ? weights.endpointPicker() : weights.endpointPicker(s.picker());
        }
        return endpointPicker;
    }

    /** The scheduler's plugin catalog, found once (see {@link PluginCatalog}). */
    private static final class InstalledCatalog {
        static final PluginCatalog INSTANCE = ServiceLoader
                .load(PluginCatalog.class, PluginCatalog.class.getClassLoader())
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no " + PluginCatalog.class.getName()
                        + " service on the classpath: the scheduling plugins are missing"));
    }

    /** The engines the metrics code reads, found once (see {@link EngineCatalog}). */
    private static final class InstalledEngines {
        static final EngineCatalog INSTANCE = ServiceLoader
                .load(EngineCatalog.class, EngineCatalog.class.getClassLoader())
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no " + EngineCatalog.class.getName()
                        + " service on the classpath: the engine dialects are missing"));
    }
}
