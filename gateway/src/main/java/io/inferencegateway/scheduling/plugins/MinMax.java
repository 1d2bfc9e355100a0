package io.inferencegateway.scheduling.plugins;

import java.util.List;
import java.util.function.ToDoubleFunction;

import io.inferencegateway.scheduling.framework.EndpointState;

/** Min-max normalisation where the lowest value scores 1 and the highest 0, shared by the load scorers. */
final class MinMax {

    private MinMax() {
    }

    /**
     * {@code (max - v) / (max - min)} over the candidates; 1.0 for all when every value is equal. A NaN value scores 0
     * and takes no part in the range.
     */
    static void lowerIsBetter(List<EndpointState> endpoints, ToDoubleFunction<EndpointState> value, double[] scores) {
        int n = endpoints.size();
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            double v = value.applyAsDouble(endpoints.get(i));
            if (!Double.isNaN(v)) {
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
        }
        for (int i = 0; i < n; i++) {
            double v = value.applyAsDouble(endpoints.get(i));
            scores[i] = Double.isNaN(v) ? 0.0 : max == min ? 1.0 : (max - v) / (max - min);
        }
    }
}
