package io.inferencegateway.scheduling;

import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

import io.inferencegateway.config.InvalidConfigException;
import io.inferencegateway.config.PluginCatalog;
import io.inferencegateway.scheduling.framework.Filter;
import io.inferencegateway.scheduling.framework.InvalidPluginException;
import io.inferencegateway.scheduling.framework.Picker;
import io.inferencegateway.scheduling.framework.PluginContext;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.ProfileHandler;
import io.inferencegateway.scheduling.framework.Scorer;
import io.inferencegateway.scheduling.plugins.BuiltInPlugins;

/**
 * The built-in plugins as config validation sees them (a {@link java.util.ServiceLoader} service, listed in
 * src/main/resources/META-INF/services/io.inferencegateway.config.PluginCatalog). A check builds the plugin
 * once and drops it, so the parameters are judged by the very factory that will build it.
 */
public final class RegisteredPlugins implements PluginCatalog {

    /** Pickers built only to check their parameters never draw. */
    private static final RandomGenerator NO_DRAWS = () -> {
        throw new IllegalStateException("a plugin drew a random number while its parameters were checked");
    };

    @Override
    public List<String> types() {
        return BuiltInPlugins.REGISTRY.types().stream().map(PluginType::name).toList();
    }

    @Override
    public Role role(String type) {
        PluginType<?> t = BuiltInPlugins.REGISTRY.type(type);
        if (t == null) {
            return null;
        }
        if (t.role() == Filter.class) {
            return Role.FILTER;
        }
        if (t.role() == Scorer.class) {
            return Role.SCORER;
        }
        if (t.role() == Picker.class) {
            return Role.PICKER;
        }
        if (t.role() == ProfileHandler.class) {
            return Role.PROFILE_HANDLER;
        }
        throw new IllegalStateException("plugin type " + type + " has no known role");
    }

    @Override
    public void check(String type, Map<String, Object> parameters, String path) throws InvalidConfigException {
        PluginType<?> t = BuiltInPlugins.REGISTRY.type(type);
        if (t == null) {
            throw new IllegalArgumentException("unknown plugin type " + type);
        }
        try {
            t.create(path, parameters, PluginContext.forChecking(NO_DRAWS));
        } catch (InvalidPluginException e) {
            throw new InvalidConfigException(e.getMessage());
        }
    }
}
