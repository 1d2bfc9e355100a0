package io.inferencegateway.scheduling.prefix;

import static io.inferencegateway.scheduling.prefix.EntryPool.NONE;

/**
 * Two open-addressing tables over the {@link EntryPool}: (block hash, endpoint) → entry, to find what an
 * endpoint holds, and block hash → first holder plus holder count, to find who holds a block. Slots store
 * entry index + 1 (0 is empty) and compare keys through the pool's arrays. Linear probing at most half
 * full; deletion shifts later entries back instead of leaving tombstones, so lookups stay short forever.
 */
final class ProbeTables {

    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private final EntryPool entries;
    private int mask;
    private int[] pairs;
    private int[] blocks;
    private int[] blockCounts;

    ProbeTables(EntryPool entries) {
        this.entries = entries;
        rebuild();
    }

    /** Table slots for a pool of {@code capacity} entries: a power of two, at least twice as many. */
    static int sizeFor(int capacity) {
        return Integer.highestOneBit(Math.max(2, 2 * capacity - 1)) << 1;
    }

    static long bytesFor(int capacity) {
        return (long) sizeFor(capacity) * 4 * 3;
    }

    /** Sizes the tables for the pool's current capacity and re-inserts every live entry. */
    void rebuild() {
        int size = sizeFor(entries.capacity());
        mask = size - 1;
        pairs = new int[size];
        blocks = new int[size];
        blockCounts = new int[size];
        for (int e = 0; e < entries.allocated(); e++) {
            if (entries.owner(e) == NONE) {
                continue;
            }
            insertPair(e);
            if (entries.holderPrev(e) == NONE) { // the first holder stands for its block
                int pos = freeBlockPos(entries.hash(e));
                blocks[pos] = e + 1;
                int n = 0;
                for (int x = e; x != NONE; x = entries.holderNext(x)) {
                    n++;
                }
                blockCounts[pos] = n;
            }
        }
    }

    // ---------------------------------------------------------------- (hash, endpoint) -> entry

    private int pairHome(long h, int slot) {
        long k = h ^ (slot * GOLDEN);
        return (int) (k ^ (k >>> 32)) & mask;
    }

    int findPair(long h, int slot) {
        for (int i = pairHome(h, slot);; i = (i + 1) & mask) {
            int v = pairs[i];
            if (v == 0) {
                return NONE;
            }
            if (entries.is(v - 1, h, slot)) {
                return v - 1;
            }
        }
    }

    void insertPair(int e) {
        int i = pairHome(entries.hash(e), entries.owner(e));
        while (pairs[i] != 0) {
            i = (i + 1) & mask;
        }
        pairs[i] = e + 1;
    }

    void removePair(int e) {
        int i = pairHome(entries.hash(e), entries.owner(e));
        while (pairs[i] != e + 1) {
            i = (i + 1) & mask;
        }
        deleteAt(pairs, null, i, true);
    }

    // ---------------------------------------------------------------- hash -> holders

    private int blockHome(long h) {
        return (int) (h ^ (h >>> 32)) & mask;
    }

    /** The block's table position, or NONE when no endpoint holds it. */
    int findBlock(long h) {
        for (int i = blockHome(h);; i = (i + 1) & mask) {
            int v = blocks[i];
            if (v == 0) {
                return NONE;
            }
            if (entries.hash(v - 1) == h) {
                return i;
            }
        }
    }

    int firstHolder(int pos) {
        return blocks[pos] - 1;
    }

    int holders(int pos) {
        return blockCounts[pos];
    }

    /** Links a new entry in front of its block's holders. */
    void addHolder(int e) {
        long h = entries.hash(e);
        int pos = findBlock(h);
        entries.setHolderPrev(e, NONE);
        if (pos == NONE) {
            pos = freeBlockPos(h);
            entries.setHolderNext(e, NONE);
            blockCounts[pos] = 1;
        } else {
            int first = blocks[pos] - 1;
            entries.setHolderNext(e, first);
            entries.setHolderPrev(first, e);
            blockCounts[pos]++;
        }
        blocks[pos] = e + 1;
    }

    /** Unlinks an entry from its block's holders; the block goes when its last holder does. */
    void removeHolder(int e) {
        int pos = findBlock(entries.hash(e));
        int p = entries.holderPrev(e);
        int nx = entries.holderNext(e);
        if (p != NONE) {
            entries.setHolderNext(p, nx);
        } else {
            blocks[pos] = nx + 1; // 0 when e was the only holder; the slot is deleted just below
        }
        if (nx != NONE) {
            entries.setHolderPrev(nx, p);
        }
        if (--blockCounts[pos] == 0) {
            deleteAt(blocks, blockCounts, pos, false);
        }
    }

    private int freeBlockPos(long h) {
        int i = blockHome(h);
        while (blocks[i] != 0) {
            i = (i + 1) & mask;
        }
        return i;
    }

    /** Backward shift: later entries of the probe run move into the hole when their home is at or before it. */
    private void deleteAt(int[] table, int[] side, int pos, boolean pairKeyed) {
        int hole = pos;
        for (int i = (pos + 1) & mask;; i = (i + 1) & mask) {
            int v = table[i];
            if (v == 0) {
                break;
            }
            int e = v - 1;
            int home = pairKeyed ? pairHome(entries.hash(e), entries.owner(e)) : blockHome(entries.hash(e));
            if (((i - home) & mask) >= ((i - hole) & mask)) {
                table[hole] = v;
                if (side != null) {
                    side[hole] = side[i];
                }
                hole = i;
            }
        }
        table[hole] = 0;
        if (side != null) {
            side[hole] = 0;
        }
    }

    long bytes() {
        return (long) pairs.length * 4 * 3;
    }

    /** Every block position, for the invariant check in tests. */
    int size() {
        return mask + 1;
    }

    boolean blockAt(int pos) {
        return blocks[pos] != 0;
    }
}
