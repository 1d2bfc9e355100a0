package io.inferencegateway.proxy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.openai.OpenAiErrors;
import io.inferencegateway.openai.ResponseModelRename;
import io.inferencegateway.openai.ResponseScanner;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.stream.ChunkedInput;
import io.netty.handler.stream.ChunkedWriteHandler;

/**
 * A response body relayed from a model server to a client as it arrives. The upstream event loop
 * {@link #offer offers} chunks; the client channel's {@link ChunkedWriteHandler} reads them. When the
 * queue is empty {@link #readChunk} returns null, which suspends the writer without blocking a thread;
 * each new chunk resumes it. Reading upstream pauses while too much is queued for a slow client.
 *
 * <p>The common case takes a shorter way: when the upstream connection shares the client's event loop
 * (UpstreamClient places it so), the writer has sent the head and drained the queue, and the client
 * connection takes more, a chunk is written to the client at once, past the writer, with no promise, and
 * the read batch it came in is flushed once when it ends ({@link #readComplete}). Anything else (another
 * loop, a client that does not keep up, the end) goes through the queue and the writer, in order.
 *
 * <p>A small chunk written that way to a chunked response is framed here, its length line, data and CRLF copied
 * into one buffer, and written from the HTTP encoder's own context: it goes on towards the socket (through TLS
 * when there is any) past the encoder, which would have made it three buffers. The head and the last chunk still
 * go through the encoder, so its state stays right.
 */
public final class StreamingBody implements ChunkedInput<HttpContent> {

    /** How a relayed body ended. */
    public enum RelayOutcome { COMPLETED, UPSTREAM_FAILED, CLIENT_GONE }

    /** What the body needs from the upstream connection. */
    interface Upstream {
        void pauseReading();

        void resumeReading();

        void cancel();
    }

    static final long HIGH_WATER_BYTES = 1 << 20;
    static final long LOW_WATER_BYTES = 256 << 10;
    /** Chunks up to this size are framed into one copied buffer; larger ones are left to the encoder. */
    static final int MAX_FRAMED_BYTES = 4096;

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final short CRLF = ('\r' << 8) | '\n';

    private static final int OPEN = 0;
    private static final int FINISHED = 1;
    private static final int FAILED = 2;

    private final Upstream upstream;
    private final boolean eventStream;
    private final Queue<ByteBuf> chunks = new ConcurrentLinkedQueue<>();
    private final AtomicLong queuedBytes = new AtomicLong();
    private final AtomicBoolean resumePending = new AtomicBoolean();
    private final AtomicBoolean ended = new AtomicBoolean();
    private volatile int state = OPEN;
    private volatile GatewayError failure;
    private volatile boolean paused;
    private volatile ChunkedWriteHandler writer;
    private volatile Channel client;
    private volatile ChannelHandlerContext direct; // the writer's context: writes there go on past it, in order
    private volatile ChannelHandlerContext framed; // the encoder's context for a chunked response, else null
    private volatile boolean closeClientAtEnd;
    private volatile Consumer<RelayOutcome> onEnd = outcome -> { };
    private IntConsumer onChunk = bytes -> { }; // set before the first chunk, used on the upstream event loop only
    private ResponseScanner scanner; // set before the first chunk, used on the upstream event loop only
    private boolean discarding; // likewise
    private ResponseModelRename modelRename; // likewise; null unless a model rewrite asks (docs/rollouts.md)

    // touched only on the client channel's event loop
    private boolean lastSent;
    private long progress;
    private boolean pulling; // the writer asked for a chunk: the head is written
    private boolean unflushed;

    StreamingBody(Upstream upstream, boolean eventStream) {
        this.upstream = upstream;
        this.eventStream = eventStream;
    }

    /** Whether the body is a server-sent event stream (a failure then ends it with an error event). */
    public boolean isEventStream() {
        return eventStream;
    }

    /** Called once, when the body ended one way or another. Set before {@link #attach}. */
    public void onEnd(Consumer<RelayOutcome> listener) {
        this.onEnd = listener;
    }

    /** Told the size of every chunk relayed, as it goes. Set before {@link #attach}. */
    public void onChunk(IntConsumer listener) {
        this.onChunk = listener;
    }

    /** Reads every chunk with {@code s} before it is relayed (and relays what it returns). Set before {@link #attach}. */
    public void scanWith(ResponseScanner s) {
        this.scanner = s;
    }

