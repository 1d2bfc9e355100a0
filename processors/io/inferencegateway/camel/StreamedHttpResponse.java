package io.inferencegateway.camel;

import java.io.InputStream;

import io.inferencegateway.proxy.StreamingBody;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import org.apache.camel.component.netty.http.OutboundStreamHttpResponse;

/**
 * A response whose body is relayed as it arrives. netty-http's {@code outbound-streamer} handler
 * writes the head of an {@link OutboundStreamHttpResponse} and then pulls its chunks; here the chunks
 * come from a {@link StreamingBody} instead of a blocking InputStream.
 */
final class StreamedHttpResponse extends OutboundStreamHttpResponse {

    private final StreamingBody body;

    /** An HTTP/1.1 response with {@code status} and no headers yet (UpstreamResponse.clientHeaders adds them). */
    StreamedHttpResponse(HttpResponseStatus status, StreamingBody body) {
        // the response passed is read for its version and status only
        super(InputStream.nullInputStream(), new DefaultHttpResponse(HttpVersion.HTTP_1_1, status,
                EmptyHttpHeaders.INSTANCE));
        this.body = body;
    }

    @Override
    public boolean isEndOfInput() {
        return body.isEndOfInput();
    }

    @Override
    public void close() {
        body.close();
    }

    @Override
    @Deprecated
    public HttpContent readChunk(ChannelHandlerContext ctx) throws Exception {
        return body.readChunk(ctx.alloc());
    }

    @Override
    public HttpContent readChunk(ByteBufAllocator allocator) throws Exception {
        return body.readChunk(allocator);
    }

    @Override
    public long length() {
        return body.length();
    }

    @Override
    public long progress() {
        return body.progress();
    }
}
