package io.inferencegateway.proxy;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;

/** A model server's answer as it is relayed: its status and headers now, its body as it arrives. */
public record UpstreamResponse(HttpResponse head, StreamingBody body) {

    /**
     * Puts the client's response headers into {@code out}: the upstream end-to-end headers. A body of known length
     * keeps its Content-Length; anything else is sent chunked.
     */
    public void clientHeaders(HttpHeaders out, boolean closeAfter) {
        HopByHopHeaders.copyEndToEnd(head.headers(), out);
        if (!HttpUtil.isContentLengthSet(head)) {
            out.set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
        }
        if (closeAfter) {
            out.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
    }
}