    /**
     * Reads the body to its end with nobody to relay it to: each chunk is scanned (when a scanner is set) and released
     * as it arrives, and the body ends when the model server's answer does (a shadow copy's answer, docs/shadow.md).
     * Call instead of {@link #attach}, before the first chunk.
     */
    public void discard() {
        this.discarding = true;
    }

    /**
     * Gives every chunk's top-level {@code model} another name with {@code r} before it is scanned and relayed. Set
     * before {@link #attach}; the response then cannot keep its Content-Length.
     */
    public void renameModelWith(ResponseModelRename r) {
        this.modelRename = r;
    }

    /**
     * Binds the body to the client channel whose {@link ChunkedWriteHandler} will read it.
     *
     * @param head             the response head the writer sends first, as it goes to the client
     * @param closeClientAtEnd close the client connection once the body is written (the client asked
     *                         for {@code Connection: close})
     */
    public void attach(Channel clientChannel, ChunkedWriteHandler clientWriter, HttpResponse head,
            boolean closeClientAtEnd) {
        this.closeClientAtEnd = closeClientAtEnd;
        this.client = clientChannel;
        this.direct = clientChannel.pipeline().context(clientWriter);
        // netty-http's server pipeline has a plain HttpResponseEncoder (HttpServerInitializerFactory); with any other
        // codec the encoder frames every chunk itself
        this.framed = HttpUtil.isTransferEncodingChunked(head)
                ? clientChannel.pipeline().context(HttpResponseEncoder.class) : null;
        this.writer = clientWriter;
        wake();
    }


    // ---- upstream side -------------------------------------------------------------------------

    void offer(ByteBuf chunk) {
        if (ended.get()) {
            chunk.release();
            return;
        }
        if (modelRename != null) {
            chunk = modelRename.rename(chunk);
            if (!chunk.isReadable()) {
                chunk.release();
                return;
            }
        }
        if (scanner != null) {
            chunk = scanner.scan(chunk);
            if (!chunk.isReadable()) {
                chunk.release();
                return;
            }
        }
        if (discarding) {
            chunk.release();
            return;
        }
        onChunk.accept(chunk.readableBytes());
        if (!writeDirect(chunk)) {
            enqueue(chunk);
        }
    }

    /** Writes {@code chunk} to the client now when nothing is queued before it and the connection takes it. */
    private boolean writeDirect(ByteBuf chunk) {
        ChannelHandlerContext ctx = direct;
        if (ctx == null || !ctx.executor().inEventLoop() || !pulling || lastSent || !chunks.isEmpty()
                || !ctx.channel().isWritable()) {
            return false;
        }
        int n = chunk.readableBytes();
        progress += n;
        // a void promise: HttpObjectEncoder would combine a promise for each part of the chunk; a failed write
        // closes the connection, which ends the body through the writer (close)
        ChannelHandlerContext encoder = framed;
        if (encoder != null && n <= MAX_FRAMED_BYTES) {
            encoder.write(frame(encoder.alloc(), chunk), encoder.voidPromise());
        } else {
            ctx.write(new DefaultHttpContent(chunk), ctx.voidPromise());
        }
        unflushed = true;
        return true;
    }

