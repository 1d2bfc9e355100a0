package io.inferencegateway.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A scheduler's {@code weights:} shorthand: a table of weight keys, each naming the scorer it weighs, its default
 * weight and the filter it puts in front while above 0, and the one loop that turns a weights map into the plugin list
 * it stands for. A pool of pods ({@link Weights}) and a global tier's pool of clusters and providers
 * ({@link GlobalWeights}) differ only by their table and the filters they always put in front.
 *
 * <p>The plugin list: the fixed filters; each key's filter whose weight is above 0; each scorer whose weight is not 0,
 * with that weight; {@value EndpointPickerConfig#DEFAULT_PICKER} unless the scheduler's {@code picker:} names another.
 * Every plugin with its default parameters, in one profile named {@code default}.
 */
final class WeightShorthand {

    /**
     * One weight key of a shorthand.
     *
     * @param name      the key as the config writes it, e.g. {@code kvCache}
     * @param scorer    the plugin type it weighs, e.g. {@code kv-cache-scorer}
     * @param byDefault its weight when the config leaves it out
     * @param filter    the plugin type it puts in front of the scorers while its weight is above 0; null for none
     */
    record WeightKey(String name, String scorer, int byDefault, String filter) {
        WeightKey {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(scorer, "scorer");
        }
    }

    private final String pool;
    private final String declaredIn;
    private final List<String> names;
    private final List<String> filters;
    private final List<WeightKey> keys;

    /**
     * @param pool       what pool takes these weights, for errors: {@code a pool of pods}
     * @param declaredIn where the config declares such pools, appended to {@code pool} when another shorthand's error
     *                   points here ({@code " (spec.global)"}); empty for none
     * @param names      the keys in the order errors and the reference list them
     * @param filters    the filters the plugin list always starts with
     * @param keys       the table, in the order the profile lists their scorers
     */
    WeightShorthand(String pool, String declaredIn, List<String> names, List<String> filters, List<WeightKey> keys) {
        this.pool = pool;
        this.declaredIn = declaredIn;
        this.names = List.copyOf(names);
        this.filters = List.copyOf(filters);
        this.keys = List.copyOf(keys);
        if (!Set.copyOf(this.names).equals(Set.copyOf(this.keys.stream().map(WeightKey::name).toList()))
                || this.names.size() != this.keys.size()) {
            throw new IllegalArgumentException("names " + names + " must list each key of the table once");
        }
    }

    /** The weight keys, in the order errors and the reference list them. */
    List<String> names() {
        return names;
    }

    /** Each key's default weight. */
    Map<String, Integer> defaults() {
        Map<String, Integer> weights = new HashMap<>();
        for (WeightKey k : keys) {
            weights.put(k.name(), k.byDefault());
        }
        return weights;
    }

    /** {@code weights} with key {@code name} set to {@code value}; an {@link IllegalArgumentException} if unknown. */
    Map<String, Integer> with(Map<String, Integer> weights, String name, int value) {
        if (!names.contains(name)) {
            throw new IllegalArgumentException("unknown weight " + name);
        }
        Map<String, Integer> copy = new HashMap<>(weights);
        copy.put(name, value);
        return copy;
    }

    /**
     * A scheduler's {@code weights:} over {@code base}, one key at a time, checked: a key of this table, a non-negative
     * integer of at most {@link EndpointPickerConfig#MAX_WEIGHT}. A key of {@code other}'s table is named as such.
     *
     * @param at      the weights' path, e.g. {@code spec.schedulers[0].weights}
     * @param written the keys as written, in the order written; null for none
     */
    Map<String, Integer> read(String at, Map<String, Integer> base, Map<String, Integer> written, WeightShorthand other)
            throws InvalidConfigException {
        Map<String, Integer> weights = new LinkedHashMap<>(base);
        if (written == null) {
            return weights;
        }
        for (Map.Entry<String, Integer> w : written.entrySet()) {
            String path = at + "." + w.getKey();
            if (!names.contains(w.getKey())) {
                throw new InvalidConfigException(path + (other.names.contains(w.getKey())
                        ? " is a weight for " + other.pool + other.declaredIn + "; " + pool + " takes " + list()
                        : " is not a known weight (" + list() + ")"));
            }
            if (w.getValue() == null || w.getValue() < 0) {
                throw new InvalidConfigException(path + " must be a non-negative integer");
            }
            if (w.getValue() > EndpointPickerConfig.MAX_WEIGHT) {
                throw new InvalidConfigException(path + " must be at most " + EndpointPickerConfig.MAX_WEIGHT
                        + ", got " + w.getValue());
            }
            weights.put(w.getKey(), w.getValue());
        }
        return weights;
    }

    private String list() {
        return String.join(", ", names);
    }

    /** The plugin list {@code weights} (one per key of the table) stand for; see the class comment. */
    EndpointPickerConfig endpointPicker(Map<String, Integer> weights) {
        return endpointPicker(weights, EndpointPickerConfig.DEFAULT_PICKER);
    }

    /** The plugin list {@code weights} stand for, ending with the picker plugin type {@code pickerType}. */
    EndpointPickerConfig endpointPicker(Map<String, Integer> weights, String pickerType) {
        List<PluginConfig> plugins = new ArrayList<>();
        List<ProfileConfig.ProfileEntry> entries = new ArrayList<>();
        for (String filter : filters) {
            add(plugins, entries, filter, 0);
        }
        for (WeightKey k : keys) {
            if (k.filter() != null && weight(weights, k) > 0) {
                add(plugins, entries, k.filter(), 0);
            }
        }
        for (WeightKey k : keys) {
            if (weight(weights, k) != 0) { // weight 0: not in the profile (and a prefix index is not built)
                add(plugins, entries, k.scorer(), weight(weights, k));
            }
        }
        add(plugins, entries, pickerType, 0);
        return new EndpointPickerConfig(plugins, new ProfileConfig("default", entries));
    }

    private static int weight(Map<String, Integer> weights, WeightKey k) {
        Integer w = weights.get(k.name());
        if (w == null) {
            throw new IllegalArgumentException("no weight for " + k.name());
        }
        return w;
    }

    private static void add(List<PluginConfig> plugins, List<ProfileConfig.ProfileEntry> entries, String type,
            int weight) {
        plugins.add(PluginConfig.of(type));
        entries.add(new ProfileConfig.ProfileEntry(type, weight));
    }
}
