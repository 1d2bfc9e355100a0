package io.inferencegateway.edge;

import java.util.function.LongSupplier;
import java.util.function.Supplier;

import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.openai.OpenAiErrors;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;

/**
 * Refuses a request body over {@code spec.bbr.maxRequestBodyBytes} with an OpenAI-format 413 before
 * it is buffered: at once when Content-Length says so, else as soon as the chunks pass the limit.
 * Installed as a netty-http decoder (through the Camel adapter camel/PerConnectionHandler), so it sits between the
 * HTTP decoder and the aggregator; each connection gets its own handler from {@link #get()}.
 */
public final class RequestSizeGuard implements Supplier<ChannelHandler> {

    private final LongSupplier maxRequestBodyBytes;

    /** @param maxRequestBodyBytes the limit now ({@code spec.bbr.maxRequestBodyBytes}, which a reload may change) */
    public RequestSizeGuard(LongSupplier maxRequestBodyBytes) {
        this.maxRequestBodyBytes = maxRequestBodyBytes;
    }

    /** A new connection's handler, with the limit as it is now. */
    @Override
    public ChannelHandler get() {
        return new Guard(maxRequestBodyBytes.getAsLong());
    }

    private static final class Guard extends ChannelInboundHandlerAdapter {
        private final long limit;
        private long received;
        private boolean refusing;

        Guard(long limit) {
            this.limit = limit;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (refusing) {
                ReferenceCountUtil.release(msg);
                return;
            }
            if (msg instanceof HttpObject o && o.decoderResult().isFailure()) {
                // not a request to measure: ClientConnection answers it
                ctx.fireChannelRead(msg);
                return;
            }
            if (msg instanceof HttpRequest request) {
                received = 0;
                if (HttpUtil.getContentLength(request, -1L) > limit) {
                    refuse(ctx, msg);
                    return;
                }
            }
            if (msg instanceof HttpContent content) {
                received += content.content().readableBytes();
                if (received > limit) {
                    refuse(ctx, msg);
                    return;
                }
            }
            ctx.fireChannelRead(msg);
        }

        private void refuse(ChannelHandlerContext ctx, Object msg) {
            refusing = true;
            ReferenceCountUtil.release(msg);
            // drop what the aggregator holds of this request, so the close does not look premature to it
            if (ctx.pipeline().get("aggregator") != null) {
                ctx.pipeline().remove("aggregator");
            }
            byte[] json = OpenAiErrors.body(GatewayError.requestTooLarge(limit));
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                    HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, Unpooled.wrappedBuffer(json));
            response.headers()
                    .set(HttpHeaderNames.CONTENT_TYPE, "application/json")
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, json.length)
                    .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            // from the channel, not ctx: the encoder sits after this decoder in the pipeline
            ctx.channel().writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
