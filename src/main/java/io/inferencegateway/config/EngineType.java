package io.inferencegateway.config;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The model-server engine of a pool; it decides which metric names the gateway reads. */
public enum EngineType {
    VLLM("vllm"), SGLANG("sglang"), TGI("tgi"), TRTLLM("trtllm"), LLAMACPP("llamacpp");

    private final String configName;

    EngineType(String configName) {
        this.configName = configName;
    }

    public String configName() {
        return configName;
    }

    /** The config names of every engine, comma-separated, for error messages. */
    public static String configNames() {
        return Arrays.stream(values()).map(EngineType::configName).collect(Collectors.joining(", "));
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
