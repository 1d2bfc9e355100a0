package io.inferencegateway.config;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.inferencegateway.domain.Priority;

/** Validates a scheduler's {@code flowControl}: the pool's queue, and the priorities of its model and adapters. */
final class FlowControlValidation {

    private FlowControlValidation() {
    }

    /**
     * @param at        the section's path, e.g. {@code spec.schedulers[0].flowControl}
     * @param modelName the pool's model, which {@code priorities} may name, as it may its {@code adapters}
     */
    static FlowControlConfig flowControl(String at, InferenceGatewayConfig.FlowControlSpec f, String modelName,
            List<String> adapters) throws InvalidConfigException {
        FlowControlConfig d = FlowControlConfig.DEFAULT;
        if (f == null) {
            return d; // off
        }
        int maxQueued = ConfigChecks.intIn(f.maxQueued(), d.maxQueued(), 0, 1_000_000, at + ".maxQueued");
        Duration queueTimeout = ConfigChecks.duration(f.queueTimeout(), at + ".queueTimeout", d.queueTimeout());
        Duration retryAfter = ConfigChecks.duration(f.retryAfter(), at + ".retryAfter", d.retryAfter());
        int defaultPriority = f.defaultPriority() == null ? d.defaultPriority()
                : priority(at + ".defaultPriority", f.defaultPriority());
        Map<String, Integer> priorities = new LinkedHashMap<>();
        if (f.priorities() != null) {
            for (Map.Entry<String, String> e : f.priorities().entrySet()) {
                ConfigChecks.servedByPool(at + ".priorities", e.getKey(), modelName, adapters);
                priorities.put(e.getKey(), priority(at + ".priorities." + e.getKey(), e.getValue()));
            }
        }
        return new FlowControlConfig(!Boolean.FALSE.equals(f.enabled()), maxQueued, queueTimeout, retryAfter,
                defaultPriority, priorities, !Boolean.FALSE.equals(f.priorityHeader()));
    }

    private static int priority(String path, String text) throws InvalidConfigException {
        Integer p = Priority.parse(text);
        if (p == null) {
            throw new InvalidConfigException(path + " must be critical, standard, sheddable or an integer within "
                    + "+-" + Priority.LIMIT + ", got '" + text + "'");
        }
        return p;
    }
}
