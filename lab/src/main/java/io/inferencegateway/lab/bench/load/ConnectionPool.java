package io.inferencegateway.lab.bench.load;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;

/**
 * Keep-alive HTTP/1.1 connections to one target. HTTP/1.1 carries one request at a time per
 * connection, so there are as many connections as streams in flight, up to a cap; past the cap,
 * requests queue here. Every method runs on the generator's single event loop, so no locks.
 */
final class ConnectionPool {

    /** Someone waiting for a connection. */
    interface Waiter {
        void onChannel(Channel channel);

        void onConnectFailure(Throwable cause);
    }

    private final Bootstrap bootstrap;
    private final InetSocketAddress target;
    private final int maxConnections;
    private final ArrayDeque<Channel> idle = new ArrayDeque<>();
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    private int open;
    private int opened;

    ConnectionPool(Bootstrap bootstrap, InetSocketAddress target, int maxConnections) {
        this.bootstrap = bootstrap;
        this.target = target;
        this.maxConnections = maxConnections;
    }

    void acquire(Waiter waiter) {
        Channel channel;
        while ((channel = idle.pollFirst()) != null) {
            if (channel.isActive()) {
                waiter.onChannel(channel);
                return;
            }
        }
        if (open < maxConnections) {
            connect(waiter);
        } else {
            waiters.addLast(waiter);
        }
    }

    /** Returns a connection whose last response ended cleanly and that may be reused. */
    void release(Channel channel) {
        if (!channel.isActive()) {
            return; // its close listener does the accounting
        }
        Waiter next = waiters.pollFirst();
        if (next != null) {
            next.onChannel(channel);
        } else {
            idle.addFirst(channel); // most recently used first: keeps few connections busy and warm
        }
    }

    void closeIdle() {
        Channel channel;
        while ((channel = idle.pollFirst()) != null) {
            channel.close();
        }
    }

    int opened() {
        return opened;
    }

    private void connect(Waiter waiter) {
        open++;
        opened++;
        bootstrap.connect(target).addListener((ChannelFuture f) -> {
            if (f.isSuccess()) {
                Channel channel = f.channel();
                channel.closeFuture().addListener(closed -> onClosed(channel));
                waiter.onChannel(channel);
            } else {
                open--;
                waiter.onConnectFailure(f.cause());
                serveWaiters();
            }
        });
    }

    private void onClosed(Channel channel) {
        open--;
        idle.remove(channel);
        serveWaiters();
    }

    private void serveWaiters() {
        while (!waiters.isEmpty() && open < maxConnections) {
            connect(waiters.pollFirst());
        }
    }
}
