package io.inferencegateway.edge;

import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpRequestDecoder;

/**
 * Netty's request decoder, except that a request with both {@code Transfer-Encoding: chunked} and
 * {@code Content-Length} fails to decode instead of having its Content-Length dropped: two headers that
 * disagree on where the body ends are how requests are smuggled past a proxy in front of the gateway.
 * The failed request reaches {@link ClientConnection}, which answers 400 and closes the connection.
 */
final class StrictRequestDecoder extends HttpRequestDecoder {

    /** Why a request failed to decode when it carried both framing headers. */
    static final class ConflictingFraming extends IllegalArgumentException {
        ConflictingFraming() {
            super("Request has both Content-Length and Transfer-Encoding", null);
        }
    }

    StrictRequestDecoder(int maxInitialLineLength, int maxHeaderSize, int maxChunkSize) {
        super(maxInitialLineLength, maxHeaderSize, maxChunkSize);
    }

    @Override
    protected void handleTransferEncodingChunkedWithContentLength(HttpMessage message) {
        // Netty turns an exception thrown here into a request whose decoder result is this failure
        throw new ConflictingFraming();
    }
}
