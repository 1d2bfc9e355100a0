package io.inferencegateway.scheduling;

import java.util.random.RandomGenerator;

import io.inferencegateway.config.EndpointPickerConfig;
import io.inferencegateway.config.PluginConfig;
import io.inferencegateway.config.ProfileConfig;
import io.inferencegateway.config.ReplicaConfig;
import io.inferencegateway.config.ReplicaConfig.Coordination;
import io.inferencegateway.config.SessionAffinityConfig;
import io.inferencegateway.scheduling.framework.Filter;
import io.inferencegateway.scheduling.framework.InvalidPluginException;
import io.inferencegateway.scheduling.framework.PlacementAware;
import io.inferencegateway.scheduling.framework.Picker;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.SchedulerProfile;
import io.inferencegateway.scheduling.framework.Scorer;
import io.inferencegateway.scheduling.framework.SessionKeeping;
import io.inferencegateway.scheduling.plugins.BuiltInPlugins;
import io.inferencegateway.scheduling.prefix.PrefixSharing;
import io.inferencegateway.scheduling.prefix.RendezvousHomes;

/**
 * Builds the {@link SchedulerProfile} a pool's config describes. The one place a pipeline is put together,
 * whether the config named plugins or HyperPod weights (both arrive as an {@link EndpointPickerConfig}).
 */
public final class SchedulerProfiles {

    private SchedulerProfiles() {
    }

    /**
     * @param config validated by the config loader
     * @param random what pickers break ties with
     */
    public static SchedulerProfile build(EndpointPickerConfig config, RandomGenerator random) {
        return build(config, random, ReplicaConfig.SINGLE, PrefixSharing.NONE);
    }

    /**
     * @param replicas with {@code placement: rendezvous}, every prefix-cache scorer also credits the prefixes'
     *                 rendezvous homes, so that all replicas converge on the same pods; with {@code shared}, its
     *                 index joins {@code sharing}
     */
    public static SchedulerProfile build(EndpointPickerConfig config, RandomGenerator random, ReplicaConfig replicas,
            PrefixSharing sharing) {
        return build(config, random, replicas, sharing, SessionAffinityConfig.OFF);
    }

    /**
     * @param sessions when enabled, the profile's {@value SessionAffinityConfig#SCORER} remembers as many sessions
     *                 for as long as it says; a profile that names none gets one with weight
     *                 {@value SessionAffinityConfig#SCORER_WEIGHT}
     */
    public static SchedulerProfile build(EndpointPickerConfig config, RandomGenerator random, ReplicaConfig replicas,
            PrefixSharing sharing, SessionAffinityConfig sessions) {
        SchedulerProfile.Builder b = SchedulerProfile.builder();
        boolean keepsSessions = false;
        for (ProfileConfig.ProfileEntry entry : config.profile().plugins()) {
            PluginConfig plugin = config.plugin(entry.pluginRef());
            PluginType<?> type = BuiltInPlugins.REGISTRY.type(plugin.type());
            if (type == null) {
                throw new IllegalArgumentException("plugin '" + plugin.name() + "' has unknown type " + plugin.type());
            }
            if (type.role() == Scorer.class && entry.weight() == 0) {
                continue; // left out: not built at all (a prefix index costs memory)
            }
            Object built = create(type, plugin, random);
            if (built instanceof PlacementAware prefix && replicas.rendezvousHomes()) {
                RendezvousHomes placement = new RendezvousHomes(replicas.loadBound(), replicas.keyBlocks());
                built = replicas.placement() == Coordination.SHARED ? prefix.sharedBy(sharing, placement)
                        : prefix.placedBy(placement);
            }
            if (built instanceof SessionKeeping keeping) {
                keepsSessions = true;
                built = keeping.remembering(sessions.maxSessions(), sessions.idleTimeout());
            }
            if (type.role() == Filter.class) {
                b.filter((Filter) built);
            } else if (type.role() == Scorer.class) {
                b.scorer((Scorer) built, entry.weight());
            } else {
                b.picker((Picker) built);
            }
        }
        if (sessions.enabled() && !keepsSessions) {
            PluginType<?> type = BuiltInPlugins.REGISTRY.type(SessionAffinityConfig.SCORER);
            Object built = create(type, PluginConfig.of(SessionAffinityConfig.SCORER), random);
            b.scorer(((SessionKeeping) built).remembering(sessions.maxSessions(), sessions.idleTimeout()),
                    SessionAffinityConfig.SCORER_WEIGHT);
        }
        return b.build();
    }

    private static Object create(PluginType<?> type, PluginConfig plugin, RandomGenerator random) {
        try {
            return type.create("plugin '" + plugin.name() + "' parameters", plugin.parameters(), random);
        } catch (InvalidPluginException e) { // the loader checked the same parameters with the same factory
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }
}
