package io.inferencegateway.metrics;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The labels of one sample, as a reusable view over the exposition bytes: nothing is copied unless a value holds
 * escapes, and a String is made only when a visitor asks for one. Valid only inside
 * {@link SampleVisitor#sample}.
 */
public final class Labels {

    private byte[] text = new byte[0];
    private byte[] unescaped = new byte[64];
    private int unescapedLength;
    private int size;
    private int[] nameStart = new int[8];
    private int[] nameLength = new int[8];
    private int[] valueStart = new int[8];
    private int[] valueLength = new int[8];
    private boolean[] valueUnescaped = new boolean[8];

    public int size() {
        return size;
    }

    public String name(int index) {
        checkIndex(index);
        return new String(text, nameStart[index], nameLength[index], StandardCharsets.UTF_8);
    }

    public String value(int index) {
        checkIndex(index);
        return new String(valueBytes(index), valueStart[index], valueLength[index], StandardCharsets.UTF_8);
    }

    /** Position of the label called {@code name}, or -1. Label names are ASCII, so no decoding is needed. */
    public int indexOf(String name) {
        for (int i = 0; i < size; i++) {
            if (nameLength[i] == name.length() && asciiEquals(text, nameStart[i], name)) {
                return i;
            }
        }
        return -1;
    }

    /** The value of the label called {@code name}, or null when the sample has no such label. */
    public String get(String name) {
        int i = indexOf(name);
        return i < 0 ? null : value(i);
    }

    /** Whether the label at {@code index} has exactly the value {@code expected}, without making a String. */
    public boolean valueEquals(int index, String expected) {
        checkIndex(index);
        if (!isAscii(expected)) {
            return value(index).equals(expected);
        }
        return valueLength[index] == expected.length() && asciiEquals(valueBytes(index), valueStart[index], expected);
    }

    public boolean isEmptyValue(int index) {
        checkIndex(index);
        return valueLength[index] == 0;
    }

    /** The value of the label at {@code index} read as a number, or NaN when it is none (say {@code "None"}). */
    public double numberValue(int index) {
        checkIndex(index);
        return PrometheusNumbers.parse(valueBytes(index), valueStart[index], valueStart[index] + valueLength[index]);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("{");
        for (int i = 0; i < size; i++) {
            s.append(i == 0 ? "" : ",").append(name(i)).append("=\"").append(value(i)).append('"');
        }
        return s.append('}').toString();
    }

    // --- filled by the parser ---

    void reset(byte[] text) {
        this.text = text;
        this.size = 0;
        this.unescapedLength = 0;
    }

    void add(int nameFrom, int nameLen, int valueFrom, int valueLen) {
        int i = grow();
        nameStart[i] = nameFrom;
        nameLength[i] = nameLen;
        valueStart[i] = valueFrom;
        valueLength[i] = valueLen;
        valueUnescaped[i] = false;
    }

    /** Adds a label whose value holds escapes: {@code \\}, {@code \"} and {@code \n} are resolved into a copy. */
    void addEscaped(int nameFrom, int nameLen, int valueFrom, int valueTo) {
        int i = grow();
        nameStart[i] = nameFrom;
        nameLength[i] = nameLen;
        if (unescaped.length < unescapedLength + (valueTo - valueFrom)) {
            unescaped = Arrays.copyOf(unescaped, Math.max(unescaped.length * 2, unescapedLength + valueTo - valueFrom));
        }
        int start = unescapedLength;
        int out = start;
        for (int p = valueFrom; p < valueTo; p++) {
            byte b = text[p];
            if (b == '\\' && p + 1 < valueTo) {
                byte next = text[p + 1];
                if (next == 'n') {
                    b = '\n';
                    p++;
                } else if (next == '\\' || next == '"') {
                    b = next;
                    p++;
                }
                // any other escape stays as written, as Prometheus itself does
            }
            unescaped[out++] = b;
        }
        unescapedLength = out;
        valueStart[i] = start;
        valueLength[i] = out - start;
        valueUnescaped[i] = true;
    }

    private int grow() {
        if (size == nameStart.length) {
            int n = size * 2;
            nameStart = Arrays.copyOf(nameStart, n);
            nameLength = Arrays.copyOf(nameLength, n);
            valueStart = Arrays.copyOf(valueStart, n);
            valueLength = Arrays.copyOf(valueLength, n);
            valueUnescaped = Arrays.copyOf(valueUnescaped, n);
        }
        return size++;
    }

    private byte[] valueBytes(int index) {
        return valueUnescaped[index] ? unescaped : text;
    }

    private void checkIndex(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("label " + index + " of " + size);
        }
    }

    private static boolean asciiEquals(byte[] bytes, int offset, String ascii) {
        for (int k = 0; k < ascii.length(); k++) {
            if (bytes[offset + k] != ascii.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isAscii(String s) {
        for (int k = 0; k < s.length(); k++) {
            if (s.charAt(k) > 0x7F) {
                return false;
            }
        }
        return true;
    }
}
