package io.inferencegateway.domain;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The byte-level scanning that the gateway's hand-written readers share: the request body's reader and the relayed
 * response's scanner ({@code openai}) and the Prometheus text parser ({@code metrics}) read untrusted bytes on the
 * request path or the scrape's event loop, where a String per token or a regular expression would cost more than the
 * reading itself. Where a reader runs over long stretches, eight bytes are tested at a time: a long read from the
 * array, its bytes tested all at once by subtractions whose borrows set a byte's high bit (SWAR). Static, stateless,
 * allocation-free.
 */
public final class ByteScan {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final long QUOTE_TO_SPACE = ONES * 0x02;
    private static final long BELOW_QUOTE = ONES * 0x21;
    private static final long BACKSLASHES = ONES * '\\';

    private ByteScan() {
    }

    /**
     * The index of the first {@code target} in {@code a[from, end)}, or {@code end} when there is none. The first word
     * is tested alone (a target a few bytes on, the quotes of a stream's events, is found at once); past it the search
     * goes four words a step, with a loose test that flags every byte equal to the target and also a byte above 0x80
     * after the XOR (one of a UTF-8 sequence, mostly): that only sends the search on to the exact one, one branch for
     * 32 bytes (a Prometheus line, a long JSON string).
     */
    public static int indexOf(byte[] a, int from, int end, byte target) {
        long pattern = ONES * (target & 0xFF);
        int firstWord = Math.min(end, from + Long.BYTES);
        int p = exactIndexOf(a, from, firstWord, pattern, target);
        if (p < firstWord || p == end) {
            return p;
        }
        while (p + 4 * Long.BYTES <= end) {
            long any = ((long) LONGS.get(a, p) ^ pattern) - ONES
                    | ((long) LONGS.get(a, p + Long.BYTES) ^ pattern) - ONES
                    | ((long) LONGS.get(a, p + 2 * Long.BYTES) ^ pattern) - ONES
                    | ((long) LONGS.get(a, p + 3 * Long.BYTES) ^ pattern) - ONES;
            if ((any & HIGH_BITS) != 0) {
                break;
            }
            p += 4 * Long.BYTES;
        }
        return exactIndexOf(a, p, end, pattern, target);
    }

    /**
     * {@link #indexOf} a word at a time: a byte equal to the target becomes zero under an XOR with {@code pattern}
     * (the target in every byte), and {@code (x - 0x01..) & ~x & 0x80..} flags the lowest zero byte exactly; the last
     * bytes one by one.
     */
    private static int exactIndexOf(byte[] a, int p, int end, long pattern, byte target) {
        for (; p + Long.BYTES <= end; p += Long.BYTES) {
            long x = (long) LONGS.get(a, p) ^ pattern;
            long found = (x - ONES) & ~x & HIGH_BITS;
            if (found != 0) {
                return p + (Long.numberOfTrailingZeros(found) >>> 3);
            }
        }
        while (p < end && a[p] != target) {
            p++;
        }
        return p;
    }

    /**
     * Where the first word of eight bytes from {@code k} on that holds a byte a JSON string's reader must look at (a
     * quote, a backslash, a control character or a byte of a UTF-8 sequence) starts, or the first offset with less
     * than a word left before {@code end}: every byte before it stands for itself, one ASCII character. Four words a
     * step, one branch for them.
     */
    public static int plainJsonWords(byte[] a, int k, int end) {
        for (; k <= end - 32; k += 32) {
            long any = jsonFlags((long) LONGS.get(a, k)) | jsonFlags((long) LONGS.get(a, k + 8))
                    | jsonFlags((long) LONGS.get(a, k + 16)) | jsonFlags((long) LONGS.get(a, k + 24));
            if ((any & HIGH_BITS) != 0) {
                break;
            }
        }
        for (; k <= end - 8; k += 8) {
            if ((jsonFlags((long) LONGS.get(a, k)) & HIGH_BITS) != 0) {
                break;
            }
        }
        return k;
    }

    /**
     * Has a byte's high bit set (under {@link #HIGH_BITS}) when that byte of {@code v} is a quote, a backslash, below a
     * space or above 0x7F, and never when none is. A quote (0x22) becomes 0x20 under {@code ^ 0x02}, the only byte that
     * does, and control characters stay below it: one "below 0x21" subtraction finds both; one "equal to 0" subtraction
     * after an XOR with backslashes finds a backslash. A subtraction sets the high bit of a byte that is not below its
     * bound only when that byte is above 0x7F (which {@code v} flags anyway) or when a borrow reached it from a flagged
     * byte below it. Without masks, four words cost one test.
     */
    private static long jsonFlags(long v) {
        return (v ^ QUOTE_TO_SPACE) - BELOW_QUOTE | (v ^ BACKSLASHES) - ONES | v;
    }

    /**
     * The length of the JSON escape whose backslash is at {@code k}: 2 ({@code \n}, {@code \"}, ...), 6
     * ({@code \}{@code u} and four hex digits), or 0 when it is no escape JSON allows or its {@code left} bytes end
     * before it does.
     */
    public static int jsonEscapeLength(byte[] a, int k, int left) {
        if (left < 2) {
            return 0;
        }
        if (a[k + 1] == 'u') {
            return left >= 6 && hex4(a, k + 2) >= 0 ? 6 : 0;
        }
        return jsonEscapedChar(a[k + 1]) >= 0 ? 2 : 0;
    }

    /** The character a two-byte JSON escape stands for, by its letter ({@code n} for {@code \n}), or -1. */
    public static int jsonEscapedChar(byte letter) {
        return switch (letter) {
            case '"' -> '"';
            case '\\' -> '\\';
            case '/' -> '/';
            case 'b' -> '\b';
            case 'f' -> '\f';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            default -> -1;
        };
    }

    /** The value of the four hex digits at {@code at} (a {@code \}{@code u} escape's), or -1 when one is not. */
    public static int hex4(byte[] a, int at) {
        int v = 0;
        for (int j = at; j < at + 4; j++) {
            int d = Character.digit(a[j], 16);
            if (d < 0) {
                return -1;
            }
            v = (v << 4) | d;
        }
        return v;
    }

    /**
     * The length of the UTF-8 sequence that starts with the byte at {@code k}, above 0x7F, if it is whole within
     * {@code left} bytes and well-formed as a JSON parser checks it (a lead byte and its continuation bytes); else 0.
     */
    public static int utf8SequenceLength(byte[] a, int k, int left) {
        int c = a[k] & 0xFF;
        int length = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
        if (length > left) {
            return 0;
        }
        for (int j = 1; j < length; j++) {
            if ((a[k + j] & 0xC0) != 0x80) {
                return 0;
            }
        }
        return length;
    }

    /** Whether {@code b} is white space between JSON tokens: a space, a tab, a carriage return or a line feed. */
    public static boolean isJsonSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\r' || b == '\n';
    }
}
