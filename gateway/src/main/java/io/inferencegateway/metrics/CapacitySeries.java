package io.inferencegateway.metrics;

/**
 * The capacity summary's format ({@code GET /capacity}, docs/global.md): its series and labels, in one place for the
 * gateway that writes it (observability/CapacitySummary) and the one that reads it (the {@code inference-gateway}
 * engine dialect). A change that an older reader would misread is a new major {@link #VERSION}; new series within a
 * major version are ignored by readers that do not know them.
 */
public final class CapacitySeries {

    /** The format's version, the {@code version} label of {@link #INFO}; readers refuse a major version they do not know. */
    public static final String VERSION = "1";
    /** The major version readers of this build accept. */
    public static final String MAJOR = "1";

    /** Always 1; labels {@code version}, {@code cluster}, {@code region}. */
    public static final String INFO = "inference_gateway_capacity_info";
    public static final String PODS = "inference_gateway_capacity_pods";
    public static final String READY_PODS = "inference_gateway_capacity_ready_pods";
    public static final String KV_HEADROOM = "inference_gateway_capacity_kv_headroom";
    public static final String QUEUED = "inference_gateway_capacity_queued_requests";
    public static final String GATEWAY_QUEUED = "inference_gateway_capacity_gateway_queued_requests";
    public static final String RUNNING = "inference_gateway_capacity_running_requests";
    public static final String TTFT = "inference_gateway_capacity_ttft_seconds";
    public static final String TPOT = "inference_gateway_capacity_tpot_seconds";
    public static final String PREDICTED_TTFT = "inference_gateway_capacity_predicted_ttft_seconds";
    public static final String PREDICTED_TPOT = "inference_gateway_capacity_predicted_tpot_seconds";
    public static final String ERROR_RATIO = "inference_gateway_capacity_error_ratio";
    public static final String SATURATION = "inference_gateway_capacity_saturation";
    public static final String RECENT_REQUESTS = "inference_gateway_capacity_recent_requests";
    /** Adapter rows only: ready pods that hold the adapter (running or queued there). */
    public static final String ADAPTER_LOADED_PODS = "inference_gateway_capacity_adapter_loaded_pods";

    /** The model (base model or adapter) a row is about. */
    public static final String MODEL = "model";
    /** On adapter rows: the base model whose pods serve the adapter. */
    public static final String BASE_MODEL = "base_model";
    /** The query parameter that asks for one base model's rows (and its adapters'). */
    public static final String MODEL_PARAMETER = "model";

    private CapacitySeries() {
    }

    /** The major part of a version label ({@code "1"} of {@code "1.2"}). */
    public static String major(String version) {
        int dot = version.indexOf('.');
        return dot < 0 ? version : version.substring(0, dot);
    }
}
