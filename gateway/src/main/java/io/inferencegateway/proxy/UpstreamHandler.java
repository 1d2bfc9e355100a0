package io.inferencegateway.proxy;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.util.ReferenceCountUtil;

/** Hands what one upstream connection reads to the call it currently carries. */
final class UpstreamHandler extends ChannelInboundHandlerAdapter {

    /** Its name in the connection's pipeline. */
    static final String NAME = "call";

    private Channel channel;
    private UpstreamCall call;
    private long idleSinceNanos;

    /** The handler of an upstream connection. */
    static UpstreamHandler of(Channel ch) {
        return (UpstreamHandler) ch.pipeline().get(NAME);
    }

    /** The connection this handler reads for. */
    Channel channel() {
        return channel;
    }

    /** Since when the connection carries no call ({@link System#nanoTime}): since it opened, or its last call ended. */
    long idleSinceNanos() {
        return idleSinceNanos;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        channel = ctx.channel();
        idleSinceNanos = System.nanoTime();
    }

    void begin(UpstreamCall c) {
        this.call = c;
    }

    void end() {
        this.call = null;
        idleSinceNanos = System.nanoTime();
    }

    boolean carries(UpstreamCall c) {
        return call == c;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        UpstreamCall c = call;
        if (c == null) {
            // nothing asked for this: a server talking out of turn cannot be trusted with the next call
            ReferenceCountUtil.release(msg);
            ctx.close();
            return;
        }
        if (msg instanceof HttpResponse head) {
            c.onHeaders(head);
        }
        if (msg instanceof HttpContent content) {
            c.onContent(content);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        UpstreamCall c = call;
        if (c != null) {
            c.onReadComplete();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        UpstreamCall c = call;
        call = null;
        if (c != null) {
            c.onClosed(null);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        UpstreamCall c = call;
        call = null;
        if (c != null) {
            c.onClosed(cause);
        }
        ctx.close();
    }
}
