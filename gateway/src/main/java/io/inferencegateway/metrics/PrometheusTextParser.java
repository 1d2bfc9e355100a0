package io.inferencegateway.metrics;

import java.util.Objects;

import io.inferencegateway.domain.ByteScan;

/**
 * A parser of the Prometheus text exposition format (version 0.0.4) that works on the bytes as received: no String
 * per line, no regular expressions. For each sample line it scans the metric name, asks the {@link SampleVisitor}
 * whether it wants it and, if not, jumps to the next line; only wanted lines have their labels and value read. A
 * visitor that names its wanted series ({@link SampleVisitor#wantedNames()}) lets it give up on most names after a
 * few bytes.
 *
 * <p>What it accepts: {@code # HELP}, {@code # TYPE} and other comment lines (skipped); blank lines; blanks and tabs
 * between tokens; label values
 * with {@code \\}, {@code \"} and {@code \n} escapes; a trailing comma in the label set; values such as
 * {@code NaN}, {@code +Inf}, {@code -Inf} and exponents; an optional integer timestamp (ignored); LF or CRLF line
 * ends and a last line without one. A malformed wanted line, or a line that does not start like a sample, is
 * skipped and counted in {@link ParseStats#garbageLines()}; nothing is thrown. Lines skipped by name are not checked —
 * that is what makes skipping cheap.
 *
 * <p>An instance reuses its label buffers, so it is not thread-safe; it is cheap to create one per scrape.
 */
public final class PrometheusTextParser {

    /**
     * What one parse saw.
     *
     * @param sampleLines  lines that looked like samples, wanted or not
     * @param wanted       samples handed to the visitor
     * @param garbageLines lines that could not be read and were skipped
     */
    public record ParseStats(int sampleLines, int wanted, int garbageLines) {
    }

    private static final boolean[] NAME_START = new boolean[256];
    private static final boolean[] NAME_CHAR = new boolean[256];

