package io.inferencegateway.openai;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;

import io.inferencegateway.domain.ByteScan;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.ParsedBody;
import io.netty.buffer.ByteBuf;

/**
 * Reads what routing needs from an OpenAI request body in one streaming pass: {@code model},
 * {@code stream} and the prompt text. Every other field is skipped unread (but still checked to be
 * valid JSON); the body itself goes upstream untouched.
 *
 * <p>The prompt text follows the simulator's chat serialization, {@code "<|role|>\n" + content + "\n"}
 * per message, so that prefix-affinity blocks line up with the model server's KV blocks. A Responses API body reads
 * the same way: its {@code instructions} as a leading system message, then its {@code input}, a string or a list of
 * message items.
 *
 * <p>Only the prompt's first {@code promptChars} characters are decoded, as many as the pool's policy reads
 * ({@link io.inferencegateway.domain.SchedulingPolicy#promptChars()}): they are the same characters the whole text
 * would begin with. The rest of a long string is not decoded: it is checked eight bytes at a time and left out of what
 * Jackson reads (Jackson sees the string end early), and its raw bytes count as characters in the token estimate.
 */
public final class InferenceRequestParser {

    /** Jackson reads this much of a body at once (its buffer): none of a smaller body's strings is left out. */
    private static final int SMALL_BODY = 8000;

