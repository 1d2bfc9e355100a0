package io.inferencegateway.config;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What config validation needs to know about the scheduling plugins: which types exist, the role of each,
 * and whether given parameters build one. The scheduler supplies it through {@link java.util.ServiceLoader}
 * (src/main/resources/META-INF/services/io.inferencegateway.config.PluginCatalog), so that config does not
 * depend on the scheduling code.
 */
public interface PluginCatalog {

    enum Role {
        FILTER, SCORER, PICKER,
        /** Chooses which profiles run for a request and which result is primary; in no profile itself. */
        PROFILE_HANDLER;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT).replace('_', ' ');
        }
    }

    /** Every registered plugin type, in registration order. */
    List<String> types();

    /** The role of plugins of this type; null when no such type is registered. */
    Role role(String type);

    /**
     * Checks that {@code parameters} build a plugin of this registered type.
     *
     * @param path where the parameters sit, e.g. {@code spec.schedulers[0].plugins[1].parameters}
     * @throws InvalidConfigException naming the offending parameter's path
     */
    void check(String type, Map<String, Object> parameters, String path) throws InvalidConfigException;
}
