package io.inferencegateway.metrics;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Finds which of a few metric names a byte range spells, without allocating: a small open-addressed table keyed by
 * the name hash the parser computes while it scans the name. The id of a name is its index in the constructor's
 * argument list.
 */
public final class MetricNameTable {

    private final byte[][] names;
    private final int[] hashes;
    private final int[] slots; // index into names + 1; 0 = empty
    private final int mask;
    private final int maxLength;
    private final long[] bytesAt; // bit (position * 256 + byte): some name has that byte at that position

    public MetricNameTable(String... names) {
        this.names = new byte[names.length][];
        this.hashes = new int[names.length];
        int capacity = Integer.highestOneBit(Math.max(4, names.length * 4) - 1) << 1;
        this.slots = new int[capacity];
        this.mask = capacity - 1;
        int longest = 0;
        for (String name : names) {
            longest = Math.max(longest, name.getBytes(StandardCharsets.UTF_8).length);
        }
        this.maxLength = longest;
        this.bytesAt = new long[longest * 4];
        for (int i = 0; i < names.length; i++) {
            byte[] bytes = names[i].getBytes(StandardCharsets.UTF_8);
            this.names[i] = bytes;
            for (int at = 0; at < bytes.length; at++) {
                int bit = at * 256 + (bytes[at] & 0xFF);
                bytesAt[bit >>> 6] |= 1L << bit;
            }
            this.hashes[i] = hash(bytes, 0, bytes.length);
            int slot = spread(hashes[i]) & mask;
            while (slots[slot] != 0) {
                if (Arrays.equals(this.names[slots[slot] - 1], bytes)) {
                    throw new IllegalArgumentException("duplicate metric name " + names[i]);
                }
                slot = (slot + 1) & mask;
            }
            slots[slot] = i + 1;
        }
    }

    /** The id of the name spelled by {@code text[offset, offset+length)}, or -1 when it is none of the table's. */
    public int find(byte[] text, int offset, int length, int hash) {
        int slot = spread(hash) & mask;
        int entry;
        while ((entry = slots[slot]) != 0) {
            int id = entry - 1;
            if (hashes[id] == hash && Arrays.equals(names[id], 0, names[id].length, text, offset, offset + length)) {
                return id;
            }
            slot = (slot + 1) & mask;
        }
        return -1;
    }

    /**
     * Whether some name of the table has {@code b} at {@code position}: when not, no name that has it there can be
     * one of the table's, whatever follows.
     */
    public boolean mayHave(int position, byte b) {
        if (position >= maxLength) {
            return false;
        }
        int bit = position * 256 + (b & 0xFF);
        return (bytesAt[bit >>> 6] & (1L << bit)) != 0;
    }

    /** The hash {@link PrometheusTextParser} hands to {@link SampleVisitor#select}. */
    public static int hash(byte[] text, int offset, int length) {
        int h = 0;
        for (int i = offset; i < offset + length; i++) {
            h = 31 * h + (text[i] & 0xFF);
        }
        return h;
    }

    private static int spread(int h) {
        return h ^ (h >>> 16);
    }
}
