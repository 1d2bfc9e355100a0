package io.inferencegateway.config;

/** How a pool picks the pod for each request. */
public enum Policy {
    /** Scores pods on queue, KV cache, prefix-cache affinity and LoRA residency (the default). */
    GPU_AWARE("gpu-aware"),
    /** Baseline: every pod in turn. */
    ROUND_ROBIN("round-robin"),
    /** Baseline: the pod with the fewest requests in flight through this gateway. */
    LEAST_REQUEST("least-request"),
    /** Baseline: a uniformly random pod. */
    RANDOM("random");

    private final String configName;

    Policy(String configName) {
        this.configName = configName;
    }

    public String configName() {
        return configName;
    }

    public static Policy fromConfigName(String name) {
        for (Policy p : values()) {
            if (p.configName.equals(name)) {
                return p;
            }
        }
        return null;
    }
}
