package io.inferencegateway.config;

import java.util.List;

/**
 * How a pool's GPU-aware scheduler is put together, in the shape of the Gateway API Inference Extension's
 * {@code EndpointPickerConfig}: the plugin instances with their parameters, and the profile that orders
 * and weighs them. Both config forms end here: the {@code plugins}/{@code schedulingProfiles} form as
 * written, and HyperPod's {@code weights}/{@code profile} through {@link Weights#endpointPicker()}.
 *
 * @param plugins        the profile's plugins
 * @param profileHandler the plugin that chooses which profiles run for a request, or null for the default (the one
 *                       profile, once)
 */
public record EndpointPickerConfig(List<PluginConfig> plugins, ProfileConfig profile, PluginConfig profileHandler) {

    /** The picker a profile gets when it names none. */
    public static final String DEFAULT_PICKER = "max-score-picker";

    /**
     * The largest scorer weight, in either form. Weights are relative and the presets stay under 10; at 1000 one scorer
     * already outvotes all the others together, so more is a typo, not a wish.
     */
    static final int MAX_WEIGHT = 1000;

    public EndpointPickerConfig {
        plugins = List.copyOf(plugins);
    }

    /** The plugins and one profile of them, with the default profile handler (one profile, run once). */
    public EndpointPickerConfig(List<PluginConfig> plugins, ProfileConfig profile) {
        this(plugins, profile, null);
    }

    /** The plugin of that name; null when there is none. */
    public PluginConfig plugin(String name) {
        for (PluginConfig p : plugins) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        return null;
    }
}
