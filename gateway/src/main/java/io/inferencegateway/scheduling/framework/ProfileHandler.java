package io.inferencegateway.scheduling.framework;

import java.util.List;

/**
 * Extension point: which of a pool's profiles run for a request, and which result the request is sent by. Asked
 * again after every round of profiles with the results so far, until it names none; every profile runs on the same
 * snapshot. One profile is the common case (the {@code single-profile-handler}, the default); a request served in two phases (prefill on
 * one endpoint, decode on another) is a handler that runs a decode profile, then a prefill profile, and names the
 * decode result primary.
 */
public interface ProfileHandler {

    /**
     * The profiles to run next, among the pool's {@code profiles}, given the results so far (empty at first); none
     * when the request is scheduled.
     */
    List<SchedulerProfile> next(SchedulingCycle cycle, List<SchedulerProfile> profiles, List<ProfileResult> results);

    /** The result the request is sent by, among {@code results} (never empty). */
    ProfileResult primary(SchedulingCycle cycle, List<ProfileResult> results);
}
