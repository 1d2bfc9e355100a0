package io.inferencegateway.scheduling.framework;

import java.util.List;

/**
 * Extension point 3 of 3: turns the summed scores into one endpoint. A picker that decides by something other than the
 * scores (a predicted time) says why through {@link SchedulingCycle#pickedBecause}.
 */
@FunctionalInterface
public interface Picker {

    /**
     * @param cycle     the request's snapshot: its facts and the scorers' expected cached tokens per candidate
     *                  ({@link SchedulingCycle#expectedCachedTokens(int)}, indexed like {@code endpoints})
     * @param endpoints never empty
     * @param totals    the weighted score sum of each endpoint, same order; longer arrays are allowed
     */
    EndpointState pick(SchedulingCycle cycle, List<EndpointState> endpoints, double[] totals);
}
