package io.inferencegateway.lab.regions;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;

/**
 * One client connection of a {@link DelayProxy} and its connection to the target, both on one event loop, with a
 * {@link DelayedPipe} each way. The target is dialled one delay after the accept (the SYN's trip), and the client's
 * first bytes reach it no sooner than two delays after that connect (the SYN-ACK back, the data out), so a request on
 * a fresh connection costs four one-way delays and one on a kept-alive connection two. A target that refuses is passed
 * on as a reset of the client connection, one delay later. Runs on its event loop only.
 */
final class ProxiedConnection {

    private static final int CONNECT_TIMEOUT_MILLIS = 10_000;

    private final DelayProxy proxy;
    private final Channel client;
    private final EventLoop loop;
    private final DelayedPipe toTarget;
    private final DelayedPipe toClient;
    private Channel target;
    private boolean connecting;
    private boolean connectWhenReleased;
    private boolean held;
    private boolean finished;

    ProxiedConnection(DelayProxy proxy, Channel client) {
        this.proxy = proxy;
        this.client = client;
        this.loop = client.eventLoop();
        this.toTarget = new DelayedPipe(loop, proxy.bytesToTargetCounter(), this::resumeClientReads);
        this.toClient = new DelayedPipe(loop, proxy.bytesToClientCounter(), this::resumeTargetReads);
        client.pipeline().addLast(new ConnectionEnd(true));
        client.closeFuture().addListener(f -> finishIfBothClosed());
    }

    /** The client connection is accepted: read it, and dial the target after one delay (later while held). */
    void start(boolean heldAtStart) {
        held = heldAtStart;
        if (held) {
            toTarget.hold();
            toClient.hold();
            connectWhenReleased = true;
        } else {
            resumeClientReads();
            scheduleConnect();
        }
    }

    /** Blackhole: nothing read, nothing written, in either direction; the connections stay open. */
    void hold() {
        held = true;
        client.config().setAutoRead(false);
        if (target != null) {
            target.config().setAutoRead(false);
        }
        toTarget.hold();
        toClient.hold();
    }

    /** The link is back: what was held goes on one delay from now, and a connection never dialled is dialled. */
    void release() {
        held = false;
        long delay = proxy.delayNanos();
        toTarget.release(delay);
        toClient.release(delay);
        resumeClientReads();
        resumeTargetReads();
        if (connectWhenReleased) {
            connectWhenReleased = false;
            scheduleConnect();
        }
    }

    /** Both connections are reset (RST), whatever is queued is dropped. */
    void reset() {
        finished = true; // before the closes, so that a connect in flight is dropped too
        resetChannel(client);
        if (target != null) {
            resetChannel(target);
        }
        toTarget.discard();
        toClient.discard();
        proxy.forget(this);
    }

    private void scheduleConnect() {
        connecting = true;
        loop.schedule(this::connect, proxy.delayNanos(), TimeUnit.NANOSECONDS);
    }

    private void connect() {
        if (finished || !client.isOpen()) {
            connecting = false;
            finishIfBothClosed();
            return;
        }
        if (held) {
            connecting = false;
            connectWhenReleased = true;
            return;
        }
        InetSocketAddress address = proxy.target();
        ChannelFuture dialled = new Bootstrap().group(loop).channel(DelayProxy.socketChannelClass())
                .option(ChannelOption.AUTO_READ, false)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MILLIS)
                .handler(new ConnectionEnd(false))
                .connect(address);
        dialled.addListener(f -> {
            connecting = false;
            if (!f.isSuccess()) {
                proxy.countTargetConnectFailure();
                loop.schedule(() -> resetChannel(client), proxy.delayNanos(), TimeUnit.NANOSECONDS);
                return;
            }
            target = dialled.channel();
            target.closeFuture().addListener(closed -> finishIfBothClosed());
            if (finished || !client.isOpen()) {
                target.close();
                return;
            }
            toTarget.connect(target, System.nanoTime() + 2 * proxy.delayNanos());
            toClient.connect(client, 0);
            if (held) {
                target.config().setAutoRead(false);
            } else {
                resumeTargetReads();
            }
        });
    }

    private void resumeClientReads() {
        if (!held && client.isActive()) {
            client.config().setAutoRead(!toTarget.full());
        }
    }

    private void resumeTargetReads() {
        if (!held && target != null && target.isActive()) {
            target.config().setAutoRead(!toClient.full());
        }
    }

    private void finishIfBothClosed() {
        if (finished || client.isOpen() || connecting || target != null && target.isOpen()) {
            return;
        }
        finished = true;
        toTarget.discard();
        toClient.discard();
        proxy.forget(this);
    }

    private static void resetChannel(Channel channel) {
        if (channel.isOpen()) {
            channel.config().setOption(ChannelOption.SO_LINGER, 0);
            channel.close();
        }
    }

    /** The handler of either end: what it reads goes into the pipe toward the other end. */
    private final class ConnectionEnd extends ChannelInboundHandlerAdapter {

        private final boolean isClient;
        private boolean failed;

        ConnectionEnd(boolean isClient) {
            this.isClient = isClient;
        }

        private DelayedPipe outgoing() {
            return isClient ? toTarget : toClient;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            DelayedPipe pipe = outgoing();
            pipe.offer((ByteBuf) msg, proxy.delayNanos());
            if (pipe.full()) {
                ctx.channel().config().setAutoRead(false);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            outgoing().end(proxy.delayNanos(), failed);
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            (isClient ? toClient : toTarget).pump();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            failed = true; // a reset by the peer, mostly: passed on as a reset
            ctx.close();
        }
    }
}
