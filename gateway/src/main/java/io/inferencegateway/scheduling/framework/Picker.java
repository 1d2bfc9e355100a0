package io.inferencegateway.scheduling.framework;

import java.util.List;

/** Extension point 3 of 3: turns the summed scores into one endpoint. */
@FunctionalInterface
public interface Picker {

    /**
     * @param endpoints never empty
     * @param totals    the weighted score sum of each endpoint, same order; longer arrays are allowed
     */
    EndpointState pick(List<EndpointState> endpoints, double[] totals);
}
