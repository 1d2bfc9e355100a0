package io.inferencegateway.scheduling.plugins;

import java.util.List;
import java.util.random.RandomGenerator;

import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.Picker;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

/**
 * {@value #TYPE}: picks an endpoint with probability proportional to its total score; uniformly when
 * every total is 0. Spreads load more than {@link MaxScorePicker} when scores are close, at the price of
 * sometimes passing over the best pod: useful when several gateway replicas would otherwise all herd onto
 * the same "best" pod, since each replica sees only its own traffic.
 */
public final class WeightedRandomPicker implements Picker {

    public static final String TYPE = "weighted-random-picker";
    /** Takes no parameters. */
    public static final PluginType<Picker> PLUGIN = PluginType.picker(TYPE,
            parameters -> new WeightedRandomPicker(parameters.random()));

    private final RandomGenerator random;

    public WeightedRandomPicker() {
        this(MaxScorePicker.threadLocalRandom());
    }

    public WeightedRandomPicker(RandomGenerator random) {
        this.random = random;
    }

    @Override
    public EndpointState pick(SchedulingCycle cycle, List<EndpointState> endpoints, double[] totals) {
        int n = endpoints.size();
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += Math.max(0, totals[i]);
        }
        if (!(sum > 0)) {
            return endpoints.get(random.nextInt(n));
        }
        double r = random.nextDouble() * sum;
        int last = 0;
        for (int i = 0; i < n; i++) {
            double w = Math.max(0, totals[i]);
            if (w > 0) {
                last = i;
                if (r < w) {
                    return endpoints.get(i);
                }
                r -= w;
            }
        }
        return endpoints.get(last); // rounding left r a hair above the last positive weight
    }

    @Override
    public String toString() {
        return TYPE;
    }
}
