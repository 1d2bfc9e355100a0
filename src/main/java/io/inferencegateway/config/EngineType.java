package io.inferencegateway.config;

/** The model-server engine of a pool; it decides which metric names the gateway reads. */
public enum EngineType {
    VLLM("vllm"), SGLANG("sglang"), TGI("tgi"), TRTLLM("trtllm");

    private final String configName;

    EngineType(String configName) {
        this.configName = configName;
    }

    public String configName() {
        return configName;
    }

    public static EngineType fromConfigName(String name) {
        for (EngineType t : values()) {
            if (t.configName.equals(name)) {
                return t;
            }
        }
        return null;
    }
}
