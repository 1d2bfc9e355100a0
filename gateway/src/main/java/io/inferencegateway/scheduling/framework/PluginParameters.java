package io.inferencegateway.scheduling.framework;

import java.math.BigInteger;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * What a plugin factory reads its tunables from: the {@code parameters} map of one plugin in the config, and what it
 * receives from its pool and registers there ({@link #pool()}: the pool's facts, the random source pickers break ties
 * with (fixed in tests), the extension points beyond the plugin's place in the profile). Each accessor takes the
 * default and the
 * valid range, so a plugin's parameters are declared where they are used; an error names the parameter's
 * path, e.g. {@code spec.schedulers[0].plugins[1].parameters.kvCacheThreshold must be ...}. After the
 * factory returns, {@link PluginType#create} rejects any parameter the factory did not read.
 */
public final class PluginParameters {

    private final String path;
    private final Map<String, Object> values;
    private final PluginContext pool;
    private final Set<String> read = new LinkedHashSet<>();

    PluginParameters(String path, Map<String, Object> values, PluginContext pool) {
        this.path = Objects.requireNonNull(path);
        this.values = Objects.requireNonNull(values);
        this.pool = Objects.requireNonNull(pool);
    }

    /** The pool the plugin is built for: its facts, and where the plugin registers beyond the profile. */
    public PluginContext pool() {
        return pool;
    }

    /** An integer in {@code [min, max]}; {@code defaultValue} when the parameter is not given. */
    public int integer(String name, int defaultValue, int min, int max) throws InvalidPluginException {
        Object v = value(name);
        if (v == null) {
            return defaultValue;
        }
        boolean integral = v instanceof Integer || v instanceof Long || v instanceof BigInteger;
        if (!integral) {
            throw invalid(name, "must be an integer, got " + describe(v));
        }
        BigInteger n = v instanceof BigInteger b ? b : BigInteger.valueOf(((Number) v).longValue());
        if (n.compareTo(BigInteger.valueOf(min)) < 0 || n.compareTo(BigInteger.valueOf(max)) > 0) {
            throw invalid(name, "must be an integer between " + min + " and " + max + ", got " + n);
        }
        return n.intValue();
    }

    /** A share such as a utilisation threshold: above 0 and at most 1. */
    public double fraction(String name, double defaultValue) throws InvalidPluginException {
        Double v = finite(name);
        if (v == null) {
            return defaultValue;
        }
        double d = v;
        if (!(d > 0 && d <= 1)) {
            throw invalid(name, "must be between 0 and 1 (above 0, at most 1), got " + d);
        }
        return d;
    }

    /** A number in {@code [min, max]}; {@code defaultValue} when the parameter is not given. */
    public double number(String name, double defaultValue, double min, double max) throws InvalidPluginException {
        Double v = finite(name);
        if (v == null) {
            return defaultValue;
        }
        if (v < min || v > max) {
            throw invalid(name, "must be between " + min + " and " + max + ", got " + v);
        }
        return v;
    }

    /** The parameter as a finite number; null when not given. */
    private Double finite(String name) throws InvalidPluginException {
        Object v = value(name);
        if (v == null) {
            return null;
        }
        if (!(v instanceof Number number) || !Double.isFinite(number.doubleValue())) {
            throw invalid(name, "must be a number, got " + describe(v));
        }
        return number.doubleValue();
    }

    /** One of {@code allowed} words; {@code defaultValue} when the parameter is not given. */
    public String choice(String name, String defaultValue, String... allowed) throws InvalidPluginException {
        Object v = value(name);
        if (v == null) {
            return defaultValue;
        }
        for (String a : allowed) {
            if (a.equals(v)) {
                return a;
            }
        }
        throw invalid(name, "must be one of " + String.join(", ", allowed) + ", got " + describe(v));
    }

    /** The random source for plugins that draw (pickers): one per policy, shared by its request threads. */
    public RandomGenerator random() {
        return pool.random();
    }

    /** An error about one parameter, for checks that involve several, e.g. {@code invalid("maxBlocks", "...")}. */
    public InvalidPluginException invalid(String name, String problem) {
        return new InvalidPluginException(path + "." + name + " " + problem);
    }

    private Object value(String name) {
        read.add(name);
        return values.get(name);
    }

    void rejectUnread() throws InvalidPluginException {
        for (String name : values.keySet()) {
            if (!read.contains(name)) {
                throw invalid(name, "is not a parameter of this plugin"
                        + (read.isEmpty() ? " (it takes none)" : " (it takes " + String.join(", ", read) + ")"));
            }
        }
    }

    private static String describe(Object v) {
        return v instanceof String s ? "'" + s + "'" : String.valueOf(v);
    }
}
