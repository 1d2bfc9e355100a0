package io.inferencegateway.scheduling.prefix;

import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.inferencegateway.core.Endpoint;

/**
 * Which pod probably holds which prompt blocks in its KV cache, learned from the gateway's own routing
 * decisions: a pod "has" the blocks of every prompt routed to it, until its own LRU drops them.
 *
 * <p>Memory is bounded by construction, not by hope:
 * <ul>
 * <li>each endpoint holds at most {@code blocksPerEndpoint} blocks (its own LRU, modelling the pod's
 * cache);</li>
 * <li>all endpoints together hold at most {@code maxEntries} blocks: once more endpoints are tracked
 * than that allows at full size, each one's share shrinks to {@code maxEntries / endpoints}, and a new
 * block evicts from an endpoint over its share;</li>
 * <li>at most {@code maxEndpoints} endpoints are tracked; a new one beyond that pushes out the one that
 * was routed to least recently, and {@link #retain} drops pods that left the pool.</li>
 * </ul>
 * Storage is a handful of primitive arrays that grow by doubling up to {@code maxEntries} (about 52 bytes
 * a block when full), so recording and matching allocate nothing.
 *
 * <p>Matching exploits one property: blocks are recorded deepest first, so in every endpoint's LRU a
 * prompt's block {@code i} is always more recent than block {@code i + 1}. An endpoint therefore always
 * holds a prefix of any chain, the holders of block {@code i + 1} are a subset of those of block
 * {@code i}, and the holder count per block never rises along a prompt. The match finds the depth and the
 * few levels where the count drops by bisection (a handful of lookups, not one per block and pod) and
 * visits only those levels' holders; a level every tracked endpoint holds is credited without a visit.
 *
 * <p>Thread-safe: one lock per index (one index per pool); both operations take microseconds.
 */
public final class PrefixIndex {

    public static final int DEFAULT_BLOCKS_PER_ENDPOINT = 31_250;
    public static final int DEFAULT_MAX_ENTRIES = 1 << 20;
    public static final int DEFAULT_MAX_ENDPOINTS = 4096;

    private static final int NONE = -1;
    private static final int INITIAL_ENTRIES = 1 << 12;
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;
    /** Up to this many holders a level's list is walked; beyond, candidates are probed instead. */
    private static final int WALK_LIMIT = 16;

    private final int blocksPerEndpoint;
    private final int maxEntries;
    private final int maxEndpoints;

    // one entry = one (block hash, endpoint) pair
    private long[] hash;
    private int[] owner;
    private int[] lruPrev;     // towards the endpoint's most recent entry
    private int[] lruNext;     // towards its least recent entry; also links the free list
    private int[] holderPrev;  // other endpoints holding the same block
    private int[] holderNext;
    private int allocated;
    private int freeList = NONE;
    private int used;

    // open addressing, linear probing, entry index + 1 (0 = empty), at most half full
    private int mask;
    private int[] pairTable;   // (hash, endpoint) -> entry
    private int[] blockTable;  // hash -> first holder entry
    private int[] blockCount;  // hash -> number of holders

    private final HashMap<Endpoint, Integer> slotOf = new HashMap<>();
    private final Endpoint[] endpointOf;
    private final int[] count;
    private final int[] lruHead;
    private final int[] lruTail;
    private final long[] lastRecorded;
    private final int[] freeSlots;
    private int freeSlotCount;
    private int slotHighWater;
    private long tick;
    private int trimCursor;
    private long slotEpoch; // changes whenever an endpoint gets or loses a slot

    // candidate position -> slot, remembered from the last match: pools pass the same Endpoint objects
    // in the same order request after request, so this saves a hash lookup per candidate
    private Endpoint[] seenCandidates = new Endpoint[0];
    private int[] seenSlots = new int[0];
    private long seenEpoch = -1;

    // scratch of match()
    private final int[] slotMatch;
    private final int[] touched;
    private int touchedCount;
    private int universalDepth;
    private long[] levelHashes;
    private int[] levelCount = new int[0];
    private int[] levelPos = new int[0];
    private int[] probeLevels = new int[0];
    private int probeCount;

    public PrefixIndex() {
        this(DEFAULT_BLOCKS_PER_ENDPOINT, DEFAULT_MAX_ENTRIES, DEFAULT_MAX_ENDPOINTS);
    }

