package io.inferencegateway.scheduling.framework;

import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A kind of plugin as the config names it: its type (kebab-case, ending in its role: {@code queue-scorer}),
 * its role (filter, scorer, picker or profile handler) and the factory that reads its parameters and builds one
 * instance, registering it at whatever other extension points it serves through its pool's
 * {@link PluginParameters#pool() context}. Each plugin class declares its own as a constant;
 * {@code plugins/BuiltInPlugins} registers them.
 *
 * @param <T> {@link Filter}, {@link Scorer}, {@link Picker} or {@link ProfileHandler}
 */
public final class PluginType<T> {

    /** How a plugin is built from its parameters; it reads every parameter through {@code parameters}. */
    @FunctionalInterface
    public interface Factory<T> {
        T create(PluginParameters parameters) throws InvalidPluginException;
    }

    private static final Pattern KEBAB = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");

    private final String name;
    private final Class<T> role;
    private final Factory<? extends T> factory;

    private PluginType(String name, Class<T> role, Factory<? extends T> factory) {
        String suffix = "-" + role.getSimpleName().replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
        if (!KEBAB.matcher(name).matches() || !name.endsWith(suffix)) {
            throw new IllegalArgumentException("plugin type '" + name + "' must be kebab-case and end in " + suffix);
        }
        this.name = name;
        this.role = role;
        this.factory = Objects.requireNonNull(factory);
    }

    public static PluginType<Filter> filter(String name, Factory<? extends Filter> factory) {
        return new PluginType<>(name, Filter.class, factory);
    }

    public static PluginType<Scorer> scorer(String name, Factory<? extends Scorer> factory) {
        return new PluginType<>(name, Scorer.class, factory);
    }

    public static PluginType<Picker> picker(String name, Factory<? extends Picker> factory) {
        return new PluginType<>(name, Picker.class, factory);
    }

    public static PluginType<ProfileHandler> profileHandler(String name, Factory<? extends ProfileHandler> factory) {
        return new PluginType<>(name, ProfileHandler.class, factory);
    }

    /** The type name the config uses, e.g. {@code prefix-cache-scorer}. */
    public String name() {
        return name;
    }

    /** {@code Filter.class}, {@code Scorer.class}, {@code Picker.class} or {@code ProfileHandler.class}. */
    public Class<T> role() {
        return role;
    }

    /**
     * Builds one plugin from its parameters.
     *
     * @param path       where the parameters sit in the config, for error messages
     * @param parameters the plugin's {@code parameters}; empty for all defaults
     * @param pool       the pool it is built for, where it registers beyond its place in the profile
     * @throws InvalidPluginException when a parameter is out of range, of the wrong type, or unknown
     */
    public T create(String path, Map<String, Object> parameters, PluginContext pool) throws InvalidPluginException {
        PluginParameters p = new PluginParameters(path, parameters, pool);
        T plugin = factory.create(p);
        p.rejectUnread();
        return plugin;
    }

    @Override
    public String toString() {
        return name;
    }
}
