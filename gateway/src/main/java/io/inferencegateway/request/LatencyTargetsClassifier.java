package io.inferencegateway.request;

import io.inferencegateway.config.SloConfig;
import io.inferencegateway.config.TenantConfig;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InferenceRequestBuilder;
import io.inferencegateway.domain.LatencyTargets;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.AsciiString;

/**
 * The latency a request must be served within (docs/slo.md), each of the two targets on its own: the
 * {@code x-slo-ttft-ms} / {@code x-slo-tpot-ms} header, else the tenant's {@code slo}, else the pool's {@code slo} for
 * the model or adapter, else the pool's default. A header that is not a whole number of milliseconds in range is a
 * 400 that names it.
 */
public final class LatencyTargetsClassifier implements RequestClassifier {

    public static final String TTFT_HEADER = "x-slo-ttft-ms";
    public static final String TPOT_HEADER = "x-slo-tpot-ms";
    private static final AsciiString TTFT = AsciiString.cached(TTFT_HEADER);
    private static final AsciiString TPOT = AsciiString.cached(TPOT_HEADER);

    @Override
    public void classify(GatewayRequest request, InferenceRequestBuilder into) {
        into.targets(targets(request.pool().config().slo(), request.model(), request.headers(), request.tenant()));
    }

    /** The targets of a request for {@code model} with {@code headers} (or none) from {@code tenant} (or none). */
    static LatencyTargets targets(SloConfig config, String model, HttpHeaders headers, TenantConfig tenant) {
        LatencyTargets asked = LatencyTargets.NONE;
        if (headers != null) {
            try {
                asked = new LatencyTargets(LatencyTargets.parseMillis(TTFT_HEADER, headers.get(TTFT)),
                        LatencyTargets.parseMillis(TPOT_HEADER, headers.get(TPOT)));
            } catch (IllegalArgumentException e) {
                throw GatewayError.invalidRequest(null, e.getMessage());
            }
        }
        return asked.orElse(tenant == null ? null : tenant.slo()).orElse(config.targetsFor(model));
    }
}
