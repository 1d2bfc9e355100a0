package io.inferencegateway.scheduling.prefix;

import static io.inferencegateway.scheduling.prefix.EntryPool.NONE;

/**
 * Two open-addressing tables over the {@link EntryPool}: (block hash, endpoint) → entry, to find what an
 * endpoint holds, and block hash → first holder plus holder count, to find who holds a block. Slots store
 * entry index + 1 (0 is empty) and compare keys through the pool's arrays. Linear probing at most half
 * full; deletion shifts later entries back instead of leaving tombstones, so lookups stay short forever.
 *
 * <p>A slot's top {@value #DISPLACEMENT_BITS} bits hold how far it sits from its home slot ({@value #FAR} meaning that
 * far or further). A lookup then compares keys only for slots with its own home, and a deletion finds the homes of the
 * slots it shifts without reading their entries: every entry read is a likely cache miss in a pool far larger than the
 * CPU caches, and recording a prompt on a pod that lacks it inserts and evicts a hundred blocks.
 */
final class ProbeTables {

    private static final long GOLDEN = 0x9E3779B97F4A7C15L;
    /** Entry index + 1 needs 28 bits: the pool holds at most {@link PrefixIndex#MAX_ENTRIES} = 2^27 entries. */
    private static final int ENTRY_BITS = 28;
    private static final int ENTRY_MASK = (1 << ENTRY_BITS) - 1;
    static final int DISPLACEMENT_BITS = 32 - ENTRY_BITS;
    /** The displacement stored for slots this far from home or further: their home is then read from the entry. */
    static final int FAR = (1 << DISPLACEMENT_BITS) - 1;

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
                long h = entries.hash(e);
                int pos = freeBlockPos(h);
                blocks[pos] = slot(e, pos - blockHome(h));
                int n = 0;
                for (int x = e; x != NONE; x = entries.holderNext(x)) {
                    n++;
                }
                blockCounts[pos] = n;
            }
        }
    }

    /** A slot's value for entry {@code e} that sits {@code distance} (mod the table size) from its home. */
    private int slot(int e, int distance) {
        return (e + 1) | Math.min(distance & mask, FAR) << ENTRY_BITS;
    }

    private static int entryOf(int v) {
        return (v & ENTRY_MASK) - 1;
    }

    /** True when the slot holding {@code v}, {@code distance} from the home being looked up, may share that home. */
    private static boolean mayBeHome(int v, int distance) {
        int d = v >>> ENTRY_BITS;
        return d == distance || d == FAR && distance >= FAR;
    }

    /**
     * Reads the table lines that inserting or deleting block {@code h} of endpoint {@code slot} will touch, and returns
     * something of them for the caller to keep (so the reads are not optimised away). Java has no prefetch: a loop of
     * these over a prompt's blocks has many independent cache misses in flight at once, where the inserts and deletes
     * that follow would meet them one after another, each behind the last one's dependent work.
     */
    int warm(long h, int slot) {
        int b = blockHome(h);
        return pairs[pairHome(h, slot)] + blocks[b] + blockCounts[b];
    }

    // ---------------------------------------------------------------- (hash, endpoint) -> entry

    private int pairHome(long h, int slot) {
        long k = h ^ (slot * GOLDEN);
        return (int) (k ^ (k >>> 32)) & mask;
    }

    int findPair(long h, int slot) {
        for (int i = pairHome(h, slot), d = 0;; i = (i + 1) & mask, d++) {
            int v = pairs[i];
            if (v == 0) {
                return NONE;
            }
            if (mayBeHome(v, d) && entries.is(entryOf(v), h, slot)) {
                return entryOf(v);
            }
        }
    }

    void insertPair(int e) {
        int home = pairHome(entries.hash(e), entries.owner(e));
        int i = home;
        while (pairs[i] != 0) {
            i = (i + 1) & mask;
        }
        pairs[i] = slot(e, i - home);
    }

    void removePair(int e) {
        int i = pairHome(entries.hash(e), entries.owner(e));
        while (entryOf(pairs[i]) != e) {
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
        for (int i = blockHome(h), d = 0;; i = (i + 1) & mask, d++) {
            int v = blocks[i];
            if (v == 0) {
                return NONE;
            }
            if (mayBeHome(v, d) && entries.hash(entryOf(v)) == h) {
                return i;
            }
        }
    }

    int firstHolder(int pos) {
        return entryOf(blocks[pos]);
    }

    int holders(int pos) {
        return blockCounts[pos];
    }

    /** Links a new entry in front of its block's holders, in one probe run: it finds the block or where it goes. */
    void addHolder(int e) {
        long h = entries.hash(e);
        entries.setHolderPrev(e, NONE);
        for (int i = blockHome(h), d = 0;; i = (i + 1) & mask, d++) {
            int v = blocks[i];
            if (v == 0) { // the block's first holder
                entries.setHolderNext(e, NONE);
                blockCounts[i] = 1;
                blocks[i] = slot(e, d);
                return;
            }
            int first = entryOf(v);
            if (mayBeHome(v, d) && entries.hash(first) == h) {
                entries.setHolderNext(e, first);
                entries.setHolderPrev(first, e);
                blockCounts[i]++;
                blocks[i] = v & ~ENTRY_MASK | e + 1;
                return;
            }
        }
    }

    /** Unlinks an entry from its block's holders; the block goes when its last holder does. */
    void removeHolder(int e) {
        int pos = findBlock(entries.hash(e));
        int p = entries.holderPrev(e);
        int nx = entries.holderNext(e);
        if (p != NONE) {
            entries.setHolderNext(p, nx);
        } else if (nx != NONE) {
            blocks[pos] = blocks[pos] & ~ENTRY_MASK | nx + 1;
        } // else e was the only holder: the slot is deleted just below
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

    /**
     * Backward shift: later entries of the probe run move into the hole when their home is at or before it. Their homes
     * come from the stored displacements; only a slot {@link #FAR} from home reads its entry.
     */
    private void deleteAt(int[] table, int[] side, int pos, boolean pairKeyed) {
        int hole = pos;
        for (int i = (pos + 1) & mask;; i = (i + 1) & mask) {
            int v = table[i];
            if (v == 0) {
                break;
            }
            int home;
            if (v >>> ENTRY_BITS < FAR) {
                home = (i - (v >>> ENTRY_BITS)) & mask;
            } else {
                int e = entryOf(v);
                home = pairKeyed ? pairHome(entries.hash(e), entries.owner(e)) : blockHome(entries.hash(e));
            }
            if (((i - home) & mask) >= ((i - hole) & mask)) {
                table[hole] = slot(entryOf(v), hole - home);
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
