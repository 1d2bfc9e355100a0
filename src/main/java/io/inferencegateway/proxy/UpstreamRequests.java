package io.inferencegateway.proxy;

import io.inferencegateway.domain.Endpoint;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;

/** Builds the request the gateway sends upstream from the one the client sent. */
public final class UpstreamRequests {

    /** The W3C trace context header. */
    public static final String TRACEPARENT = "traceparent";

    private UpstreamRequests() {
    }

    /**
     * The client's request for {@code target}: same method, URI and body bytes (shared, not copied),
     * end-to-end headers only, and the target as Host.
     */
    public static FullHttpRequest forward(String method, String uri, HttpHeaders clientHeaders, ByteBuf body,
            Endpoint target) {
        return forward(method, uri, clientHeaders, body, target, null);
    }

    /** Like {@link #forward(String, String, HttpHeaders, ByteBuf, Endpoint)}, with the gateway's own trace context. */
    public static FullHttpRequest forward(String method, String uri, HttpHeaders clientHeaders, ByteBuf body,
            Endpoint target, String traceparent) {
        FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.valueOf(method), uri,
                body.retainedDuplicate(), false);
        HttpHeaders headers = request.headers();
        if (clientHeaders != null) {
            HopByHopHeaders.copyEndToEnd(clientHeaders, headers, HttpHeaderNames.HOST, HttpHeaderNames.CONTENT_LENGTH);
        }
        headers.set(HttpHeaderNames.HOST, target.toString());
        if (traceparent != null) {
            headers.set(TRACEPARENT, traceparent);
        }
        headers.setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
        return request;
    }
}
