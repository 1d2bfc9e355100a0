package io.inferencegateway.scheduling.framework;

import java.util.Objects;

import io.inferencegateway.domain.PickReason;

/**
 * What one profile chose for a request, and why.
 *
 * @param profile      the profile's name
 * @param chosen       the chosen candidate's state, valid while the request's cycle lasts
 * @param reason       what decided it (see {@link SchedulerProfile#run})
 * @param cachedTokens prompt tokens the chosen endpoint probably serves from its prefix cache
 */
public record ProfileResult(String profile, EndpointState chosen, PickReason reason, int cachedTokens) {

    public ProfileResult {
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(chosen, "chosen");
        Objects.requireNonNull(reason, "reason");
    }
}
