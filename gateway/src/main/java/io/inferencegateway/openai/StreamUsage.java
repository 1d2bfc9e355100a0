package io.inferencegateway.openai;

import java.nio.charset.StandardCharsets;

import io.inferencegateway.domain.InferenceRequest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * A pool's {@code streamUsage} option: asks the model server to end a chat or completion stream with its usage, when
 * the client did not ask for it itself, so that the gateway can count the stream's tokens (the
 * {@link ResponseScanner} then removes that chunk again, and the client sees the stream it asked for).
 */
public final class StreamUsage {

    private static final byte[] FIELD = "\"stream_options\":{\"include_usage\":true},".getBytes(StandardCharsets.US_ASCII);

    private StreamUsage() {
    }

    /**
     * Whether to ask a stream on a route that knows {@code stream_options} (its dispatch-table line says
     * {@code streamUsage=true}) for its usage: when its client sent no options of its own (a client's own options are
     * left as they are, and its stream is not changed).
     */
    public static boolean applies(InferenceRequest request) {
        return request.stream() && !request.streamOptions();
    }

    /**
     * The body with {@code stream_options.include_usage} added as its first field; the client's bytes are shared,
     * not copied. The caller releases the result; {@code body} is retained by it.
     */
    public static ByteBuf withUsage(ByteBuf body) {
        int start = body.readerIndex();
        int end = body.writerIndex();
        int brace = start;
        while (brace < end && body.getByte(brace) != '{') {
            brace++;
        }
        if (brace == end) {
            return body.retainedDuplicate(); // not an object: the parser would have refused it
        }
        int afterBrace = brace + 1;
        return Unpooled.wrappedBuffer(body.retainedSlice(start, afterBrace - start), Unpooled.wrappedBuffer(FIELD),
                body.retainedSlice(afterBrace, end - afterBrace));
    }
}
