package io.inferencegateway.config;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What a valid config will do, in a few lines a person reads in CI output: each pool with its model, where its pods
 * come from, its policy and, for a pool scheduled by plugins, its profiles (filters in order, scorers with weights,
 * the picker); then the tier-wide parts that are on (tenants, model rewrites, a global tier).
 */
public final class ConfigSummary {

    private ConfigSummary() {
    }

    /** The summary's lines, one pool after another. */
    public static List<String> lines(GatewayConfig config) {
        List<String> lines = new ArrayList<>();
        for (PoolConfig pool : config.pools()) {
            lines.add("pool " + pool.name() + ": model " + pool.modelName() + adapters(pool) + ", " + pods(pool)
                    + ", policy " + pool.policy().configName() + features(pool));
            EndpointPickerConfig picker = pool.endpointPicker();
            if (pool.policy() == Policy.GPU_AWARE && picker != null) {
                lines.add("  profile " + picker.profile().name() + ": " + picker.profile().plugins().stream()
                        .map(e -> entry(picker, e)).collect(Collectors.joining(", ")));
            }
            if (!pool.targets().isEmpty()) {
                lines.add("  targets: " + pool.targets().stream().map(TargetConfig::name)
                        .collect(Collectors.joining(", ")));
            }
        }
        List<String> tier = new ArrayList<>();
        if (!config.tenants().isEmpty()) {
            tier.add(config.tenants().size() + " tenants");
        }
        if (!config.modelRewrites().isEmpty()) {
            tier.add(config.modelRewrites().size() + " model rewrites");
        }
        if (config.global().enabled()) {
            tier.add("a global tier");
        }
        if (!tier.isEmpty()) {
            lines.add("also: " + String.join(", ", tier));
        }
        return lines;
    }

    private static String adapters(PoolConfig pool) {
        return pool.loraAdapters().isEmpty() ? "" : " (+" + pool.loraAdapters().size() + " LoRA adapters)";
    }

    private static String pods(PoolConfig pool) {
        if (!pool.endpoints().isEmpty()) {
            return pool.endpoints().size() + (pool.endpoints().size() == 1 ? " endpoint" : " endpoints");
        }
        if (!pool.targets().isEmpty()) {
            return pool.targets().size() + " targets";
        }
        return "pods labelled " + pool.modelSelector() + (pool.namespace() == null ? "" : " in " + pool.namespace())
                + " on port " + pool.targetPort() + " (" + pool.engine() + ")";
    }

    private static String features(PoolConfig pool) {
        List<String> on = new ArrayList<>();
        if (pool.flowControl().enabled()) {
            on.add("flow control");
        }
        if (pool.sessionAffinity().enabled()) {
            on.add("session affinity");
        }
        if (!pool.slo().equals(SloConfig.NONE)) {
            on.add("latency targets");
        }
        if (pool.replicas().count() > 1) {
            on.add(pool.replicas().count() + " replicas");
        }
        return on.isEmpty() ? "" : "; " + String.join(", ", on);
    }

    private static String entry(EndpointPickerConfig picker, ProfileConfig.ProfileEntry e) {
        PluginConfig plugin = picker.plugin(e.pluginRef());
        String type = plugin == null ? e.pluginRef() : plugin.type();
        if (e.weight() == 0) {
            return type;
        }
        double w = e.weight();
        return type + " ×" + (w == Math.rint(w) ? Long.toString((long) w) : Double.toString(w));
    }
}
