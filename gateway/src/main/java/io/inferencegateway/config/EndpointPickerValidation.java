package io.inferencegateway.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.inferencegateway.config.InferenceGatewayConfig.Plugin;
import io.inferencegateway.config.InferenceGatewayConfig.ProfilePlugin;
import io.inferencegateway.config.InferenceGatewayConfig.SchedulingProfile;

/**
 * Validates a scheduler's {@code plugins} and {@code schedulingProfiles} and applies their defaults, as the
 * Gateway API Inference Extension does: a plugin's name defaults to its type; without profiles, one profile
 * named {@code default} runs every plugin in the order listed; a scorer's weight defaults to 1; a profile
 * without a picker gets {@value EndpointPickerConfig#DEFAULT_PICKER}. A profile handler may be named among the
 * plugins (at most one; it runs in no profile). Stricter than GIE, since the one profile handler there is runs one
 * profile and nothing else uses plugins: one profile, and every plugin used by it.
 */
final class EndpointPickerValidation {

    private EndpointPickerValidation() {
    }

    /** @param at the scheduler's path, e.g. {@code spec.schedulers[0]} */
    static EndpointPickerConfig validate(String at, List<Plugin> rawPlugins, List<SchedulingProfile> rawProfiles,
            PluginCatalog catalog) throws InvalidConfigException {
        if (rawPlugins == null || rawPlugins.isEmpty()) {
            throw new InvalidConfigException(at + ".plugins must list at least one plugin");
        }
        List<PluginConfig> plugins = new ArrayList<>();
        Map<String, Integer> indexOf = new HashMap<>();
        Map<String, PluginConfig> byName = new HashMap<>();
        PluginConfig handler = null;
        String handlerPath = null;
        for (int k = 0; k < rawPlugins.size(); k++) {
            String path = at + ".plugins[" + k + "]";
            PluginConfig plugin = plugin(path, rawPlugins.get(k), catalog);
            if (catalog.role(plugin.type()) == PluginCatalog.Role.PROFILE_HANDLER) {
                if (handler != null) {
                    throw new InvalidConfigException(path + " is a second profile handler (after " + handlerPath
                            + "); a scheduler has one");
                }
                handler = plugin;
                handlerPath = path;
                continue;
            }
            Integer previous = indexOf.putIfAbsent(plugin.name(), k);
            if (previous != null) {
                throw new InvalidConfigException(path + " name '" + plugin.name() + "' duplicates "
                        + at + ".plugins[" + previous + "]" + (rawPlugins.get(k).name() == null
                                ? " (a plugin's name defaults to its type: give one of them a name)" : ""));
            }
            plugins.add(plugin);
            byName.put(plugin.name(), plugin);
        }
        if (plugins.isEmpty()) {
            throw new InvalidConfigException(at + ".plugins must list at least one plugin besides its profile handler");
        }

        String profilePath;
        String profileName;
        List<ProfilePlugin> refs;
        if (rawProfiles == null || rawProfiles.isEmpty()) {
            profilePath = null;
            profileName = "default";
            refs = new ArrayList<>();
            for (PluginConfig p : plugins) {
                refs.add(new ProfilePlugin(p.name(), null));
            }
        } else {
            if (rawProfiles.size() > 1) {
                throw new InvalidConfigException(at + ".schedulingProfiles lists " + rawProfiles.size()
                        + " profiles; this gateway runs exactly one (it has no profile handler to choose between them)");
            }
            profilePath = at + ".schedulingProfiles[0]";
            SchedulingProfile raw = rawProfiles.get(0);
            if (raw == null) {
                throw new InvalidConfigException(profilePath + " must not be empty");
            }
            profileName = ConfigChecks.required(raw.name(), profilePath + ".name");
            refs = raw.plugins();
            if (refs == null || refs.isEmpty()) {
                throw new InvalidConfigException(profilePath + ".plugins must list at least one pluginRef");
            }
        }

        List<ProfileConfig.ProfileEntry> entries = new ArrayList<>();
        Map<String, String> refPathOf = new HashMap<>();
        String picker = null;
        for (int j = 0; j < refs.size(); j++) {
            // without a written profile, entry j is plugin j: errors name the plugin
            String refPath = profilePath == null ? at + ".plugins[" + j + "]" : profilePath + ".plugins[" + j + "]";
            ProfilePlugin ref = refs.get(j);
            if (ref == null) {
                throw new InvalidConfigException(refPath + " must not be empty");
            }
            String name = ConfigChecks.required(ref.pluginRef(), refPath + ".pluginRef");
            Integer k = indexOf.get(name);
            if (k == null && handler != null && handler.name().equals(name)) {
                throw new InvalidConfigException(refPath + ".pluginRef '" + name + "' is the profile handler: it "
                        + "chooses the profiles and runs in none");
            }
            if (k == null) {
                throw new InvalidConfigException(refPath + ".pluginRef '" + name + "' names no plugin in " + at
                        + ".plugins (" + String.join(", ", plugins.stream().map(PluginConfig::name).toList()) + ")");
            }
            String previous = refPathOf.putIfAbsent(name, refPath);
            if (previous != null) {
                throw new InvalidConfigException(refPath + ".pluginRef '" + name + "' is already in the profile at "
                        + previous);
            }
            PluginCatalog.Role role = catalog.role(byName.get(name).type());
            double weight = 0;
            if (role == PluginCatalog.Role.SCORER) {
                weight = ref.weight() == null ? 1.0 : ref.weight();
                if (!(weight >= 0) || Double.isInfinite(weight)) {
                    throw new InvalidConfigException(refPath + ".weight must be a non-negative number, got " + weight);
                }
                if (weight > EndpointPickerConfig.MAX_WEIGHT) {
                    throw new InvalidConfigException(refPath + ".weight must be at most "
                            + EndpointPickerConfig.MAX_WEIGHT + ", got " + ref.weight());
                }
            } else if (ref.weight() != null) {
                throw new InvalidConfigException(refPath + ".weight applies to scorers only; '" + name + "' is a "
                        + role);
            }
            if (role == PluginCatalog.Role.PICKER) {
                if (picker != null) {
                    throw new InvalidConfigException(refPath + ".pluginRef '" + name + "' is a second picker (after '"
                            + picker + "'); a profile has one");
                }
                picker = name;
            }
            entries.add(new ProfileConfig.ProfileEntry(name, weight));
        }

        for (PluginConfig p : plugins) {
            if (!refPathOf.containsKey(p.name())) {
                throw new InvalidConfigException(at + ".plugins[" + indexOf.get(p.name()) + "] '" + p.name()
                        + "' is not used by " + profilePath + " '" + profileName + "': add it to the profile or remove it");
            }
        }
        if (picker == null) {
            String name = EndpointPickerConfig.DEFAULT_PICKER;
            if (indexOf.containsKey(name)) {
                throw new InvalidConfigException(at + ".plugins[" + indexOf.get(name) + "] is named '" + name
                        + "', the name of the picker a profile without one gets; rename it or add a picker");
            }
            catalog.check(name, Map.of(), at + ".plugins");
            plugins.add(PluginConfig.of(name));
            entries.add(new ProfileConfig.ProfileEntry(name, 0));
        }
        return new EndpointPickerConfig(plugins, new ProfileConfig(profileName, entries), handler);
    }


    private static PluginConfig plugin(String path, Plugin raw, PluginCatalog catalog) throws InvalidConfigException {
        if (raw == null) {
            throw new InvalidConfigException(path + " must not be empty");
        }
        String type = ConfigChecks.required(raw.type(), path + ".type");
        if (catalog.role(type) == null) {
            throw new InvalidConfigException(path + ".type '" + type + "' is not a known plugin type ("
                    + String.join(", ", catalog.types()) + ")");
        }
        String name = raw.name() == null ? type : ConfigChecks.required(raw.name(), path + ".name");
        Map<String, Object> parameters = new LinkedHashMap<>();
        if (raw.parameters() != null) {
            for (Map.Entry<String, Object> e : raw.parameters().entrySet()) {
                if (e.getValue() == null) {
                    throw new InvalidConfigException(path + ".parameters." + e.getKey() + " has no value");
                }
                parameters.put(e.getKey(), e.getValue());
            }
        }
        catalog.check(type, parameters, path + ".parameters");
        return new PluginConfig(name, type, parameters);
    }
}