    public PrefixIndex(int blocksPerEndpoint, int maxEntries, int maxEndpoints) {
        if (blocksPerEndpoint < 1 || maxEndpoints < 1 || maxEntries < maxEndpoints || maxEntries > (1 << 29)) {
            throw new IllegalArgumentException("need blocksPerEndpoint >= 1, maxEndpoints >= 1 and "
                    + "maxEndpoints <= maxEntries <= 2^29; got " + blocksPerEndpoint + ", " + maxEntries + ", "
                    + maxEndpoints);
        }
        this.blocksPerEndpoint = blocksPerEndpoint;
        this.maxEntries = maxEntries;
        this.maxEndpoints = maxEndpoints;
        endpointOf = new Endpoint[maxEndpoints];
        count = new int[maxEndpoints];
        lruHead = new int[maxEndpoints];
        lruTail = new int[maxEndpoints];
        lastRecorded = new long[maxEndpoints];
        freeSlots = new int[maxEndpoints];
        slotMatch = new int[maxEndpoints];
        touched = new int[maxEndpoints];
        allocateEntries(Math.min(maxEntries, INITIAL_ENTRIES));
    }

    // ---------------------------------------------------------------- recording

    /** Records that the prompt with these chain hashes was routed to {@code endpoint}. */
    public synchronized void record(long[] hashes, int n, Endpoint endpoint) {
        if (n <= 0) {
            return;
        }
        int slot = slotFor(endpoint);
        lastRecorded[slot] = ++tick;
        // deepest block first, so that block 0 ends up the most recent: eviction then cuts chains from the end
        for (int i = n - 1; i >= 0; i--) {
            touch(slot, hashes[i]);
        }
    }

    private void touch(int slot, long h) {
        int e = findPair(h, slot);
        if (e != NONE) {
            if (lruHead[slot] != e) {
                unlinkLru(slot, e);
                pushLru(slot, e);
            }
            return;
        }
        int cap = sharePerEndpoint();
        while (count[slot] >= cap) {
            evict(lruTail[slot]);
        }
        if (used >= maxEntries) {
            evict(lruTail[slotOverShare(cap)]);
        }
        e = allocate();
        hash[e] = h;
        owner[e] = slot;
        pushLru(slot, e);
        insertPair(e);
        addHolder(e);
        used++;
        count[slot]++;
    }

    private int sharePerEndpoint() {
        return Math.min(blocksPerEndpoint, maxEntries / Math.max(1, slotOf.size()));
    }

    /** An endpoint above its share; one exists whenever the index is full and the recording one is not. */
    private int slotOverShare(int cap) {
        int best = NONE;
        for (int k = 0; k < slotHighWater; k++) {
            int s = (trimCursor + k) % slotHighWater;
            if (endpointOf[s] == null) {
                continue;
            }
            if (count[s] > cap) {
                trimCursor = s;
                return s;
            }
            if (best == NONE || count[s] > count[best]) {
                best = s;
            }
        }
        return best;
    }

    private void evict(int e) {
        int slot = owner[e];
        unlinkLru(slot, e);
        count[slot]--;
        removePair(e);
        removeHolder(e);
        owner[e] = NONE;
        lruNext[e] = freeList;
        freeList = e;
        used--;
    }

    // ---------------------------------------------------------------- matching

    /**
     * For each candidate, how many leading blocks of the prompt it holds. The walk goes from block 0 and
     * stops at the first block no endpoint holds.
     *
     * @param out one slot per candidate, overwritten
     * @return the number of leading blocks some endpoint holds
     */
    public synchronized int match(long[] hashes, int n, List<Endpoint> candidates, int[] out) {
        Arrays.fill(out, 0, candidates.size(), 0);
        if (n <= 0 || used == 0) {
            return 0;
        }
        prepareLevels(hashes, n);
        if (countAt(0) == 0) {
            return 0;
        }
        int depth = depth(n);
        touchedCount = 0;
        universalDepth = 0;
        probeCount = 0;
        creditLevel(depth - 1);
        findDrops(0, depth - 1);
        Arrays.sort(probeLevels, 0, probeCount);
        for (int i = 0; i < candidates.size(); i++) {
            int slot = slotOfCandidate(i, candidates.get(i));
            if (slot != NONE) {
                out[i] = probe(slot, Math.max(universalDepth, slotMatch[slot]));
            }
        }
        for (int k = 0; k < touchedCount; k++) {
            slotMatch[touched[k]] = 0;
        }
        return depth;
    }

    /** Deepest probe level above {@code known} that the endpoint holds; probe levels are sorted ascending. */
    private int probe(int slot, int known) {
        for (int k = probeCount - 1; k >= 0 && probeLevels[k] + 1 > known; k--) {
            if (findPair(levelHashes[probeLevels[k]], slot) != NONE) {
                return probeLevels[k] + 1;
            }
        }
        return known;
    }

