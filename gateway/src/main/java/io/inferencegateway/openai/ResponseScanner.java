package io.inferencegateway.openai;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import io.inferencegateway.domain.ByteScan;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.ByteProcessor;
import io.netty.util.concurrent.FastThreadLocal;

/**
 * Reads a model server's response as it is relayed, chunk by chunk, without buffering it: finds the first streamed
 * event that carries generated content (time to first token), and every {@code usage} object (the last one wins: a
 * stream's final chunk, a plain body's field, the Responses API's {@code response.completed}). Optionally removes the
 * usage-only event of a stream whose client did not ask for it (the gateway asked instead, see {@code streamUsage}).
 *
 * <p>It is a byte-level matcher, not a JSON parser: it looks for {@code "usage":} followed by an object, and for
 * {@code "content":}, {@code "text":}, {@code "delta":}, {@code "reasoning_content":} or {@code "arguments":} followed
 * by a non-empty string (inside a JSON string quotes are escaped, so none of these can match there). Only the usage object itself,
 * at most {@value #MAX_USAGE_BYTES} bytes, is copied and parsed. One instance per response, on one thread.
 */
public final class ResponseScanner {

    /** What the scanner found. */
    public interface Findings {
        /** The first event carrying generated content passed. */
        void firstContent();

        /** A usage object: prompt, completion and cached prompt tokens (-1 when absent). */
        void usage(int input, int output, int cached);
    }

    static final int MAX_USAGE_BYTES = 4096;

    private static final JsonFactory JSON = new JsonFactory();
    private static final byte[] USAGE = bytes("\"usage\":");
    private static final byte[][] CONTENT = {bytes("\"content\":"), bytes("\"text\":"), bytes("\"delta\":"),
            bytes("\"reasoning_content\":"), bytes("\"arguments\":")};

    private final Findings findings;
    private final boolean watchContent;
    private final boolean stripUsageEvents;
    private int usageMatched;
    private final int[] contentMatched = new int[CONTENT.length];
    private boolean contentFound;
    // after a content field name: 1 = waiting for the string's opening quote, 2 = for its first character
    private int contentStage;
    private boolean awaitingBrace; // "usage": matched; waiting for '{' after optional whitespace
    // the usage object being captured
    private byte[] capture;
    private int captured;
    private int depth;
    private boolean inString;
    private boolean escaped;
    // event boundaries (strip mode only)
    private ByteBuf pending; // the unfinished event, held back until it ends
    private boolean eventHasUsage;
    private int newlines; // consecutive '\n' (a '\r' before one does not break the run)
    /** Per thread (scanners run on event loops), so that an open stream holds no buffer of its own. */
    private static final FastThreadLocal<byte[]> SCRATCH = new FastThreadLocal<>() {
        @Override
        protected byte[] initialValue() {
            return new byte[2048];
        }
    };
    // ByteBuf.forEachByte walks the bytes without the bounds and reference-count check getByte makes for each
    private final ByteProcessor eventEnd = b -> { // stops at the second '\n' of a blank line (strip mode)
        step(b);
        if (b == '\n') {
            newlines++;
        } else if (b != '\r') {
            newlines = 0;
        }
        if (newlines == 2) {
            newlines = 0;
            return false;
        }
        return true;
    };

    /**
     * @param eventStream      whether the body is a server-sent event stream (content is then looked for)
     * @param stripUsageEvents remove every event that carries a usage object (only for event streams)
     */
    public ResponseScanner(boolean eventStream, boolean stripUsageEvents, Findings findings) {
        this.findings = findings;
        this.watchContent = eventStream;
        this.stripUsageEvents = eventStream && stripUsageEvents;
    }

    /**
     * Scans the next chunk. Takes ownership of {@code chunk} and returns what to relay: the chunk itself, or, when
     * stripping, the complete events in it minus the usage events (possibly empty), the rest held back.
     */
    public ByteBuf scan(ByteBuf chunk) {
        if (!stripUsageEvents) {
            // copied a piece at a time into the thread's scratch array and walked there: a plain array loop, where
            // forEachByte on a slice of a pooled buffer makes two or three calls for every byte; while nothing is
            // being matched, only a quote can start a match, and the bytes before the next one are skipped
            byte[] scratch = SCRATCH.get();
            int end = chunk.writerIndex();
            for (int i = chunk.readerIndex(); i < end; i += scratch.length) {
                int n = Math.min(scratch.length, end - i);
                chunk.getBytes(i, scratch, 0, n);
                for (int k = 0; k < n; k++) {
                    if (idle()) {
                        k = ByteScan.indexOf(scratch, k, n, (byte) '"');
                        if (k == n) {
                            break;
                        }
                    }
                    step(scratch[k]);
                }
            }
            return chunk;
        }
        return strip(chunk);
    }

    /** The end of the body: returns what is still held back (an unterminated last event), or null. */
    public ByteBuf end() {
        ByteBuf rest = pending;
        pending = null;
        return rest;
    }

