package io.inferencegateway.proxy;

import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;

/** A model server's answer as it is relayed: its status and headers now, its body as it arrives. */
public record UpstreamResponse(HttpResponse head, StreamingBody body) {

    /**
     * The response head for the client: the upstream status and end-to-end headers. A body of known
     * length keeps its Content-Length; anything else is sent chunked.
     */
    public HttpResponse clientHead(boolean closeAfter) {
        DefaultHttpResponse out = new DefaultHttpResponse(HttpVersion.HTTP_1_1, head.status(), false);
        HopByHopHeaders.copyEndToEnd(head.headers(), out.headers());
        if (!HttpUtil.isContentLengthSet(head)) {
            out.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
        }
        if (closeAfter) {
            out.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
        return out;
    }
}
