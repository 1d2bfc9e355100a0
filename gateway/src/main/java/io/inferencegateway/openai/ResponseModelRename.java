package io.inferencegateway.openai;

import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.core.io.JsonStringEncoder;

import io.inferencegateway.domain.ByteScan;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;

/**
 * Gives a relayed response's top-level {@code model} another name as it passes, chunk by chunk, without buffering: a
 * model rewrite's {@code responseModel: requested} (docs/rollouts.md), in a JSON body and in every event of a stream.
 * The value may be cut anywhere by a chunk boundary: its old bytes are dropped as they come, the new name goes out
 * where the old began. The rest of each chunk is relayed as slices of it, and a chunk without the field as it is.
 *
 * <p>A byte-level walk, not a parser: it follows strings (and their escapes) and nesting, and takes a string
 * {@code "model"} at the first level followed by {@code :} and a string. In an event stream a line break ends any
 * string and a blank line the event's nesting, so that a line that is no JSON cannot throw it off for the next.
 * One instance per response, on one thread.
 */
public final class ResponseModelRename {

    private static final byte[] KEY = "model".getBytes(StandardCharsets.US_ASCII);

    private enum ScanStage { SCAN, AFTER_KEY, AFTER_COLON, VALUE }

    private final byte[] quotedName;
    private final boolean eventStream;
    private ScanStage stage = ScanStage.SCAN;
    private int depth;
    private boolean inString;
    private boolean escaped;
    private int keyMatched = -1; // characters of "model" matched in the current first-level string, -1 when none
    private boolean lineBreak; // the last byte (but '\r') was '\n'

    /**
     * @param name        what the response's {@code model} must say
     * @param eventStream whether the body is a server-sent event stream
     */
    public ResponseModelRename(String name, boolean eventStream) {
        this.quotedName = ('"' + new String(JsonStringEncoder.getInstance().quoteAsString(name)) + '"')
                .getBytes(StandardCharsets.UTF_8);
        this.eventStream = eventStream;
    }

    /** Takes ownership of {@code chunk} and returns what to relay in its place. */
    public ByteBuf rename(ByteBuf chunk) {
        int start = chunk.readerIndex();
        int end = chunk.writerIndex();
        CompositeByteBuf out = null;
        int run = stage == ScanStage.VALUE ? -1 : start; // where the bytes to keep began; -1 while dropping
        for (int i = start; i < end; i++) {
            byte b = chunk.getByte(i);
            if (stage == ScanStage.VALUE && eventStream && b == '\n') {
                stage = ScanStage.SCAN; // a value no line ends in is no JSON string: keep what follows
                run = i;
            }
            if (stage == ScanStage.VALUE) {
                if (escaped) {
                    escaped = false;
                } else if (b == '\\') {
                    escaped = true;
                } else if (b == '"') {
                    stage = ScanStage.SCAN;
                    run = i + 1;
                }
                continue;
            }
            if (step(b)) { // the opening quote of the value to replace
                if (out == null) {
                    out = Unpooled.compositeBuffer();
                }
                if (run >= 0 && run < i) {
                    out.addComponent(true, chunk.retainedSlice(run, i - run));
                }
                out.addComponent(true, Unpooled.wrappedBuffer(quotedName));
                run = -1;
            }
        }
        if (out == null && run == start) {
            return chunk; // nothing replaced, nothing dropped
        }
        if (out == null) {
            out = Unpooled.compositeBuffer();
        }
        if (run >= 0 && run < end) {
            out.addComponent(true, chunk.retainedSlice(run, end - run));
        }
        chunk.release();
        return out;
    }

    /** One byte outside a replaced value; true when it opens the value to replace (the stage is then VALUE). */
    private boolean step(byte b) {
        if (eventStream && b == '\n') {
            inString = false; // no JSON string spans lines
            escaped = false;
            stage = ScanStage.SCAN;
            keyMatched = -1;
            if (lineBreak) {
                depth = 0; // a blank line ends the event
            }
            lineBreak = true;
            return false;
        }
        if (b != '\r') {
            lineBreak = false;
        }
        if (inString) {
            if (escaped) {
                escaped = false;
                keyMatched = -1;
            } else if (b == '\\') {
                escaped = true;
                keyMatched = -1;
            } else if (b == '"') {
                inString = false;
                if (keyMatched == KEY.length) {
                    stage = ScanStage.AFTER_KEY;
                }
                keyMatched = -1;
            } else if (keyMatched >= 0) {
                keyMatched = keyMatched < KEY.length && KEY[keyMatched] == b ? keyMatched + 1 : -1;
            }
            return false;
        }
        if (ByteScan.isJsonSpace(b)) {
            return false;
        }
        if (stage == ScanStage.AFTER_KEY) {
            if (b == ':') {
                stage = ScanStage.AFTER_COLON;
                return false;
            }
            stage = ScanStage.SCAN; // "model" was a value
        } else if (stage == ScanStage.AFTER_COLON) {
            if (b == '"') {
                stage = ScanStage.VALUE;
                escaped = false;
                return true;
            }
            stage = ScanStage.SCAN; // a model that is no string: left as it is
        }
        switch (b) {
            case '"' -> {
                inString = true;
                keyMatched = depth == 1 ? 0 : -1;
            }
            case '{', '[' -> depth++;
            case '}', ']' -> depth--;
            default -> {
            }
        }
        return false;
    }
}