    private int slotOfCandidate(int i, Endpoint e) {
        if (seenEpoch != slotEpoch || i >= seenCandidates.length) {
            if (i >= seenCandidates.length) {
                int n = Math.max(i + 1, seenCandidates.length * 2);
                seenCandidates = Arrays.copyOf(seenCandidates, n);
                seenSlots = Arrays.copyOf(seenSlots, n);
            }
            if (seenEpoch != slotEpoch) {
                Arrays.fill(seenCandidates, null);
                seenEpoch = slotEpoch;
            }
        }
        if (seenCandidates[i] != e) {
            Integer slot = slotOf.get(e);
            seenCandidates[i] = e;
            seenSlots[i] = slot == null ? NONE : slot;
        }
        return seenSlots[i];
    }

    private void prepareLevels(long[] hashes, int n) {
        if (levelCount.length < n) {
            levelCount = new int[n];
            levelPos = new int[n];
            probeLevels = new int[n];
        }
        Arrays.fill(levelCount, 0, n, -1);
        levelHashes = hashes;
    }

    private int countAt(int level) {
        if (levelCount[level] < 0) {
            int pos = findBlock(levelHashes[level]);
            levelPos[level] = pos;
            levelCount[level] = pos == NONE ? 0 : blockCount[pos];
        }
        return levelCount[level];
    }

    /** Leading levels with at least one holder: gallop 1, 3, 7, 15, ... then bisect. */
    private int depth(int n) {
        int good = 0;
        int bad = n;
        for (int probe = 1; probe < n; probe = probe * 2 + 1) {
            if (countAt(probe) > 0) {
                good = probe;
            } else {
                bad = probe;
                break;
            }
        }
        while (bad - good > 1) {
            int mid = (good + bad) >>> 1;
            if (countAt(mid) > 0) {
                good = mid;
            } else {
                bad = mid;
            }
        }
        return good + 1;
    }

    /** Credits every level in [lo, hi) after which the holder count drops (equal ends: nothing drops between). */
    private void findDrops(int lo, int hi) {
        if (lo >= hi || countAt(lo) == countAt(hi)) {
            return;
        }
        if (hi - lo == 1) {
            creditLevel(lo);
            return;
        }
        int mid = (lo + hi) >>> 1;
        findDrops(lo, mid);
        findDrops(mid, hi);
    }

    /**
     * Credits a level's holders with its depth. A level every tracked endpoint holds is credited to all at
     * once. A long holder list is not walked: walking it is one dependent cache miss after another, while
     * probing each candidate's (block, endpoint) pair makes independent loads the CPU overlaps.
     */
    private void creditLevel(int level) {
        int depth = level + 1;
        int holders = countAt(level);
        if (holders == slotOf.size()) {
            universalDepth = Math.max(universalDepth, depth);
            return;
        }
        if (holders > WALK_LIMIT) {
            probeLevels[probeCount++] = level;
            return;
        }
        for (int e = blockTable[levelPos[level]] - 1; e != NONE; e = holderNext[e]) {
            int s = owner[e];
            if (slotMatch[s] == 0) {
                touched[touchedCount++] = s;
            }
            if (slotMatch[s] < depth) {
                slotMatch[s] = depth;
            }
        }
    }

    // ---------------------------------------------------------------- endpoints

    /** Drops everything known about endpoints that are not in {@code current}. */
    public synchronized void retain(Collection<Endpoint> current) {
        Set<Endpoint> keep = current instanceof Set<Endpoint> s ? s : new HashSet<>(current);
        for (int s = 0; s < slotHighWater; s++) {
            if (endpointOf[s] != null && !keep.contains(endpointOf[s])) {
                dropSlot(s);
            }
        }
    }

    public synchronized void forget(Endpoint endpoint) {
        Integer slot = slotOf.get(endpoint);
        if (slot != null) {
            dropSlot(slot);
        }
    }

    private int slotFor(Endpoint endpoint) {
        Integer known = slotOf.get(endpoint);
        if (known != null) {
            return known;
        }
        if (slotOf.size() == maxEndpoints) {
            dropSlot(stalestSlot());
        }
        int slot = freeSlotCount > 0 ? freeSlots[--freeSlotCount] : slotHighWater++;
        endpointOf[slot] = endpoint;
        count[slot] = 0;
        lruHead[slot] = NONE;
        lruTail[slot] = NONE;
        slotOf.put(endpoint, slot);
        slotEpoch++;
        return slot;
    }