    /** {@code data} as one HTTP/1.1 chunk: its length in hex, CRLF, the data, CRLF. Releases {@code data}. */
    static ByteBuf frame(ByteBufAllocator allocator, ByteBuf data) {
        int n = data.readableBytes();
        int digits = (Integer.SIZE - Integer.numberOfLeadingZeros(n) + 3) / 4;
        ByteBuf out = allocator.ioBuffer(digits + 2 + n + 2);
        for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
            out.writeByte(HEX[(n >>> shift) & 0xf]);
        }
        out.writeShort(CRLF);
        // copied by the source: Netty 4.2's adaptive buffers copy from a slice through two NIO buffer views, while a
        // slice's getBytes copies memory straight into a buffer that has an address
        data.getBytes(data.readerIndex(), out, out.writerIndex(), n);
        out.writerIndex(out.writerIndex() + n).writeShort(CRLF);
        data.release();
        return out;
    }

    /** The upstream read batch ended: the chunks it wrote directly go out, in one flush. */
    void readComplete() {
        if (unflushed) {
            unflushed = false;
            direct.flush();
        }
    }

    private void enqueue(ByteBuf chunk) {
        chunks.add(chunk);
        if (ended.get()) {
            releaseQueued();
            return;
        }
        if (queuedBytes.addAndGet(chunk.readableBytes()) > HIGH_WATER_BYTES && !paused) {
            paused = true;
            upstream.pauseReading();
        }
        wake();
    }

    void finish() {
        ByteBuf rest = scanner == null ? null : scanner.end();
        if (rest != null) {
            enqueue(rest);
        }
        state = FINISHED;
        if (discarding) {
            end(RelayOutcome.COMPLETED);
            return;
        }
        wake();
    }

    void fail(GatewayError cause) {
        releaseHeldBack();
        failure = cause;
        state = FAILED;
        if (discarding) {
            end(RelayOutcome.UPSTREAM_FAILED);
            return;
        }
        wake();
    }

    private void wake() {
        ChunkedWriteHandler w = writer;
        if (w != null && resumePending.compareAndSet(false, true)) {
            w.resumeTransfer();
        }
    }

    // ---- client side (ChunkedWriteHandler, on the client channel's event loop) -------------------

    @Override
    public HttpContent readChunk(ByteBufAllocator allocator) throws Exception {
        resumePending.set(false);
        pulling = true;
        if (lastSent) {
            return null;
        }
        ByteBuf data = drain(allocator);
        if (data != null) {
            return new DefaultHttpContent(data);
        }
        int s = state;
        if (s == OPEN) {
            return null;
        }
        data = drain(allocator); // chunks offered just before the end
        if (data != null) {
            return new DefaultHttpContent(data);
        }
        lastSent = true;
        if (s == FAILED) {
            if (!eventStream) {
                // a plain body cannot signal a failure in-band: the client must see the connection break
                Channel c = client;
                if (c != null) {
                    c.close();
                }
                throw new IOException("upstream failed mid-response: " + failure.getMessage());
            }
            ByteBuf event = Unpooled.wrappedBuffer(OpenAiErrors.sseEvent(failure));
            progress += event.readableBytes();
            return new DefaultLastHttpContent(event);
        }
        return LastHttpContent.EMPTY_LAST_CONTENT;
    }

    @Override
    @Deprecated
    public HttpContent readChunk(ChannelHandlerContext ctx) throws Exception {
        return readChunk(ctx.alloc());
    }

    /** Everything queued so far as one buffer, so that a burst goes out in one write. */
    private ByteBuf drain(ByteBufAllocator allocator) {
        ByteBuf first = chunks.poll();
        if (first == null) {
            return null;
        }
        ByteBuf next = chunks.poll();
        ByteBuf out = first;
        if (next != null) {
            CompositeByteBuf composite = allocator.compositeBuffer(64);
            composite.addComponent(true, first);
            do {
                composite.addComponent(true, next);
            } while (composite.numComponents() < 64 && (next = chunks.poll()) != null);
            out = composite;
        }
        int n = out.readableBytes();
        progress += n;
        if (queuedBytes.addAndGet(-n) < LOW_WATER_BYTES && paused) {
            paused = false;
            upstream.resumeReading();
        }
        return out;
    }

    @Override
    public boolean isEndOfInput() {
        return lastSent;
    }

    /** Called by the writer when the body was fully written, or when the client went away first. */
    @Override
    public void close() {
        RelayOutcome outcome;
        if (lastSent) {
            outcome = state == FAILED ? RelayOutcome.UPSTREAM_FAILED : RelayOutcome.COMPLETED;
            Channel c = client;
            if (closeClientAtEnd && c != null) {
                c.close();
            }
        } else {
            upstream.cancel();
            outcome = RelayOutcome.CLIENT_GONE;
        }
        end(outcome);
    }

    /** Ends the body without a client having read it (e.g. the response could not be written). */
    public void abandon() {
        if (!ended.get()) {
            upstream.cancel();
            end(RelayOutcome.CLIENT_GONE);
        }
    }

    private void end(RelayOutcome outcome) {
        if (ended.compareAndSet(false, true)) {
            releaseQueued();
            releaseHeldBack();
            onEnd.accept(outcome);
        }
    }

    private void releaseHeldBack() {
        ByteBuf held = scanner == null ? null : scanner.end();
        if (held != null) {
            held.release();
        }
    }

    private void releaseQueued() {
        ByteBuf b;
        while ((b = chunks.poll()) != null) {
            b.release();
        }
    }

    @Override
    public long length() {
        return -1;
    }

    @Override
    public long progress() {
        return progress;
    }
}
