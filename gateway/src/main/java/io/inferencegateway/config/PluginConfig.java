package io.inferencegateway.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One validated plugin instance of a pool's scheduler.
 *
 * @param name       unique within the pool; what profiles refer to (defaults to the type)
 * @param type       a registered plugin type, e.g. {@code prefix-cache-scorer}
 * @param parameters the plugin's own parameters as written (checked by the plugin's factory); empty for defaults
 */
public record PluginConfig(String name, String type, Map<String, Object> parameters) {

    public PluginConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters)); // keeps the order written
    }

    public static PluginConfig of(String type) {
        return new PluginConfig(type, type, Map.of());
    }
}
