package io.inferencegateway.openai;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonStringEncoder;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.Unpooled;

/**
 * Gives a request body's top-level {@code model} another name: what an external provider calls the model the client
 * asked for by its local name (docs/global.md). The rest of the body is shared with the client's buffer, not copied;
 * a body that is not a JSON object with a string {@code model} (a multipart upload) goes as it is.
 */
public final class ModelRename {

    private static final JsonFactory JSON = new JsonFactory();

    private ModelRename() {
    }

    /** The body with {@code model} set to {@code name}. The caller releases the result; {@code body} is retained. */
    public static ByteBuf renamed(ByteBuf body, String name) {
        int start = body.readerIndex();
        long[] value = modelValue(body);
        if (value == null) {
            return body.retainedDuplicate();
        }
        int from = start + (int) value[0];
        int to = start + (int) value[1];
        byte[] quoted = ('"' + new String(JsonStringEncoder.getInstance().quoteAsString(name)) + '"')
                .getBytes(StandardCharsets.UTF_8);
        return Unpooled.wrappedBuffer(body.retainedSlice(start, from - start), Unpooled.wrappedBuffer(quoted),
                body.retainedSlice(to, body.writerIndex() - to));
    }

    /** Byte offsets (from the reader index) of the top-level {@code model} string, quotes included; null if none. */
    private static long[] modelValue(ByteBuf body) {
        try (InputStream in = new ByteBufInputStream(body.duplicate()); JsonParser p = JSON.createParser(in)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                boolean model = "model".equals(p.currentName());
                JsonToken v = p.nextToken();
                if (model && v == JsonToken.VALUE_STRING) {
                    long from = p.currentTokenLocation().getByteOffset();
                    p.getText(); // reads to the closing quote
                    return new long[] {from, p.currentLocation().getByteOffset()};
                }
                p.skipChildren();
            }
            return null;
        } catch (IOException e) {
            return null; // the parser refused nothing it reads; a body it cannot read goes as it is
        }
    }
}
