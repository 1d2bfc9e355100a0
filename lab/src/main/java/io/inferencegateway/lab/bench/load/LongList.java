package io.inferencegateway.lab.bench.load;

import java.util.Arrays;

/** A growable array of primitive longs: latency samples without boxing. */
public final class LongList {

    private long[] values;
    private int size;

    public LongList() {
        this(16);
    }

    public LongList(int capacity) {
        values = new long[Math.max(1, capacity)];
    }

    public void add(long value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, values.length * 2);
        }
        values[size++] = value;
    }

    public void addAll(long[] more) {
        for (long v : more) {
            add(v);
        }
    }

    public int size() {
        return size;
    }

    public long get(int i) {
        if (i >= size) {
            throw new IndexOutOfBoundsException(i);
        }
        return values[i];
    }

    public long[] toArray() {
        return Arrays.copyOf(values, size);
    }
}
