package io.inferencegateway.scheduling;

import java.util.List;
import java.util.random.RandomGenerator;

import io.inferencegateway.config.EndpointPickerConfig;
import io.inferencegateway.config.PluginConfig;
import io.inferencegateway.config.ProfileConfig;
import io.inferencegateway.config.SessionAffinityConfig;
import io.inferencegateway.scheduling.framework.DataProducer;
import io.inferencegateway.scheduling.framework.Filter;
import io.inferencegateway.scheduling.framework.InvalidPluginException;
import io.inferencegateway.scheduling.framework.Picker;
import io.inferencegateway.scheduling.framework.PluginContext;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.ProfileHandler;
import io.inferencegateway.scheduling.framework.SchedulerProfile;
import io.inferencegateway.scheduling.framework.Scorer;
import io.inferencegateway.scheduling.plugins.BuiltInPlugins;
import io.inferencegateway.scheduling.plugins.KnownTargets;
import io.inferencegateway.scheduling.plugins.LatencyLearner;

/**
 * Builds a pool's scheduler from its config: its profile, its profile handler and what its plugins registered at the
 * other extension points. The one place a pipeline is put together, whether the config named plugins or HyperPod
 * weights (both arrive as an {@link EndpointPickerConfig}). A feature switched on in the pool's config brings its
 * plugins: session affinity its scorer (weight {@value SessionAffinityConfig#SCORER_WEIGHT} when the profile names
 * none), a pool of global targets the facts of its targets and, first of all filters, the residency filter (when the
 * profile names none), and every pool the learner of its latency predictor.
 */
public final class SchedulerProfiles {

    /** The filter a pool of targets brings: it keeps each tenant's requests where its data-residency pin allows. */
    private static final String RESIDENCY_FILTER = "residency-filter";
    /** The profile handler of a pool whose config names none: its one profile, once. */
    private static final String DEFAULT_PROFILE_HANDLER = "single-profile-handler";

    private SchedulerProfiles() {
    }

    /**
     * A pool's plugins, built.
     *
     * @param profiles the pool's profiles (today one)
     * @param handler  which profiles run for a request
     */
    public record Built(List<SchedulerProfile> profiles, ProfileHandler handler, PluginContext.Registered registered) {
    }

    /**
     * @param config validated by the config loader
     * @param pool   the pool's facts, where its plugins register
     */
    public static Built build(EndpointPickerConfig config, PluginContext pool) {
        KnownTargets.register(pool);
        LatencyLearner learner = new LatencyLearner(pool.predictor());
        pool.producer(DataProducer.PREDICTIONS, learner);
        pool.lifecycle(learner);
        SchedulerProfile.Builder b = SchedulerProfile.builder().name(config.profile().name());
        boolean keepsSessions = false;
        boolean residency = false;
        for (ProfileConfig.ProfileEntry entry : config.profile().plugins()) {
            PluginConfig plugin = config.plugin(entry.pluginRef());
            PluginType<?> type = type(plugin.type());
            if (type.role() == Scorer.class && entry.weight() == 0) {
                continue; // left out: not built at all (a prefix index costs memory)
            }
            keepsSessions |= plugin.type().equals(SessionAffinityConfig.SCORER);
            residency |= plugin.type().equals(RESIDENCY_FILTER);
            if (!residency && !pool.targets().isEmpty() && type.role() == Filter.class) {
                b.filter((Filter) create(type(RESIDENCY_FILTER), PluginConfig.of(RESIDENCY_FILTER), pool));
                residency = true;
            }
            Object built = create(type, plugin, pool);
            if (type.role() == Filter.class) {
                b.filter((Filter) built);
            } else if (type.role() == Scorer.class) {
                b.scorer((Scorer) built, entry.weight());
            } else if (type.role() == Picker.class) {
                b.picker((Picker) built);
            }
        }
        if (!residency && !pool.targets().isEmpty()) {
            b.filter((Filter) create(type(RESIDENCY_FILTER), PluginConfig.of(RESIDENCY_FILTER), pool));
        }
        if (pool.sessions().enabled() && !keepsSessions) {
            PluginType<?> type = type(SessionAffinityConfig.SCORER);
            b.scorer((Scorer) create(type, PluginConfig.of(SessionAffinityConfig.SCORER), pool),
                    SessionAffinityConfig.SCORER_WEIGHT);
        }
        PluginConfig handler = config.profileHandler() != null ? config.profileHandler()
                : PluginConfig.of(DEFAULT_PROFILE_HANDLER);
        return new Built(List.of(b.build()), (ProfileHandler) create(type(handler.type()), handler, pool),
                pool.registered());
    }

    /** A pool of one profile built by hand (tests, the lab): the default handler, nothing registered. */
    static Built handBuilt(SchedulerProfile profile, PluginContext pool) {
        PluginConfig handler = PluginConfig.of(DEFAULT_PROFILE_HANDLER);
        return new Built(List.of(profile), (ProfileHandler) create(type(handler.type()), handler, pool),
                pool.registered());
    }

    /** The profile {@code config} describes, for a pool with default facts: for tests and the lab. */
    public static SchedulerProfile build(EndpointPickerConfig config, RandomGenerator random) {
        return build(config, PluginContext.forChecking(random)).profiles().get(0);
    }

    private static PluginType<?> type(String name) {
        PluginType<?> type = BuiltInPlugins.REGISTRY.type(name);
        if (type == null) {
            throw new IllegalArgumentException("unknown plugin type " + name);
        }
        return type;
    }

    private static Object create(PluginType<?> type, PluginConfig plugin, PluginContext pool) {
        try {
            return type.create("plugin '" + plugin.name() + "' parameters", plugin.parameters(), pool);
        } catch (InvalidPluginException e) { // the loader checked the same parameters with the same factory
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }
}
