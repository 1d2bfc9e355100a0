package io.inferencegateway.proxy;

import io.inferencegateway.config.TargetConfig;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.openai.ModelRename;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;

/** Builds the request the gateway sends upstream from the one the client sent. */
public final class UpstreamRequests {

    /** The W3C trace context header. */
    public static final String TRACEPARENT = "traceparent";

    // names and values come from the client's request, already checked by its decoder, or from the gateway
    private static final DefaultHttpHeadersFactory HEADERS = DefaultHttpHeadersFactory.headersFactory()
            .withValidation(false);

    /** The header a cluster gateway reads a request's priority from (flow control's {@code x-gateway-priority}). */
    public static final String PRIORITY = "x-gateway-priority";

    private UpstreamRequests() {
    }

    /**
     * The client's request for a global tier's {@code target} (docs/global.md): its URI under the target's base path
     * and the target's host as Host. A cluster is told the priority the tier resolved, so that its flow control
     * serves the request by the same class; a provider gets its own name for {@code model} in the body and, when it
     * has an API key, that key instead of the client's credential.
     *
     * @param credential the provider's API key, or null to forward the client's {@code Authorization}
     */
    public static FullHttpRequest forTarget(String method, String uri, HttpHeaders clientHeaders, ByteBuf body,
            TargetConfig target, String credential, String model, int priority, String traceparent) {
        ByteBuf sent = body;
        if (target.provider() && !target.remoteModel(model).equals(model)) {
            sent = ModelRename.renamed(body, target.remoteModel(model));
            body.release();
        }
        FullHttpRequest request = forward(method, target.upstreamUri(uri), clientHeaders, sent, target.address(),
                traceparent);
        HttpHeaders headers = request.headers();
        Endpoint a = target.address();
        boolean defaultPort = a.port() == (target.https() ? 443 : 80);
        headers.set(HttpHeaderNames.HOST, defaultPort ? (a.host().indexOf(':') >= 0 ? "[" + a.host() + "]" : a.host())
                : a.toString());
        if (target.provider()) {
            headers.remove(PRIORITY);
            if (credential != null) {
                headers.set(HttpHeaderNames.AUTHORIZATION, "Bearer " + credential);
            }
        } else {
            headers.set(PRIORITY, Integer.toString(priority));
        }
        return request;
    }

    /**
     * The client's request for {@code target}: same method, URI and body bytes (shared, not copied),
     * end-to-end headers only, the target as Host, and the gateway's own trace context when it has one.
     *
     * @param body        the body to send, which the request owns from now on (a retained view of the client's
     *                    buffer: the upstream call releases it, and a failover sends another)
     * @param traceparent the {@code traceparent} to send instead of the client's, or null
     */
    public static FullHttpRequest forward(String method, String uri, HttpHeaders clientHeaders, ByteBuf body,
            Endpoint target, String traceparent) {
        HttpHeaders headers = HEADERS.newHeaders();
        // no trailers: the body is sent with a Content-Length
        FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.valueOf(method), uri,
                body, headers, EmptyHttpHeaders.INSTANCE);
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