    private static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(256).build())
            .build();

    private InferenceRequestParser() {
    }

    /** The whole prompt text. */
    public static ParsedBody parse(ByteBuf body) {
        return parse(body, Integer.MAX_VALUE);
    }

    /** The prompt text's first {@code promptChars} characters (the token estimate still counts the whole prompt). */
    public static ParsedBody parse(ByteBuf body, int promptChars) {
        BodyStream in = new BodyStream(body);
        try (JsonParser p = JSON.createParser(in)) {
            return new BodyReader(p, in, body, promptChars).request();
        } catch (IOException e) {
            throw GatewayError.invalidRequest(null, "The request body is not valid JSON: " + firstLine(e.getMessage()));
        }
    }

    /**
     * The body as Jackson reads it: every byte, but for at most one gap at a time, the checked rest of a long string
     * that Jackson need not see (the string's closing quote follows what it saw of it).
     */
    private static final class BodyStream extends InputStream {
        private final ByteBuf body;
        private final int end;
        private int position;
        private int gapFrom = -1;
        private int gapTo;
        /** Bytes left out so far: a Jackson offset plus these is the offset in the body. */
        long skipped;

        BodyStream(ByteBuf body) {
            this.body = body;
            this.position = body.readerIndex();
            this.end = body.writerIndex();
        }

        /** The index of the next byte Jackson would read. */
        int position() {
            return position;
        }

        /** Leaves out {@code [from, to)}; {@code from} is at or after {@link #position()}. */
        void leaveOut(int from, int to) {
            gapFrom = from;
            gapTo = to;
        }

        @Override
        public int read() {
            return readable() > 0 ? body.getByte(position++) & 0xFF : -1;
        }

        @Override
        public int read(byte[] into, int offset, int length) {
            if (length == 0) {
                return 0;
            }
            int n = Math.min(length, readable());
            if (n <= 0) {
                return -1;
            }
            body.getBytes(position, into, offset, n);
            position += n;
            return n;
        }

        /** Bytes Jackson may read before the gap or the end, once past a gap that starts here. */
        private int readable() {
            if (position == gapFrom) {
                skipped += gapTo - gapFrom;
                position = gapTo;
                gapFrom = -1;
            }
            return (gapFrom >= 0 ? gapFrom : end) - position;
        }
    }

    /**
     * The first {@code limit} characters of a text put together piece by piece, and the length of the whole text
     * (what was skipped undecoded counted by its bytes). A text that is one string appended whole (a completion's
     * prompt, a message's content) keeps that string and copies nothing; the array for one of several pieces is made
     * when the second arrives, {@code capacity} characters at first (the body's length for the prompt, so that it
     * is not grown by doubling).
     */
    private static final class BoundedText {
        private static final char[] NONE = new char[0];

        private final int capacity;
        /** The one string appended so far, whole; null once the text is in {@link #chars}. */
        private String single;
        private char[] chars = NONE;
        private int size;
        final int limit;
        long length;

        BoundedText(int limit) {
            this(limit, 64);
        }

        BoundedText(int limit, int capacity) {
            this.limit = limit;
            this.capacity = Math.max(16, Math.min(limit, capacity));
        }

        int room() {
            return limit - size;
        }

        /** Room for {@code n} more characters in the array (where the one string kept so far moves to). */
        void grow(int n) {
            if (size + n > chars.length) {
                long wanted = Math.max((long) size + n, chars.length == 0 ? capacity : 2L * chars.length);
                chars = Arrays.copyOf(chars, (int) Math.min(Integer.MAX_VALUE - 8, wanted));
            }
            if (single != null) {
                single.getChars(0, size, chars, 0);
                single = null;
            }
        }

        BoundedText append(String s) {
            if (size == 0 && s.length() <= limit && s.length() > 0) {
                single = s;
                size = s.length();
                length += size;
                return this;
            }
            length += s.length();
            int n = Math.min(room(), s.length());
            if (n > 0) {
                grow(n);
                s.getChars(0, n, chars, size);
                size += n;
            }
            return this;
        }

        void append(char[] cs, int count) {
            length += count;
            int n = Math.min(room(), count);
            if (n > 0) {
                grow(n);
                System.arraycopy(cs, 0, chars, size, n);
                size += n;
            }
        }

        BoundedText append(BoundedText t) {
            if (t.single != null) {
                long whole = length + t.length;
                append(t.single);
                length = whole;
                return this;
            }
            long whole = length + t.length;
            append(t.chars, t.size);
            length = whole;
            return this;
        }

        /**
         * The characters kept. Kept in a char array rather than a StringBuilder, whose Latin-1 form checks each
         * appended char; a String made from the array compresses it in one vectorised pass.
         */
        @Override
        public String toString() {
            return single != null ? single : new String(chars, 0, size);
        }
    }

    /** One body's pass. */
    private static final class BodyReader {
        private final JsonParser p;
        private final BodyStream in;
        private final ByteBuf body;
        private final int limit;
        /** Where the undecoded rest of the last string read starts (bytes into the body), or -1. */
        private long restFrom = -1;
        private BoundedText restOf;
        private byte[] window;
        private char[] decoded;
        /**
         * Where a character starts at or after what Jackson has read of the current string, or -1 (set by
         * {@link #decode} and {@link #closingQuote}): what Jackson is not handed of the string can begin there.
         */
        private int resumeAt;
        /** The prompt's length up to the end of its last assistant message so far. */
        private long historyChars;

        BodyReader(JsonParser p, BodyStream in, ByteBuf body, int limit) {
            this.p = p;
            this.in = in;
            this.body = body;
            this.limit = limit;
        }

        ParsedBody request() throws IOException {
            if (next() != JsonToken.START_OBJECT) {
                throw GatewayError.invalidRequest(null, "The request body must be a JSON object");
            }
            String model = null;
            boolean modelSeen = false;
            boolean stream = false;
            boolean streamOptions = false;
            BoundedText prompt = new BoundedText(limit, body.readableBytes());
            BoundedText instructions = null;
            int tokenArrayLength = 0;
            int maxTokens = -1;
            String cacheKey = null;
            String user = null;
            while (next() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = next();
                switch (field) {
                    case "model" -> {
                        modelSeen = true;
                        if (value != JsonToken.VALUE_STRING) {
                            throw GatewayError.invalidRequest("model", "'model' must be a string");
                        }
                        model = text(p);
                    }
                    case "stream" -> {
                        stream = value == JsonToken.VALUE_TRUE;
                        skip(); // an object or array here is skipped whole, not read as the request's own fields
                    }
                    case "stream_options" -> {
                        streamOptions = value == JsonToken.START_OBJECT;
                        skip();
                    }
                    case "messages" -> readMessages(value, prompt);
                    // what names the conversation, when the client says (session affinity, docs/sessions.md)
                    case "prompt_cache_key" -> cacheKey = stringOrSkip(value);
                    case "user" -> user = stringOrSkip(value);
                    case "instructions" -> {
                        if (value == JsonToken.VALUE_STRING) {
                            instructions = new BoundedText(limit);
                            string(instructions);
                        } else {
                            skip();
                        }
                    }
                    case "prompt", "input" -> tokenArrayLength += readPrompt(value, prompt);
                    // the completion budget, under its name in chat/completions, the newer chat name, and responses
                    case "max_tokens", "max_completion_tokens", "max_output_tokens" -> {
                        if (value == JsonToken.VALUE_NUMBER_INT) {
                            // an integer past a long's range is still a budget (capped), not a JSON error
                            long budget = p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                                    ? p.getBigIntegerValue().signum() * (long) Integer.MAX_VALUE
                                    : p.getLongValue();
                            if (budget >= 0) {
                                maxTokens = (int) Math.min(Integer.MAX_VALUE, budget);
                            }
                        } else {
                            skip();
                        }
                    }
                    default -> skip();
                }
            }
            if (p.currentToken() != JsonToken.END_OBJECT || next() != null) {
                throw GatewayError.invalidRequest(null, "The request body is not valid JSON");
            }
            if (!modelSeen || model == null || model.isBlank()) {
                throw GatewayError.invalidRequest("model", "You must provide a model parameter");
            }
            BoundedText text = instructions == null ? prompt
                    : message(new BoundedText(limit), "system", instructions).append(prompt);
            int tokens = (int) Math.min(Integer.MAX_VALUE, tokens(text.length) + tokenArrayLength);
            // the instructions come first in the text, before the history
            int history = historyChars == 0 ? 0 : tokens(text.length - prompt.length + historyChars);
            return ParsedBody.builder(model).promptText(text.toString()).promptTokensEstimate(tokens).stream(stream)
                    .streamOptions(streamOptions).maxTokens(maxTokens).promptCacheKey(cacheKey).user(user)
                    .historyTokensEstimate(history).build();
        }

        private static int tokens(long chars) {
            return (int) Math.min(Integer.MAX_VALUE,
                    (chars + InferenceRequest.CHARS_PER_TOKEN - 1) / InferenceRequest.CHARS_PER_TOKEN);
        }

        /** A string value, or null after skipping any other (a key given as a number names no session). */
        private String stringOrSkip(JsonToken value) throws IOException {
            if (value == JsonToken.VALUE_STRING) {
                return text(p);
            }
            skip();
            return null;
        }

        /**
         * Every token but those inside skipped values is read here: it counts the rest of a string left undecoded
         * once Jackson has skipped it (a string value is always followed by this call).
         */
        private JsonToken next() throws IOException {
            JsonToken t = p.nextToken();
            if (restFrom >= 0) {
                // up to the next token: the string's closing quote, and perhaps a comma and blanks (an estimate)
                restOf.length += Math.max(0, p.currentTokenLocation().getByteOffset() + in.skipped - restFrom - 1);
                restFrom = -1;
            }
            return t;
        }

        private void readMessages(JsonToken value, BoundedText prompt) throws IOException {
            if (value != JsonToken.START_ARRAY) {
                skip();
                return;
            }
            // tolerate non-object items: skip them, and read the messages after them
            while (next() != JsonToken.END_ARRAY) {
                if (p.currentToken() == JsonToken.START_OBJECT) {
                    readMessage(prompt);
                } else {
                    skip();
                }
            }
        }

        /** One message object, the parser on its START_OBJECT: its role and content, serialized. */
        private void readMessage(BoundedText prompt) throws IOException {
            String role = "";
            // the role and its markers come first in the text: this much of the content can still be in it
            BoundedText content = new BoundedText(Math.max(0, prompt.room()));
            while (next() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken v = next();
                if ("role".equals(field) && v == JsonToken.VALUE_STRING) {
                    role = text(p);
                } else if ("content".equals(field)) {
                    content = new BoundedText(content.limit);
                    readContent(v, content);
                } else {
                    skip();
                }
            }
            message(prompt, role, content);
            if ("assistant".equals(role)) {
                historyChars = prompt.length;
            }
        }

        /** Content is a string, or an array of parts of which the text parts count. */
        private void readContent(JsonToken v, BoundedText content) throws IOException {
            if (v == JsonToken.VALUE_STRING) {
                string(content);
                return;
            }
            if (v != JsonToken.START_ARRAY) {
                skip();
                return;
            }
            while (next() != JsonToken.END_ARRAY) {
                if (p.currentToken() != JsonToken.START_OBJECT) {
                    skip();
                    continue;
                }
                while (next() == JsonToken.FIELD_NAME) {
                    String field = p.currentName();
                    JsonToken t = next();
                    if ("text".equals(field) && t == JsonToken.VALUE_STRING) {
                        string(content);
                    } else {
                        skip();
                    }
                }
            }
        }

        /**
         * A string, an array of strings, token ids, or (the Responses API's input) message items; returns how many
         * token ids were seen.
         */
        private int readPrompt(JsonToken value, BoundedText prompt) throws IOException {
            if (value == JsonToken.VALUE_STRING) {
                string(prompt);
                return 0;
            }
            if (value != JsonToken.START_ARRAY) {
                skip();
                return 0;
            }
            int tokenIds = 0;
            while (next() != JsonToken.END_ARRAY) {
                switch (p.currentToken()) {
                    case VALUE_STRING -> string(prompt);
                    case VALUE_NUMBER_INT -> tokenIds++;
                    case START_OBJECT -> readMessage(prompt);
                    default -> skip();
                }
            }
            return tokenIds;
        }

        /**
         * Appends the current string value to {@code into}. When it may not fit, decodes as much of it as
         * {@code into} has room for straight from the body's bytes. The rest is checked here and left out of what
         * Jackson reads, unless it breaks the rules: then Jackson skips it on the next token and fails on it.
         */
        private void string(BoundedText into) throws IOException {
            if (body.readableBytes() <= into.room()) {
                into.append(text(p)); // the whole body fits: no string in it can be cut
                return;
            }
            int from = stringStart();
            if (from < 0) {
                into.append(text(p)); // not where it should be: let Jackson decode it
                return;
            }
            int stop = decode(from, into);
            if (stop >= 0) {
                restFrom = stop - body.readerIndex();
                restOf = into;
                leaveOutRest(stop, resumeAt);
            }
        }

        /**
         * Appends {@code out}'s first {@code n} characters to {@code into}, making room at once for as many as
         * {@code more} after them: a long string grows the text once, not by doubling from a few characters.
         */
        private static void flush(BoundedText into, char[] out, int n, int more) {
            into.grow(n + more);
            into.append(out, n);
        }

        /** A buffer for the body's bytes from {@code from} on, made once per body. */
        private byte[] window(int from) {
            if (window == null) {
                window = new byte[Math.min(8192, Math.max(16, body.writerIndex() - from))];
            }
            return window;
        }

        /** Where the current string value's characters start in the body, or -1 if its quote is not found there. */
        private int stringStart() {
            long quote = p.currentTokenLocation().getByteOffset() + in.skipped;
            int from = body.readerIndex() + (int) quote + 1;
            return quote < 0 || quote >= body.readableBytes() || body.getByte(from - 1) != '"' ? -1 : from;
        }

        /**
         * Skips the current value. Its strings are checked here and left out of what Jackson reads where they go on
         * past what it has read (a body longer than Jackson's buffer: a base64 image, say).
         */
        private void skip() throws IOException {
            if (body.readableBytes() <= SMALL_BODY) {
                p.skipChildren();
                return;
            }
            int depth = 0;
            JsonToken t = p.currentToken();
            while (true) {
                if (t == JsonToken.VALUE_STRING) {
                    int from = stringStart();
                    if (from >= 0) {
                        leaveOutRest(from, -1);
                    }
                } else if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                    depth++;
                } else if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
                    depth--;
                }
                if (depth <= 0) {
                    return;
                }
                t = next();
                if (t == null) {
                    return; // the end of the body: the caller reports what is missing
                }
            }
        }

        /**
         * Leaves the rest of the current string, from {@code from}, out of what Jackson reads, if it is well-formed.
         * {@code boundary}: where a character starts at or after what Jackson has read, before {@code from}, if known.
         */
        private void leaveOutRest(int from, int boundary) {
            int close = closingQuote(from, boundary);
            if (close > resumeAt) {
                in.leaveOut(resumeAt, close);
            }
        }

        /**
         * The index of the closing quote of the JSON string whose characters continue at {@code from}, or -1 when the
         * string breaks the rules or the body ends first (Jackson then reports it). Eight bytes at a time while none
         * is a quote, a backslash, a control character or part of a UTF-8 sequence; each of those checked as Jackson
         * does. Sets {@link #resumeAt} to {@code boundary} if there is one, else to the first character boundary at
         * or after what Jackson has read.
         */
        private int closingQuote(int from, int boundary) {
            int read = in.position();
            int end = body.writerIndex();
            byte[] w = window(from);
            int wStart = from;
            int wLen = 0;
            int i = from;
            resumeAt = boundary >= 0 ? boundary : Math.max(from, read);
            while (true) {
                if (i + 8 > wStart + wLen && wStart + wLen < end) {
                    wStart = i;
                    wLen = Math.min(w.length, end - i);
                    body.getBytes(i, w, 0, wLen);
                }
                int k = ByteScan.plainJsonWords(w, i - wStart, wLen);
                i = wStart + k;
                int left = wLen - k;
                if (left < 8 && wStart + wLen < end) {
                    continue; // a word across the window's end: read on from it
                }
                if (left <= 0) {
                    return -1;
                }
                int c = w[k] & 0xFF;
                int used;
                if (c == '"') {
                    return i;
                } else if (c == '\\') {
                    used = ByteScan.jsonEscapeLength(w, k, left);
                } else if (c < 0x20) {
                    used = 0;
                } else {
                    used = c < 0x80 ? 1 : ByteScan.utf8SequenceLength(w, k, left);
                }
                if (used == 0) {
                    return -1;
                }
                if (i < read && i + used > read) {
                    resumeAt = i + used; // Jackson has part of this character: it reads the rest of it
                }
                i += used;
            }
        }

        /**
         * Decodes the JSON string whose characters start at {@code from} into {@code into}, as many characters as it
         * has room for, exactly as Jackson would (escapes, UTF-8). Returns -1 when it reached the closing quote,
         * else the index of the first byte left: the room ran out, or the string breaks the rules (Jackson then
         * fails on it when it skips it).
         */
        private int decode(int from, BoundedText into) {
            int room = into.room();
            int end = body.writerIndex();
            byte[] w = window(from);
            if (decoded == null) {
                decoded = new char[Math.min(4096, w.length)];
            }
            char[] out = decoded;
            int read = in.position();
            resumeAt = -1;
            int wStart = from;
            int wLen = 0;
            int n = 0;
            int i = from;
            int result = -1;
            while (true) {
                if (resumeAt < 0 && i >= read) {
                    resumeAt = i; // i is always where a character starts
                }
                if (room == 0) {
                    result = i;
                    break;
                }
                // a whole escape (\\uXXXX) or UTF-8 sequence in the window, unless the body ends first
                if (i + 6 > wStart + wLen && wStart + wLen < end) {
                    wStart = i;
                    wLen = Math.min(w.length, end - i);
                    body.getBytes(i, w, 0, wLen);
                }
                int k = i - wStart;
                int left = wLen - k;
                if (left <= 0) {
                    result = i;
                    break;
                }
                if (n == out.length) {
                    flush(into, out, n, Math.min(room, end - i));
                    n = 0;
                }
                // a run of plain ASCII, the common case: found eight bytes at a time and copied in one loop, then
                // byte by byte up to what ends it
                int runEnd = Math.min(wLen, k + Math.min(room, out.length - n));
                int j = ByteScan.plainJsonWords(w, k, runEnd);
                for (int x = k; x < j; x++) {
                    out[n++] = (char) w[x];
                }
                for (; j < runEnd; j++) {
                    byte b = w[j];
                    if (b < 0x20 || b == '"' || b == '\\') { // a negative byte is one of a UTF-8 sequence
                        break;
                    }
                    out[n++] = (char) b;
                }
                if (j > k) {
                    if (resumeAt < 0 && i + (j - k) > read) {
                        resumeAt = read; // inside a run of ASCII
                    }
                    room -= j - k;
                    i += j - k;
                    continue;
                }
                int c = w[k] & 0xFF;
                int sequence = c < 0x80 ? 1 : ByteScan.utf8SequenceLength(w, k, left);
                char ch;
                int used;
                if (c == '"') {
                    break;
                } else if (c == '\\') {
                    used = ByteScan.jsonEscapeLength(w, k, left);
                    if (used == 0) {
                        result = i;
                        break;
                    }
                    ch = (char) (used == 6 ? ByteScan.hex4(w, k + 2) : ByteScan.jsonEscapedChar(w[k + 1]));
                } else if (c < 0x20) {
                    result = i;
                    break;
                } else if (sequence == 1) {
                    ch = (char) c;
                    used = 1;
                } else if (sequence == 2) {
                    ch = (char) (((c & 0x1F) << 6) | (w[k + 1] & 0x3F));
                    used = 2;
                } else if (sequence == 3) {
                    ch = (char) (((c & 0x0F) << 12) | ((w[k + 1] & 0x3F) << 6) | (w[k + 2] & 0x3F));
                    used = 3;
                } else if (sequence == 4) {
                    int cp = ((c & 0x07) << 18) | ((w[k + 1] & 0x3F) << 12) | ((w[k + 2] & 0x3F) << 6)
                            | (w[k + 3] & 0x3F);
                    cp -= 0x10000;
                    if (n == out.length) {
                        into.append(out, n);
                        n = 0;
                    }
                    out[n++] = (char) (0xD800 | (cp >> 10)); // a pair of surrogates; the low one below
                    room--;
                    if (room == 0) {
                        result = i; // only the high surrogate fits: the text ends where it would be cut anyway
                        break;
                    }
                    ch = (char) (0xDC00 | (cp & 0x3FF));
                    used = 4;
                } else {
                    result = i;
                    break;
                }
                if (n == out.length) {
                    flush(into, out, n, Math.min(room, end - i));
                    n = 0;
                }
                out[n++] = ch;
                room--;
                i += used;
            }
            if (n > 0) {
                into.append(out, n);
            }
            return result;
        }
    }

    private static BoundedText message(BoundedText prompt, String role, BoundedText content) {
        return prompt.append("<|").append(role).append("|>\n").append(content).append("\n");
    }

    /**
     * The current string value. Jackson's own {@code getText()} joins a long value's buffer segments through a
     * StringBuilder, which copies char by char; a String made from the joined char array compresses it in one
     * vectorised pass instead.
     */
    private static String text(JsonParser p) throws IOException {
        int length = p.getTextLength();
        return length < 256 ? p.getText() : new String(p.getTextCharacters(), p.getTextOffset(), length);
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
