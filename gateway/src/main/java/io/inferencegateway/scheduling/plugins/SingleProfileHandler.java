package io.inferencegateway.scheduling.plugins;

import java.util.List;

import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.ProfileHandler;
import io.inferencegateway.scheduling.framework.ProfileResult;
import io.inferencegateway.scheduling.framework.SchedulerProfile;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

/** {@value #TYPE}: runs the pool's one profile once; its result is the request's. The default. Takes no parameters. */
public final class SingleProfileHandler implements ProfileHandler {

    public static final String TYPE = "single-profile-handler";
    public static final PluginType<ProfileHandler> PLUGIN = PluginType.profileHandler(TYPE,
            parameters -> new SingleProfileHandler());

    @Override
    public List<SchedulerProfile> next(SchedulingCycle cycle, List<SchedulerProfile> profiles,
            List<ProfileResult> results) {
        return results.isEmpty() ? profiles : List.of();
    }

    @Override
    public ProfileResult primary(SchedulingCycle cycle, List<ProfileResult> results) {
        return results.get(0);
    }

    @Override
    public String toString() {
        return TYPE;
    }
}
