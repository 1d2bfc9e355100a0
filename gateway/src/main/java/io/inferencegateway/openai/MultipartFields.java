package io.inferencegateway.openai;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

/**
 * Reads a few named text fields of a {@code multipart/form-data} body in place (OpenAI's audio uploads carry
 * {@code model} beside the file): one pass over the buffer, no copy of the file part, the body left as it is for
 * the model server.
 */
public final class MultipartFields {

    /** Longest part header block read; a longer one is not a form field the gateway needs. */
    private static final int MAX_PART_HEADERS = 8 * 1024;
    private static final ByteBuf HEADERS_END = Unpooled.unreleasableBuffer(
            Unpooled.wrappedBuffer("\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));

    private MultipartFields() {
    }

    /** The {@code boundary} parameter of a multipart content type, or null when it has none. */
    public static String boundary(String contentType) {
        for (String param : contentType.split(";")) {
            String p = param.strip();
            if (p.regionMatches(true, 0, "boundary=", 0, 9)) {
                String b = p.substring(9).strip();
                if (b.length() >= 2 && b.startsWith("\"") && b.endsWith("\"")) {
                    b = b.substring(1, b.length() - 1);
                }
                return b.isEmpty() || b.length() > 70 ? null : b;
            }
        }
        return null;
    }

    /** The values of the wanted fields that the body holds (parts with a filename are skipped). */
    public static Map<String, String> read(ByteBuf body, String boundary, Set<String> wanted) {
        Map<String, String> values = new HashMap<>();
        ByteBuf delimiter = Unpooled.wrappedBuffer(("\r\n--" + boundary).getBytes(StandardCharsets.US_ASCII));
        int end = body.writerIndex();
        int length = delimiter.readableBytes();
        // the first delimiter may open the body without the CRLF before it
        int afterDelimiter;
        if (startsWith(body, body.readerIndex(), delimiter, 2)) {
            afterDelimiter = body.readerIndex() + length - 2;
        } else {
            int found = indexOf(body, delimiter, body.readerIndex(), end);
            afterDelimiter = found < 0 ? -1 : found + length;
        }
        while (afterDelimiter >= 0 && values.size() < wanted.size()) {
            if (afterDelimiter + 2 > end || body.getByte(afterDelimiter) == '-') {
                break; // the closing delimiter, or a truncated body
            }
            int headersStart = afterDelimiter + 2; // CRLF after the delimiter
            int headersEnd = indexOf(body, HEADERS_END, headersStart, Math.min(end, headersStart + MAX_PART_HEADERS));
            if (headersEnd < 0) {
                break;
            }
            int dataStart = headersEnd + HEADERS_END.readableBytes();
            int next = indexOf(body, delimiter, dataStart, end);
            if (next < 0) {
                break;
            }
            String name = fieldName(body.toString(headersStart, headersEnd - headersStart, StandardCharsets.UTF_8));
            if (name != null && wanted.contains(name)) {
                values.putIfAbsent(name, body.toString(dataStart, next - dataStart, StandardCharsets.UTF_8));
            }
            afterDelimiter = next + length;
        }
        return values;
    }

    /** The {@code name} of a form field's Content-Disposition, or null for a file part or no disposition. */
    static String fieldName(String headers) {
        for (String line : headers.split("\r\n")) {
            if (!line.toLowerCase(Locale.ROOT).startsWith("content-disposition:")) {
                continue;
            }
            String name = null;
            for (String param : line.substring(line.indexOf(':') + 1).split(";")) {
                String p = param.strip();
                if (p.regionMatches(true, 0, "filename", 0, 8)) {
                    return null;
                }
                if (p.regionMatches(true, 0, "name=", 0, 5)) {
                    name = p.substring(5).strip();
                    if (name.length() >= 2 && name.startsWith("\"") && name.endsWith("\"")) {
                        name = name.substring(1, name.length() - 1);
                    }
                }
            }
            return name;
        }
        return null;
    }

    private static boolean startsWith(ByteBuf body, int at, ByteBuf needle, int skip) {
        int n = needle.readableBytes() - skip;
        return body.writerIndex() - at >= n
                && ByteBufUtil.equals(body, at, needle, needle.readerIndex() + skip, n);
    }

    private static int indexOf(ByteBuf body, ByteBuf needle, int from, int to) {
        if (to - from < needle.readableBytes()) {
            return -1;
        }
        int found = ByteBufUtil.indexOf(needle, body.slice(from, to - from));
        return found < 0 ? -1 : from + found;
    }
}
