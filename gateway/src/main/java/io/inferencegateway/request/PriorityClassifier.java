package io.inferencegateway.request;

import io.inferencegateway.config.FlowControlConfig;
import io.inferencegateway.config.TenantConfig;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InferenceRequestBuilder;
import io.inferencegateway.domain.Priority;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.AsciiString;

/**
 * How much a request matters (docs/configuration.md, "Flow control"): the {@code x-gateway-priority} header
 * ({@code critical}, {@code standard}, {@code sheddable} or an integer) unless the pool's
 * {@code flowControl.priorityHeader} is off, else the authenticated tenant's {@code priority}, else the pool's
 * priority for the model or adapter, else its {@code defaultPriority}. A header that is none of those is a 400.
 */
public final class PriorityClassifier implements RequestClassifier {

    public static final String HEADER = "x-gateway-priority";
    // as Netty looks it up: an AsciiString keeps its hash, a String's is computed again on every lookup
    private static final AsciiString PRIORITY = AsciiString.cached(HEADER);

    @Override
    public void classify(GatewayRequest request, InferenceRequestBuilder into) {
        into.priority(priority(request.pool().config().flowControl(), request.model(), request.headers(),
                request.tenant()));
    }

    /** The priority of a request for {@code model} with {@code headers} (or none) from {@code tenant} (or none). */
    static int priority(FlowControlConfig config, String model, HttpHeaders headers, TenantConfig tenant) {
        String asked = config.priorityHeader() && headers != null ? headers.get(PRIORITY) : null;
        if (asked != null) {
            Integer p = Priority.parse(asked);
            if (p == null) {
                throw GatewayError.invalidRequest(null, "Header " + HEADER + " must be critical, standard, "
                        + "sheddable or an integer within +-" + Priority.LIMIT + ", got '" + asked + "'");
            }
            return p;
        }
        return tenant != null ? tenant.priority() : config.priorityOf(model);
    }
}
