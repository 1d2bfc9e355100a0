package io.inferencegateway.scheduling.plugins;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.Picker;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

/**
 * {@value #TYPE}: the endpoint with the highest total score; ties (within 1e-9, to absorb rounding) are
 * broken uniformly at random, so that equally good pods share the load instead of the first one in the
 * list taking it all. The random source is injected so that tests can fix it.
 */
public final class MaxScorePicker implements Picker {

    public static final String TYPE = "max-score-picker";
    /** Takes no parameters. */
    public static final PluginType<Picker> PLUGIN = PluginType.picker(TYPE,
            parameters -> new MaxScorePicker(parameters.random()));
    static final double TIE = 1e-9;

    private final RandomGenerator random;

    public MaxScorePicker() {
        this(threadLocalRandom());
    }

    public MaxScorePicker(RandomGenerator random) {
        this.random = random;
    }

    @Override
    public EndpointState pick(SchedulingCycle cycle, List<EndpointState> endpoints, double[] totals) {
        int n = endpoints.size();
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            max = Math.max(max, totals[i]);
        }
        int ties = 0;
        int first = -1;
        for (int i = 0; i < n; i++) {
            if (totals[i] >= max - TIE) {
                ties++;
                first = first < 0 ? i : first;
            }
        }
        if (ties == 1) {
            return endpoints.get(first);
        }
        int k = random.nextInt(ties);
        for (int i = first; i < n; i++) {
            if (totals[i] >= max - TIE && k-- == 0) {
                return endpoints.get(i);
            }
        }
        throw new IllegalStateException("no endpoint to pick"); // unreachable for a non-empty list
    }

    /** The calling thread's {@link ThreadLocalRandom}: safe to share between request threads. */
    public static RandomGenerator threadLocalRandom() {
        return () -> ThreadLocalRandom.current().nextLong();
    }

    @Override
    public String toString() {
        return TYPE;
    }
}