    static {
        for (int b = 0; b < 256; b++) {
            NAME_START[b] = (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || b == '_' || b == ':';
            NAME_CHAR[b] = NAME_START[b] || (b >= '0' && b <= '9');
        }
    }

    private final Labels labels = new Labels();

    public ParseStats parse(byte[] text, SampleVisitor visitor) {
        return parse(text, 0, text.length, visitor);
    }

    public ParseStats parse(byte[] text, int offset, int length, SampleVisitor visitor) {
        Objects.requireNonNull(visitor, "visitor");
        Objects.checkFromIndexSize(offset, length, text.length);
        int end = offset + length;
        MetricNameTable wantedNames = visitor.wantedNames();
        int sampleLines = 0;
        int wanted = 0;
        int garbage = 0;
        int p = offset;
        while (p < end) {
            p = skipBlanks(text, p, end);
            if (p >= end) {
                break;
            }
            byte first = text[p];
            if (first == '\n') {
                p++;
                continue;
            }
            if (first == '\r' && p + 1 < end && text[p + 1] == '\n') {
                p += 2;
                continue;
            }
            if (first == '#') {
                p = nextLine(text, p, end);
                continue;
            }
            if (!NAME_START[first & 0xFF]) {
                garbage++;
                p = nextLine(text, p, end);
                continue;
            }
            sampleLines++;
            int nameStart = p;
            boolean mayBeWanted = true;
            while (p < end && NAME_CHAR[text[p] & 0xFF]) {
                if (wantedNames != null && !wantedNames.mayHave(p - nameStart, text[p])) {
                    mayBeWanted = false; // the name goes on at least to here, and no wanted name does so
                    break;
                }
                p++;
            }
            // the hash only for a name that may be wanted: its multiply per byte is a chain the CPU cannot overlap
            int id = mayBeWanted
                    ? visitor.select(text, nameStart, p - nameStart, MetricNameTable.hash(text, nameStart, p - nameStart))
                    : -1;
            if (id < 0) {
                p = nextLine(text, p, end);
                continue;
            }
            int after = readSample(text, p, end, id, visitor);
            if (after < 0) {
                garbage++;
                p = nextLine(text, -after - 1, end);
            } else {
                wanted++;
                p = after;
            }
        }
        return new ParseStats(sampleLines, wanted, garbage);
    }

    /**
     * Reads labels, value and timestamp after the name and hands the sample over. Returns the start of the next
     * line, or {@code -(errorPosition + 1)} when the line is malformed.
     */
    private int readSample(byte[] text, int p, int end, int id, SampleVisitor visitor) {
        labels.reset(text);
        int afterName = skipBlanks(text, p, end);
        boolean separated = afterName > p;
        if (afterName < end && text[afterName] == '{') {
            p = readLabels(text, afterName + 1, end);
            if (p < 0) {
                return p;
            }
            separated = true; // the closing brace separates the value, as in Prometheus' own parser
        }
        int valueStart = skipBlanks(text, p, end);
        if (!separated || valueStart >= end || isLineEnd(text, valueStart, end)) {
            return -(p + 1);
        }
        int valueEnd = tokenEnd(text, valueStart, end);
        double value = PrometheusNumbers.parse(text, valueStart, valueEnd);
        if (Double.isNaN(value) && !PrometheusNumbers.isNaNLiteral(text, valueStart, valueEnd)) {
            return -(valueStart + 1);
        }
        p = skipBlanks(text, valueEnd, end);
        if (p < end && !isLineEnd(text, p, end)) {
            int timestampEnd = tokenEnd(text, p, end);
            if (!isInteger(text, p, timestampEnd)) {
                return -(p + 1);
            }
            p = skipBlanks(text, timestampEnd, end);
        }
        if (p < end && !isLineEnd(text, p, end)) {
            return -(p + 1);
        }
        visitor.sample(id, labels, value);
        return nextLine(text, p, end);
    }

    /** Reads {@code name="value",...}} up to and including the closing brace; returns the position after it. */
    private int readLabels(byte[] text, int p, int end) {
        while (true) {
            p = skipBlanks(text, p, end);
            if (p >= end) {
                return -(p + 1);
            }
            if (text[p] == '}') {
                return p + 1;
            }
            if (!isLabelNameStart(text[p])) {
                return -(p + 1);
            }
            int nameStart = p;
            while (p < end && isLabelNameChar(text[p])) {
                p++;
            }
            int nameLength = p - nameStart;
            p = skipBlanks(text, p, end);
            if (p >= end || text[p] != '=') {
                return -(p + 1);
            }
            p = skipBlanks(text, p + 1, end);
            if (p >= end || text[p] != '"') {
                return -(p + 1);
            }
            int valueStart = ++p;
            boolean escaped = false;
            while (p < end && text[p] != '"') {
                byte b = text[p];
                if (b == '\n') {
                    return -(p + 1); // a raw newline ends the line before the value closed
                }
                if (b == '\\') {
                    escaped = true;
                    p++;
                    if (p < end && text[p] == '\n') {
                        return -(p + 1);
                    }
                }
                p++;
            }
            if (p >= end) {
                return -(end + 1);
            }
            if (escaped) {
                labels.addEscaped(nameStart, nameLength, valueStart, p);
            } else {
                labels.add(nameStart, nameLength, valueStart, p - valueStart);
            }
            p = skipBlanks(text, p + 1, end);
            if (p < end && text[p] == ',') {
                p++;
            } else if (p >= end || text[p] != '}') {
                return -(p + 1);
            }
        }
    }

    /**
     * The position after the next {@code \n} at or after {@code p} (or {@code end + 1}). Most of an exposition is lines
     * skipped by name, so this is the parser's hot loop: eight bytes at a time, four words a step over a long line
     * ({@link ByteScan#indexOf}); a sample line is about 100 bytes.
     */
    private static int nextLine(byte[] text, int p, int end) {
        return ByteScan.indexOf(text, p, end, (byte) '\n') + 1;
    }

    private static int skipBlanks(byte[] text, int p, int end) {
        while (p < end && (text[p] == ' ' || text[p] == '\t')) {
            p++;
        }
        return p;
    }

    private static int tokenEnd(byte[] text, int p, int end) {
        while (p < end && text[p] != ' ' && text[p] != '\t' && text[p] != '\n' && text[p] != '\r') {
            p++;
        }
        return p;
    }

    private static boolean isLineEnd(byte[] text, int p, int end) {
        return text[p] == '\n' || (text[p] == '\r' && (p + 1 == end || text[p + 1] == '\n'));
    }

    private static boolean isInteger(byte[] text, int from, int to) {
        if (from < to && text[from] == '-') {
            from++;
        }
        if (from >= to) {
            return false;
        }
        for (int i = from; i < to; i++) {
            if (text[i] < '0' || text[i] > '9') {
                return false;
            }
        }
        return true;
    }

    private static boolean isLabelNameStart(byte b) {
        return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || b == '_';
    }

    private static boolean isLabelNameChar(byte b) {
        return isLabelNameStart(b) || (b >= '0' && b <= '9');
    }
}
