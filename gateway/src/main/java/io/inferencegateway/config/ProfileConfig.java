package io.inferencegateway.config;

import java.util.List;
import java.util.Objects;

/**
 * A validated scheduling profile: which plugins run, in which order, and each scorer's weight. It holds
 * exactly one picker.
 *
 * @param plugins in the order written: filters run in this order; scorers are summed
 */
public record ProfileConfig(String name, List<ProfileEntry> plugins) {

    /**
     * @param pluginRef the name of one of the pool's plugins
     * @param weight    what the scorer's [0,1] score is multiplied by (0 leaves the scorer out); 0 for
     *                  filters and pickers, which have no weight
     */
    public record ProfileEntry(String pluginRef, double weight) {
        public ProfileEntry {
            Objects.requireNonNull(pluginRef, "pluginRef");
        }
    }

    public ProfileConfig {
        Objects.requireNonNull(name, "name");
        plugins = List.copyOf(plugins);
    }
}