    private int stalestSlot() {
        int stalest = NONE;
        for (int s = 0; s < slotHighWater; s++) {
            if (endpointOf[s] != null && (stalest == NONE || lastRecorded[s] < lastRecorded[stalest])) {
                stalest = s;
            }
        }
        return stalest;
    }

    private void dropSlot(int slot) {
        while (lruTail[slot] != NONE) {
            evict(lruTail[slot]);
        }
        slotOf.remove(endpointOf[slot]);
        endpointOf[slot] = null;
        freeSlots[freeSlotCount++] = slot;
        slotEpoch++;
    }

    // ---------------------------------------------------------------- sizes

    public synchronized int entries() {
        return used;
    }

    public synchronized int trackedEndpoints() {
        return slotOf.size();
    }

    public synchronized int blocksOf(Endpoint endpoint) {
        Integer slot = slotOf.get(endpoint);
        return slot == null ? 0 : count[slot];
    }

    public int maxEntries() {
        return maxEntries;
    }

    /** Bytes held by the index's arrays now (entry arrays, both tables, per-endpoint arrays). */
    public synchronized long footprintBytes() {
        long entryBytes = (long) hash.length * (8 + 5 * 4);
        long tableBytes = (long) pairTable.length * 4 * 3;
        long slotBytes = (long) maxEndpoints * (8 + 8 + 7 * 4);
        return entryBytes + tableBytes + slotBytes;
    }

    /** The footprint when full: the hard bound on this index's memory. */
    public long maxFootprintBytes() {
        long tableSlots = tableSizeFor(maxEntries);
        return (long) maxEntries * (8 + 5 * 4) + tableSlots * 4 * 3 + (long) maxEndpoints * (8 + 8 + 7 * 4);
    }

    // ---------------------------------------------------------------- entry storage

    private int allocate() {
        if (freeList != NONE) {
            int e = freeList;
            freeList = lruNext[e];
            return e;
        }
        if (allocated == hash.length) {
            allocateEntries(Math.min(maxEntries, hash.length * 2));
        }
        return allocated++;
    }

    private void allocateEntries(int capacity) {
        int old = hash == null ? 0 : hash.length;
        hash = hash == null ? new long[capacity] : Arrays.copyOf(hash, capacity);
        owner = grow(owner, capacity);
        lruPrev = grow(lruPrev, capacity);
        lruNext = grow(lruNext, capacity);
        holderPrev = grow(holderPrev, capacity);
        holderNext = grow(holderNext, capacity);
        Arrays.fill(owner, old, capacity, NONE);
        rebuildTables(tableSizeFor(capacity));
    }

    private static int[] grow(int[] a, int capacity) {
        return a == null ? new int[capacity] : Arrays.copyOf(a, capacity);
    }

    private static int tableSizeFor(int capacity) {
        return Integer.highestOneBit(Math.max(2, 2 * capacity - 1)) << 1;
    }

    private void rebuildTables(int size) {
        mask = size - 1;
        pairTable = new int[size];
        blockTable = new int[size];
        blockCount = new int[size];
        for (int e = 0; e < allocated; e++) {
            if (owner[e] == NONE) {
                continue;
            }
            insertPair(e);
            if (holderPrev[e] == NONE) { // the first holder stands for its block
                int pos = freeBlockPos(hash[e]);
                blockTable[pos] = e + 1;
                int n = 0;
                for (int x = e; x != NONE; x = holderNext[x]) {
                    n++;
                }
                blockCount[pos] = n;
            }
        }
    }

    private void unlinkLru(int slot, int e) {
        int p = lruPrev[e];
        int nx = lruNext[e];
        if (p != NONE) {
            lruNext[p] = nx;
        } else {
            lruHead[slot] = nx;
        }
        if (nx != NONE) {
            lruPrev[nx] = p;
        } else {
            lruTail[slot] = p;
        }
    }

    private void pushLru(int slot, int e) {
        int head = lruHead[slot];
        lruPrev[e] = NONE;
        lruNext[e] = head;
        if (head != NONE) {
            lruPrev[head] = e;
        } else {
            lruTail[slot] = e;
        }
        lruHead[slot] = e;
    }

    // ---------------------------------------------------------------- pair table: (hash, endpoint) -> entry

    private int pairHome(long h, int slot) {
        long k = h ^ (slot * GOLDEN);
        return (int) (k ^ (k >>> 32)) & mask;
    }

