package io.inferencegateway.shadow;

import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.pool.ModelPool;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaders;

/**
 * What a shadow copy is made of: the client's request as the primary pool took it. Taken on the request path, sent
 * later ({@link ShadowTraffic#send}); the copy owns {@code body}, a retained view of the client's buffer that outlives
 * the client's exchange, and releases it however the copy ends.
 *
 * @param pool     the primary pool, whose {@code shadow} section names the candidate
 * @param request  the parsed request, for the candidate pool's policy
 * @param askUsage ask a stream for its usage ({@code stream_options.include_usage}), so that its tokens are counted
 */
public record ShadowCopy(ModelPool pool, InferenceRequest request, String method, String uri, HttpHeaders headers,
        ByteBuf body, String requestId, boolean askUsage) {
}
