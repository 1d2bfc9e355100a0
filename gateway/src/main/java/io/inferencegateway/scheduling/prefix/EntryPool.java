package io.inferencegateway.scheduling.prefix;

import java.util.Arrays;

/**
 * The prefix index's entries, one per (block, endpoint) pair, in one primitive array: no object per entry,
 * nothing for the garbage collector to trace. Each entry sits in two doubly linked lists, its endpoint's LRU
 * and the holders of its block; the LRU links also chain free entries. An entry's fields lie side by side in
 * {@value #STRIDE} ints (its block hash as two), so reaching one costs one cache line where parallel arrays
 * cost one per field: recording and matching a prompt are a few hundred such hops into a structure far larger
 * than the CPU caches. The array grows by doubling up to a fixed maximum and never shrinks.
 */
final class EntryPool {

    static final int NONE = -1;
    static final int STRIDE = 8;
    static final int BYTES_PER_ENTRY = STRIDE * 4;

    // field offsets within an entry's STRIDE ints; 8 ints, so that no entry straddles two cache lines
    private static final int HASH_LO = 0;
    private static final int HASH_HI = 1;
    private static final int OWNER = 2;        // endpoint slot; NONE when the entry is free
    private static final int LRU_PREV = 3;     // towards the endpoint's most recent entry
    private static final int LRU_NEXT = 4;     // towards its least recent entry; next free entry when free
    private static final int HOLDER_PREV = 5;  // other endpoints holding the same block
    private static final int HOLDER_NEXT = 6;
    private static final int MARK = 7;         // scratch for one operation of the index (PrefixIndex.moveRunsToFront)

    private int[] data;
    private int capacity;
    int used;

    private final int max;
    private int allocated;
    private int freeList = NONE;

    EntryPool(int initial, int max) {
        this.max = max;
        resize(initial);
    }

    long hash(int e) {
        int b = e * STRIDE;
        return (long) data[b + HASH_HI] << 32 | (data[b + HASH_LO] & 0xFFFF_FFFFL);
    }

    /** True when entry {@code e} holds block {@code h} for endpoint {@code slot}: one cache line. */
    boolean is(int e, long h, int slot) {
        int b = e * STRIDE;
        return data[b + HASH_LO] == (int) h && data[b + HASH_HI] == (int) (h >>> 32) && data[b + OWNER] == slot;
    }

    void setHash(int e, long h) {
        int b = e * STRIDE;
        data[b + HASH_LO] = (int) h;
        data[b + HASH_HI] = (int) (h >>> 32);
    }

    int owner(int e) {
        return data[e * STRIDE + OWNER];
    }

    void setOwner(int e, int slot) {
        data[e * STRIDE + OWNER] = slot;
    }

    int lruPrev(int e) {
        return data[e * STRIDE + LRU_PREV];
    }

    void setLruPrev(int e, int v) {
        data[e * STRIDE + LRU_PREV] = v;
    }

    int lruNext(int e) {
        return data[e * STRIDE + LRU_NEXT];
    }

    void setLruNext(int e, int v) {
        data[e * STRIDE + LRU_NEXT] = v;
    }

    int holderPrev(int e) {
        return data[e * STRIDE + HOLDER_PREV];
    }

    void setHolderPrev(int e, int v) {
        data[e * STRIDE + HOLDER_PREV] = v;
    }

    int holderNext(int e) {
        return data[e * STRIDE + HOLDER_NEXT];
    }

    void setHolderNext(int e, int v) {
        data[e * STRIDE + HOLDER_NEXT] = v;
    }

    int mark(int e) {
        return data[e * STRIDE + MARK];
    }

    void setMark(int e, int v) {
        data[e * STRIDE + MARK] = v;
    }

    int capacity() {
        return capacity;
    }

    /** Entries ever handed out: every live entry has an index below this. */
    int allocated() {
        return allocated;
    }

    /** True when the next {@link #allocate} must grow the arrays (and so move the tables). */
    boolean mustGrow() {
        return freeList == NONE && allocated == capacity;
    }

    void grow() {
        if (capacity == max) {
            throw new IllegalStateException("entry pool full at " + max);
        }
        resize((int) Math.min(max, 2L * capacity));
    }

    int allocate() {
        int e;
        if (freeList != NONE) {
            e = freeList;
            freeList = lruNext(e);
        } else {
            e = allocated++;
        }
        used++;
        return e;
    }

    void free(int e) {
        setOwner(e, NONE);
        setLruNext(e, freeList);
        freeList = e;
        used--;
    }

    private void resize(int newCapacity) {
        int old = capacity;
        data = data == null ? new int[newCapacity * STRIDE] : Arrays.copyOf(data, newCapacity * STRIDE);
        capacity = newCapacity;
        for (int e = old; e < newCapacity; e++) {
            setOwner(e, NONE);
        }
    }
}
