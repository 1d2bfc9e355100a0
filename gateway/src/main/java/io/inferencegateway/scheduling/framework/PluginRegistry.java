package io.inferencegateway.scheduling.framework;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Plugin type name → {@link PluginType}: what a config may name. Immutable. */
public final class PluginRegistry {

    private final Map<String, PluginType<?>> types = new LinkedHashMap<>();

    public PluginRegistry(List<PluginType<?>> types) {
        for (PluginType<?> t : types) {
            if (this.types.putIfAbsent(t.name(), t) != null) {
                throw new IllegalArgumentException("plugin type '" + t.name() + "' is registered twice");
            }
        }
    }

    /** The type of that name, or null when none is registered. */
    public PluginType<?> type(String name) {
        return types.get(name);
    }

    /** Every registered type, in registration order. */
    public List<PluginType<?>> types() {
        return List.copyOf(types.values());
    }
}
