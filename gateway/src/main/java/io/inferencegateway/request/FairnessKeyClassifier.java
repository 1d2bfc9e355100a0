package io.inferencegateway.request;

import io.inferencegateway.config.TenantConfig;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InferenceRequestBuilder;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.AsciiString;

/**
 * Whose turn a request takes in its pool's queue among requests of its priority (docs/configuration.md, "Fairness"):
 * the {@code x-gateway-fairness-id} header, else the tenant's name, else none (one shared key). A key longer than
 * {@link #MAX_LENGTH} characters is a 400, so that a key cannot pin much memory.
 */
public final class FairnessKeyClassifier implements RequestClassifier {

    public static final String HEADER = "x-gateway-fairness-id";
    /** Longest fairness key taken. */
    public static final int MAX_LENGTH = 128;
    private static final AsciiString FAIRNESS = AsciiString.cached(HEADER);

    @Override
    public void classify(GatewayRequest request, InferenceRequestBuilder into) {
        into.fairnessKey(fairnessKey(request.headers(), request.tenant()));
    }

    /** The key of a request with {@code headers} (or none) from {@code tenant} (or none); null: the shared one. */
    static String fairnessKey(HttpHeaders headers, TenantConfig tenant) {
        String key = headers == null ? null : headers.get(FAIRNESS);
        if (key == null && tenant != null) {
            return tenant.name();
        }
        if (key != null && key.length() > MAX_LENGTH) {
            throw GatewayError.invalidRequest(null, "Header " + HEADER + " is longer than " + MAX_LENGTH
                    + " characters");
        }
        return key;
    }
}
