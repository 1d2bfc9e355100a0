package io.inferencegateway.lab.regions;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;

/**
 * One direction of a proxied connection: the chunks read from one side, each written to the other side once its due
 * time has come. A chunk is due its arrival plus the one-way delay at that moment, and never before the chunk ahead
 * of it, so a change of delay keeps the byte order. The end of the stream (the source's close) queues behind the
 * data, as a FIN would. While the link is held (a blackhole) nothing leaves; when it is released, what was held is
 * due one delay later, as if retransmitted when the link came back. Runs on its connection's event loop only.
 */
final class DelayedPipe {

    /** Bytes queued in one direction above which the source is no longer read (TCP's window, roughly). */
    static final int HIGH_WATER_BYTES = 1 << 20;

    private record PendingBytes(ByteBuf bytes, long dueNanos, boolean end, boolean reset) {
    }

    private final EventLoop loop;
    private final AtomicLong forwardedBytes;
    private final Runnable drained;
    private final ArrayDeque<PendingBytes> queue = new ArrayDeque<>();
    private Channel destination;
    private long notBeforeNanos;
    private long lastDueNanos;
    private long queuedBytes;
    private boolean held;
    private boolean ended;
    private ScheduledFuture<?> wakeUp;

    /**
     * @param forwardedBytes counts every byte written to the destination
     * @param drained        runs when the queue has fallen below half the high-water mark, to resume reading
     */
    DelayedPipe(EventLoop loop, AtomicLong forwardedBytes, Runnable drained) {
        this.loop = loop;
        this.forwardedBytes = forwardedBytes;
        this.drained = drained;
    }

    /** The channel to write to, known once it is connected; nothing is written before {@code notBeforeNanos}. */
    void connect(Channel destination, long notBeforeNanos) {
        this.destination = destination;
        this.notBeforeNanos = notBeforeNanos;
        pump();
    }

    /** Queues a chunk read from the source; it takes ownership of {@code bytes}. */
    void offer(ByteBuf bytes, long delayNanos) {
        queuedBytes += bytes.readableBytes();
        enqueue(new PendingBytes(bytes, due(delayNanos), false, false));
    }

    /** The source closed (reset: with an error): the destination is closed likewise once the data ahead is out. */
    void end(long delayNanos, boolean reset) {
        if (!ended) {
            ended = true;
            enqueue(new PendingBytes(Unpooled.EMPTY_BUFFER, due(delayNanos), true, reset));
        }
    }

    /** True while the source should not be read: too much is queued, or the destination cannot take more. */
    boolean full() {
        return queuedBytes > HIGH_WATER_BYTES || destination != null && !destination.isWritable();
    }

    /** Stops writing: what is queued, and what arrives, waits until {@link #release}. */
    void hold() {
        held = true;
        cancelWakeUp();
    }

    /** Writes again; what waited is due no earlier than one delay from now. */
    void release(long delayNanos) {
        held = false;
        long earliest = System.nanoTime() + delayNanos;
        int n = queue.size();
        for (int i = 0; i < n; i++) {
            PendingBytes c = queue.poll();
            queue.add(new PendingBytes(c.bytes(), Math.max(c.dueNanos(), earliest), c.end(), c.reset()));
        }
        lastDueNanos = Math.max(lastDueNanos, earliest);
        pump();
    }

    /** Forgets what is queued (the connection is gone). */
    void discard() {
        cancelWakeUp();
        PendingBytes c;
        while ((c = queue.poll()) != null) {
            c.bytes().release();
        }
        queuedBytes = 0;
    }

    /** Writes what is due, then sleeps until the next chunk is; also the destination's writability callback. */
    void pump() {
        if (held || destination == null || queue.isEmpty()) {
            return;
        }
        long now = System.nanoTime();
        boolean wrote = false;
        PendingBytes head;
        while ((head = queue.peek()) != null && now >= Math.max(head.dueNanos(), notBeforeNanos)) {
            queue.poll();
            if (head.end()) {
                closeDestination(head.reset());
                discard();
                return;
            }
            int size = head.bytes().readableBytes();
            queuedBytes -= size;
            forwardedBytes.addAndGet(size);
            destination.write(head.bytes(), destination.voidPromise());
            wrote = true;
        }
        if (wrote) {
            destination.flush();
        }
        if (head != null) {
            long wait = Math.max(head.dueNanos(), notBeforeNanos) - now;
            cancelWakeUp();
            wakeUp = loop.schedule(this::pump, wait, TimeUnit.NANOSECONDS);
        }
        if (queuedBytes < HIGH_WATER_BYTES / 2 && destination.isWritable()) {
            drained.run();
        }
    }

    /** A reset is passed on as a reset (RST at once); a close once what was written before it is out. */
    private void closeDestination(boolean reset) {
        if (reset) {
            destination.config().setOption(ChannelOption.SO_LINGER, 0);
            destination.close();
        } else {
            destination.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
    }

    private void enqueue(PendingBytes chunk) {
        boolean wasEmpty = queue.isEmpty();
        queue.add(chunk);
        if (wasEmpty) {
            pump();
        }
    }

    private long due(long delayNanos) {
        lastDueNanos = Math.max(System.nanoTime() + delayNanos, lastDueNanos);
        return lastDueNanos;
    }

    private void cancelWakeUp() {
        if (wakeUp != null) {
            wakeUp.cancel(false);
            wakeUp = null;
        }
    }
}