    private int findPair(long h, int slot) {
        for (int i = pairHome(h, slot);; i = (i + 1) & mask) {
            int v = pairTable[i];
            if (v == 0) {
                return NONE;
            }
            if (hash[v - 1] == h && owner[v - 1] == slot) {
                return v - 1;
            }
        }
    }

    private void insertPair(int e) {
        int i = pairHome(hash[e], owner[e]);
        while (pairTable[i] != 0) {
            i = (i + 1) & mask;
        }
        pairTable[i] = e + 1;
    }

    private void removePair(int e) {
        int i = pairHome(hash[e], owner[e]);
        while (pairTable[i] != e + 1) {
            i = (i + 1) & mask;
        }
        deleteAt(pairTable, null, i, true);
    }

    // ---------------------------------------------------------------- block table: hash -> holders

    private int blockHome(long h) {
        return (int) (h ^ (h >>> 32)) & mask;
    }

    private int findBlock(long h) {
        for (int i = blockHome(h);; i = (i + 1) & mask) {
            int v = blockTable[i];
            if (v == 0) {
                return NONE;
            }
            if (hash[v - 1] == h) {
                return i;
            }
        }
    }

    private int freeBlockPos(long h) {
        int i = blockHome(h);
        while (blockTable[i] != 0) {
            i = (i + 1) & mask;
        }
        return i;
    }

    private void addHolder(int e) {
        int pos = findBlock(hash[e]);
        holderPrev[e] = NONE;
        if (pos == NONE) {
            pos = freeBlockPos(hash[e]);
            holderNext[e] = NONE;
            blockCount[pos] = 1;
        } else {
            int first = blockTable[pos] - 1;
            holderNext[e] = first;
            holderPrev[first] = e;
            blockCount[pos]++;
        }
        blockTable[pos] = e + 1;
    }

    private void removeHolder(int e) {
        int pos = findBlock(hash[e]);
        int p = holderPrev[e];
        int nx = holderNext[e];
        if (p != NONE) {
            holderNext[p] = nx;
        } else {
            blockTable[pos] = nx + 1; // 0 when e was the only holder; the slot is deleted just below
        }
        if (nx != NONE) {
            holderPrev[nx] = p;
        }
        if (--blockCount[pos] == 0) {
            deleteAt(blockTable, blockCount, pos, false);
        }
    }

    /**
     * Backward-shift deletion: later entries of the probe run move into the hole when their home lies at
     * or before it, so lookups never need tombstones.
     */
    private void deleteAt(int[] table, int[] side, int pos, boolean pairKeyed) {
        int hole = pos;
        for (int i = (pos + 1) & mask;; i = (i + 1) & mask) {
            int v = table[i];
            if (v == 0) {
                break;
            }
            int e = v - 1;
            int home = pairKeyed ? pairHome(hash[e], owner[e]) : blockHome(hash[e]);
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

    // ---------------------------------------------------------------- for tests

    /** Walks every structure and throws when two of them disagree. O(size); for tests only. */
    synchronized void checkInvariants() {
        int live = 0;
        for (int s = 0; s < slotHighWater; s++) {
            if (endpointOf[s] == null) {
                continue;
            }
            int n = 0;
            int prev = NONE;
            for (int e = lruHead[s]; e != NONE; e = lruNext[e]) {
                check(owner[e] == s, "entry in the wrong endpoint list");
                check(lruPrev[e] == prev, "broken LRU back link");
                check(findPair(hash[e], s) == e, "entry missing from the pair table");
                check(findBlock(hash[e]) != NONE, "entry's block missing from the block table");
                prev = e;
                n++;
            }
            check(lruTail[s] == prev, "LRU tail");
            check(n == count[s], "endpoint count " + count[s] + " but " + n + " entries");
            check(n <= blocksPerEndpoint, "endpoint over its capacity");
            live += n;
        }
        check(live == used, "used " + used + " but " + live + " live entries");
        check(used <= maxEntries, "over the global bound");
        int holders = 0;
        for (int i = 0; i <= mask; i++) {
            if (blockTable[i] == 0) {
                continue;
            }
            int n = 0;
            for (int e = blockTable[i] - 1; e != NONE; e = holderNext[e]) {
                check(hash[e] == hash[blockTable[i] - 1], "holder with another hash");
                n++;
            }
            check(n == blockCount[i], "holder count");
            holders += n;
        }
        check(holders == used, "holders " + holders + " but used " + used);
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("prefix index broken: " + what);
        }
    }
}
