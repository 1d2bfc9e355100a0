package io.inferencegateway.tracing;

import static io.opentelemetry.api.common.AttributeKey.longKey;
import static io.opentelemetry.api.common.AttributeKey.stringArrayKey;
import static io.opentelemetry.api.common.AttributeKey.stringKey;

import java.util.List;

import io.opentelemetry.api.common.AttributeKey;

/**
 * The attribute names of our spans: OpenTelemetry's HTTP and gen_ai semantic conventions where they say something, and
 * {@code inference_gateway.*} for the scheduler's decision (the table in docs/observability.md, "Traces").
 */
final class SpanAttributes {

    private SpanAttributes() {
    }

    // HTTP (semantic conventions: http, url, server, error)
    static final AttributeKey<String> HTTP_REQUEST_METHOD = stringKey("http.request.method");
    static final AttributeKey<String> HTTP_ROUTE = stringKey("http.route");
    static final AttributeKey<String> URL_PATH = stringKey("url.path");
    static final AttributeKey<Long> HTTP_RESPONSE_STATUS_CODE = longKey("http.response.status_code");
    static final AttributeKey<List<String>> HTTP_REQUEST_HEADER_X_REQUEST_ID = stringArrayKey(
            "http.request.header.x-request-id");
    static final AttributeKey<String> SERVER_ADDRESS = stringKey("server.address");
    static final AttributeKey<Long> SERVER_PORT = longKey("server.port");
    static final AttributeKey<String> ERROR_TYPE = stringKey("error.type");

    // generative AI (semantic conventions: gen_ai)
    static final AttributeKey<String> GEN_AI_OPERATION_NAME = stringKey("gen_ai.operation.name");
    static final AttributeKey<String> GEN_AI_REQUEST_MODEL = stringKey("gen_ai.request.model");
    static final AttributeKey<Long> GEN_AI_USAGE_INPUT_TOKENS = longKey("gen_ai.usage.input_tokens");
    static final AttributeKey<Long> GEN_AI_USAGE_OUTPUT_TOKENS = longKey("gen_ai.usage.output_tokens");
    static final AttributeKey<Long> GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS = longKey(
            "gen_ai.usage.cache_read.input_tokens");

    // the gateway's own
    static final AttributeKey<String> POOL = stringKey("inference_gateway.pool");
    static final AttributeKey<String> POD = stringKey("inference_gateway.pod");
    static final AttributeKey<String> PICK_REASON = stringKey("inference_gateway.pick.reason");
    static final AttributeKey<Long> PICK_CANDIDATES = longKey("inference_gateway.pick.candidates");
    static final AttributeKey<Long> PICK_EXPECTED_CACHED_TOKENS = longKey(
            "inference_gateway.pick.expected_cached_tokens");
    static final AttributeKey<Long> PICK_ATTEMPT = longKey("inference_gateway.pick.attempt");
    static final AttributeKey<Double> PICK_PREDICTED_TTFT_MS = AttributeKey.doubleKey(
            "inference_gateway.pick.predicted_ttft_ms");
    static final AttributeKey<Double> PICK_PREDICTED_TPOT_MS = AttributeKey.doubleKey(
            "inference_gateway.pick.predicted_tpot_ms");
    static final AttributeKey<Long> SLO_TTFT_MS = longKey("inference_gateway.slo.ttft_ms");
    static final AttributeKey<Long> SLO_TPOT_MS = longKey("inference_gateway.slo.tpot_ms");
    /** met, or the kind of the miss: ttft, tpot, refused (the label of inference_gateway_slo_missed_total). */
    static final AttributeKey<String> SLO_OUTCOME = stringKey("inference_gateway.slo.outcome");
    static final AttributeKey<Boolean> STREAM = AttributeKey.booleanKey("inference_gateway.stream");
    static final AttributeKey<String> ENDING = stringKey("inference_gateway.ending");
    // a global tier's target (docs/global.md)
    static final AttributeKey<String> TARGET = stringKey("inference_gateway.target");
    static final AttributeKey<String> TARGET_REGION = stringKey("inference_gateway.target.region");
    static final AttributeKey<Double> COST = AttributeKey.doubleKey("inference_gateway.cost");
}