    /**
     * Relays the chunk's complete events but those with usage. A chunk of whole events none of which is dropped (the
     * common case) is returned as it is; otherwise the kept runs of it are slices of it, and an event that began in an
     * earlier chunk is joined to its held-back start.
     */
    private ByteBuf strip(ByteBuf chunk) {
        CompositeByteBuf out = null;
        int start = chunk.readerIndex();
        int end = chunk.writerIndex();
        int from = start; // where the current event began
        int run = start; // where the run of kept events not yet added to out began
        int i;
        while (from < end && (i = chunk.forEachByte(from, end - from, eventEnd)) >= 0) {
            if (pending != null) {
                ByteBuf event = Unpooled.wrappedBuffer(pending, chunk.retainedSlice(from, i + 1 - from));
                pending = null;
                if (eventHasUsage) {
                    event.release();
                } else {
                    out = add(out, event);
                }
                run = i + 1;
            } else if (eventHasUsage) {
                if (run < from) {
                    out = add(out, chunk.retainedSlice(run, from - run));
                }
                run = i + 1;
            }
            eventHasUsage = false;
            from = i + 1;
        }
        if (out == null && run == start && from == end) {
            return chunk;
        }
        if (run < from) {
            out = add(out, chunk.retainedSlice(run, from - run));
        }
        if (from < end) {
            ByteBuf rest = chunk.retainedSlice(from, end - from);
            pending = pending == null ? rest : Unpooled.wrappedBuffer(pending, rest);
        }
        chunk.release();
        return out == null ? Unpooled.EMPTY_BUFFER : out;
    }

    private static CompositeByteBuf add(CompositeByteBuf out, ByteBuf part) {
        CompositeByteBuf c = out == null ? Unpooled.compositeBuffer() : out;
        return c.addComponent(true, part);
    }

    private void step(byte b) {
        if (capture != null) {
            capture(b);
            return;
        }
        if (awaitingBrace) {
            if (b == '{') {
                awaitingBrace = false;
                startCapture();
                capture(b);
                return;
            }
            if (!ByteScan.isJsonSpace(b)) {
                awaitingBrace = false; // "usage":null
            }
        }
        if (usageMatched == 0 && b != '"' && (contentFound || !watchContent)) {
            return; // most bytes: nothing can start or continue here
        }
        usageMatched = advance(USAGE, usageMatched, b);
        if (usageMatched == USAGE.length) {
            usageMatched = 0;
            awaitingBrace = true;
        }
        if (watchContent && !contentFound) {
            if (contentStage == 2) {
                contentStage = 0;
                if (b != '"') {
                    contentFound = true;
                    findings.firstContent();
                    return;
                }
            } else if (contentStage == 1) {
                if (b == '"') {
                    contentStage = 2;
                    return;
                }
                if (!ByteScan.isJsonSpace(b)) {
                    contentStage = 0; // not a string (null, an object, an array)
                }
            }
            for (int p = 0; p < CONTENT.length; p++) {
                int m = advance(CONTENT[p], contentMatched[p], b);
                if (m == CONTENT[p].length) {
                    contentStage = 1;
                    m = 0;
                }
                contentMatched[p] = m;
            }
        }
    }

    /** Nothing is being matched or captured: {@link #step} passes over every byte but a quote. */
    private boolean idle() {
        return capture == null && !awaitingBrace && usageMatched == 0 && (contentFound || !watchContent);
    }

    /** One step of matching {@code pattern}, whose only repeated byte is its leading quote. */
    private static int advance(byte[] pattern, int matched, byte b) {
        if (pattern[matched] == b) {
            return matched + 1;
        }
        return b == '"' ? 1 : 0;
    }

    private void startCapture() {
        capture = new byte[256];
        captured = 0;
        depth = 0;
        inString = false;
        escaped = false;
    }

    private void capture(byte b) {
        if (captured == capture.length) {
            if (capture.length >= MAX_USAGE_BYTES) {
                capture = null; // not a usage object we understand
                return;
            }
            byte[] grown = new byte[capture.length * 2];
            System.arraycopy(capture, 0, grown, 0, captured);
            capture = grown;
        }
        capture[captured++] = b;
        if (inString) {
            if (escaped) {
                escaped = false;
            } else if (b == '\\') {
                escaped = true;
            } else if (b == '"') {
                inString = false;
            }
            return;
        }
        if (b == '"') {
            inString = true;
        } else if (b == '{') {
            depth++;
        } else if (b == '}' && --depth == 0) {
            byte[] object = capture;
            int length = captured;
            capture = null;
            eventHasUsage = true;
            parseUsage(object, length);
        }
    }

    private void parseUsage(byte[] object, int length) {
        int input = -1;
        int output = -1;
        int cached = -1;
        try (JsonParser p = JSON.createParser(object, 0, length)) {
            p.nextToken();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                switch (field) {
                    case "prompt_tokens", "input_tokens" -> input = intValue(p, value);
                    case "completion_tokens", "output_tokens" -> output = intValue(p, value);
                    case "prompt_tokens_details", "input_tokens_details" -> {
                        if (value == JsonToken.START_OBJECT) {
                            while (p.nextToken() == JsonToken.FIELD_NAME) {
                                String inner = p.currentName();
                                JsonToken v = p.nextToken();
                                if ("cached_tokens".equals(inner)) {
                                    cached = intValue(p, v);
                                } else {
                                    p.skipChildren();
                                }
                            }
                        } else {
                            p.skipChildren();
                        }
                    }
                    default -> p.skipChildren();
                }
            }
        } catch (IOException e) {
            return; // not JSON after all: report nothing
        }
        if (input >= 0 || output >= 0) {
            findings.usage(input, output, cached);
        }
    }

    private static int intValue(JsonParser p, JsonToken value) throws IOException {
        return value == JsonToken.VALUE_NUMBER_INT ? p.getIntValue() : -1;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }
}
