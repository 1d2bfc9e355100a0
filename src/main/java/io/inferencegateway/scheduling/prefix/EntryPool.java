package io.inferencegateway.scheduling.prefix;

import java.util.Arrays;

/**
 * The prefix index's entries, one per (block, endpoint) pair, as parallel primitive arrays: no object per
 * entry, nothing for the garbage collector to trace. Each entry sits in two doubly linked lists, its
 * endpoint's LRU and the holders of its block; the LRU links also chain free entries. The arrays grow by
 * doubling up to a fixed maximum and never shrink.
 */
final class EntryPool {

    static final int NONE = -1;
    static final int BYTES_PER_ENTRY = 8 + 5 * 4;

    long[] hash;
    int[] owner;       // endpoint slot; NONE when the entry is free
    int[] lruPrev;     // towards the endpoint's most recent entry
    int[] lruNext;     // towards its least recent entry; next free entry when free
    int[] holderPrev;  // other endpoints holding the same block
    int[] holderNext;
    int used;

    private final int max;
    private int allocated;
    private int freeList = NONE;

    EntryPool(int initial, int max) {
        this.max = max;
        resize(initial);
    }

    int capacity() {
        return hash.length;
    }

    /** Entries ever handed out: every live entry has an index below this. */
    int allocated() {
        return allocated;
    }

    /** True when the next {@link #allocate} must grow the arrays (and so move the tables). */
    boolean mustGrow() {
        return freeList == NONE && allocated == hash.length;
    }

    void grow() {
        if (hash.length == max) {
            throw new IllegalStateException("entry pool full at " + max);
        }
        resize((int) Math.min(max, 2L * hash.length));
    }

    int allocate() {
        int e;
        if (freeList != NONE) {
            e = freeList;
            freeList = lruNext[e];
        } else {
            e = allocated++;
        }
        used++;
        return e;
    }

    void free(int e) {
        owner[e] = NONE;
        lruNext[e] = freeList;
        freeList = e;
        used--;
    }

    private void resize(int capacity) {
        int old = hash == null ? 0 : hash.length;
        hash = hash == null ? new long[capacity] : Arrays.copyOf(hash, capacity);
        owner = copy(owner, capacity);
        lruPrev = copy(lruPrev, capacity);
        lruNext = copy(lruNext, capacity);
        holderPrev = copy(holderPrev, capacity);
        holderNext = copy(holderNext, capacity);
        Arrays.fill(owner, old, capacity, NONE);
    }

    private static int[] copy(int[] a, int capacity) {
        return a == null ? new int[capacity] : Arrays.copyOf(a, capacity);
    }
}
