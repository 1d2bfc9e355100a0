package io.inferencegateway.scheduling.prefix;

import static io.inferencegateway.scheduling.prefix.EntryPool.NONE;

import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.inferencegateway.domain.Endpoint;

/**
 * Which pod probably holds which prompt blocks in its KV cache, learned from the gateway's own routing
 * decisions: a pod "has" the blocks of every prompt routed to it, until its own LRU drops them.
 *
 * <p>Memory is bounded by construction, not by hope:
 * <ul>
 * <li>each endpoint holds at most {@code blocksPerEndpoint} blocks (its own LRU, modelling the pod's
 * cache), or fewer when the pod says its KV cache is smaller ({@link #record(long[], int, Endpoint, int)}):
 * a pod cannot still hold a prompt that its own cache has had to evict;</li>
 * <li>all endpoints together hold at most {@code maxEntries} blocks: once more endpoints are tracked
 * than that allows at full size, each one's share shrinks to {@code maxEntries / endpoints}, and a new
 * block evicts from an endpoint over its share;</li>
 * <li>at most {@code maxEndpoints} endpoints are tracked; a new one beyond that pushes out the one that
 * was routed to least recently, and {@link #retain} drops pods that left the pool.</li>
 * </ul>
 * Storage is a handful of primitive arrays that grow by doubling up to {@code maxEntries} (about 56 bytes
 * a block when full), so recording and matching allocate nothing.
 *
 * <p>Blocks are recorded deepest first, so in every endpoint's LRU a prompt's block {@code i} is always
 * more recent than block {@code i + 1}: eviction cuts chains from the end, and an endpoint always holds a
 * prefix of any chain. {@link PrefixMatcher} builds on that to match a prompt with a handful of lookups.
 * Storage: {@link EntryPool} (entries and their links) and {@link ProbeTables} (the two hash tables).
 *
 * <p>Thread-safe: one lock per index (one index per pool); both operations take microseconds.
 */
public final class PrefixIndex {

    public static final int DEFAULT_BLOCKS_PER_ENDPOINT = 31_250;
    public static final int DEFAULT_MAX_ENTRIES = 1 << 20;
    public static final int DEFAULT_MAX_ENDPOINTS = 4096;
    /** The most entries an index may be given: 2^27 (4 GiB of entries), so that array sizes stay within int range. */
    public static final int MAX_ENTRIES = 1 << 27;

    private static final int INITIAL_ENTRIES = 1 << 12;
    private static final int BYTES_PER_SLOT = 8 + 8 + 7 * 4;

    final int blocksPerEndpoint;
    final int maxEntries;
    private final int maxEndpoints;
    final EntryPool entries;
    final ProbeTables tables;
    private final PrefixMatcher matcher;

    // endpoint slots
    final HashMap<Endpoint, Integer> slotOf = new HashMap<>();
    final Endpoint[] endpointOf;
    final int[] count;
    /** Per slot: the most blocks it may hold (its pod's cache size when known, else blocksPerEndpoint). */
    private final int[] limit;
    final int[] lruHead;
    final int[] lruTail;
    private final long[] lastRecorded;
    private final int[] freeSlots;
    private int freeSlotCount;
    int slotHighWater;
    private long tick;
    private int trimCursor;
    private long slotEpoch; // changes whenever an endpoint gets or loses a slot
    private int lastSlot; // the slot slotFor returned last; its endpointOf entry tells whether it still is that pod's
    // the runs of a prompt's held blocks in its endpoint's LRU list (moveRunsToFront)
    private int[] runFirst = new int[0];
    private int[] runLast = new int[0];
    @SuppressWarnings("unused") // written so that warm's reads are kept
    private int warmed;

    // candidate position -> slot, remembered from the last match: pools pass the same Endpoint objects
    // in the same order request after request, so this saves a hash lookup per candidate
    private Endpoint[] seenCandidates = new Endpoint[0];
    private int[] seenSlots = new int[0];
    private long seenEpoch = -1;

    public PrefixIndex() {
        this(DEFAULT_BLOCKS_PER_ENDPOINT, DEFAULT_MAX_ENTRIES, DEFAULT_MAX_ENDPOINTS);
    }

    public PrefixIndex(int blocksPerEndpoint, int maxEntries, int maxEndpoints) {
        if (blocksPerEndpoint < 1 || maxEndpoints < 1 || maxEntries < maxEndpoints || maxEntries > MAX_ENTRIES) {
            throw new IllegalArgumentException("need blocksPerEndpoint >= 1, maxEndpoints >= 1 and "
                    + "maxEndpoints <= maxEntries <= 2^27; got " + blocksPerEndpoint + ", " + maxEntries + ", "
                    + maxEndpoints);
        }
        this.blocksPerEndpoint = blocksPerEndpoint;
        this.maxEntries = maxEntries;
        this.maxEndpoints = maxEndpoints;
        entries = new EntryPool(Math.min(maxEntries, INITIAL_ENTRIES), maxEntries);
        tables = new ProbeTables(entries);
        matcher = new PrefixMatcher(entries, tables, maxEndpoints);
        endpointOf = new Endpoint[maxEndpoints];
        count = new int[maxEndpoints];
        limit = new int[maxEndpoints];
        lruHead = new int[maxEndpoints];
        lruTail = new int[maxEndpoints];
        lastRecorded = new long[maxEndpoints];
        freeSlots = new int[maxEndpoints];
    }

    // ---------------------------------------------------------------- recording

    /** Records that the prompt with these chain hashes was routed to {@code endpoint}. */
    public synchronized void record(long[] hashes, int n, Endpoint endpoint) {
        record(hashes, n, endpoint, 0);
    }

    /**
     * Records that the prompt with these chain hashes was routed to {@code endpoint}, whose KV cache holds
     * {@code cacheBlocks} blocks (0 or less: unknown). The endpoint's LRU is capped at that size: a pod with
     * a 6,000-block cache cannot still hold the 20,000 blocks routed to it, and remembering them would keep
     * sending prompts to a pod that has evicted them.
     */
    public synchronized void record(long[] hashes, int n, Endpoint endpoint, int cacheBlocks) {
        if (n <= 0) {
            return;
        }
        int slot = slotFor(endpoint);
        limit[slot] = cacheBlocks > 0 ? Math.min(cacheBlocks, blocksPerEndpoint) : blocksPerEndpoint;
        lastRecorded[slot] = ++tick;
        // deepest block first, so that block 0 ends up the most recent: eviction then cuts chains from the end.
        // The endpoint holds a prefix of the chain, so the blocks past it are added without looking them up first.
        int held = heldPrefix(hashes, n, slot);
        int share = sharePerEndpoint(); // the tracked endpoints stay the same while recording: once per record
        warm(hashes, held, n, slot, share);
        for (int i = n - 1; i >= held; i--) {
            add(slot, hashes[i], share);
        }
        if (held > 0 && !moveRunsToFront(hashes, held, slot)) {
            for (int i = held - 1; i >= 0; i--) {
                touch(slot, hashes[i], share);
            }
        }
    }

    /**
     * Brings in the table lines that adding blocks {@code held .. n-1} will touch, and those of the blocks the
     * endpoint's LRU will evict to make room for them (see {@link ProbeTables#warm}); it changes nothing.
     */
    private void warm(long[] hashes, int held, int n, int slot, int share) {
        int adds = n - held;
        int evictions = Math.min(adds, count[slot] + adds - Math.min(share, limit[slot]));
        int sum = 0;
        for (int i = held; i < n; i++) {
            sum += tables.warm(hashes[i], slot);
        }
        for (int e = lruTail[slot], k = 0; k < evictions && e != NONE; k++, e = entries.lruPrev(e)) {
            sum += tables.warm(entries.hash(e), slot);
        }
        warmed = sum;
    }

    /**
     * Makes blocks {@code 0 .. held-1}, all held, the endpoint's most recent, block 0 first: what touching them one
     * by one, deepest first, does, without a table lookup and two relinks per block. A prompt's blocks mostly sit
     * side by side in the LRU (they were added or moved together), so from block 0's entry the next ones are found
     * by following the list; each stretch found so (a run) moves to the front in one splice, deepest run first,
     * which leaves the list exactly as the one-by-one touches would. Returns false, having moved nothing, when one of
     * the blocks is no longer held (the adds before evicted it) or the chain names an entry twice (a hash collision):
     * the caller then touches block by block.
     */
    private boolean moveRunsToFront(long[] hashes, int held, int slot) {
        if (runFirst.length < held) {
            runFirst = new int[Math.max(held, 2 * runFirst.length)];
            runLast = new int[runFirst.length];
        }
        int mark = (int) tick;
        int runs = 0;
        int e = NONE;
        for (int i = 0; i < held; i++) {
            int next = e == NONE ? NONE : entries.lruNext(e);
            if (next == NONE || !entries.is(next, hashes[i], slot)) {
                next = tables.findPair(hashes[i], slot);
                if (next == NONE) {
                    return false;
                }
                if (runs > 0) {
                    runLast[runs - 1] = e;
                }
                runFirst[runs++] = next;
            }
            if (entries.mark(next) == mark) {
                return false;
            }
            e = next;
            entries.setMark(e, mark);
        }
        runLast[runs - 1] = e;
        for (int r = runs - 1; r >= 0; r--) {
            spliceToFront(slot, runFirst[r], runLast[r]);
        }
        return true;
    }

    /** Moves the stretch {@code first .. last} of the endpoint's LRU list to its front, keeping its order. */
    private void spliceToFront(int slot, int first, int last) {
        int p = entries.lruPrev(first);
        if (p == NONE) {
            return; // already the most recent
        }
        int nx = entries.lruNext(last);
        entries.setLruNext(p, nx);
        if (nx != NONE) {
            entries.setLruPrev(nx, p);
        } else {
            lruTail[slot] = p;
        }
        int head = lruHead[slot];
        entries.setLruPrev(first, NONE);
        entries.setLruNext(last, head);
        entries.setLruPrev(head, last);
        lruHead[slot] = first;
    }

    /**
     * How many leading blocks of the chain the endpoint holds. It holds a prefix of every chain (see the class
     * comment), so one lookup settles a full hit or a miss from block 0, and a bisection the rest.
     */
    private int heldPrefix(long[] hashes, int n, int slot) {
        if (count[slot] == 0 || tables.findPair(hashes[0], slot) == NONE) {
            return 0;
        }
        if (tables.findPair(hashes[n - 1], slot) != NONE) {
            return n;
        }
        int lo = 1; // [0, lo) held, [hi, n) not
        int hi = n - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (tables.findPair(hashes[mid], slot) != NONE) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private void touch(int slot, long h, int share) {
        int e = tables.findPair(h, slot);
        if (e != NONE) {
            if (lruHead[slot] != e) {
                unlinkLru(slot, e);
                pushLru(slot, e);
            }
            return;
        }
        add(slot, h, share);
    }

    /** Adds block {@code h}, which the endpoint does not hold, as its most recent; {@code share}: {@link #sharePerEndpoint()}. */
    private void add(int slot, long h, int share) {
        int own = Math.min(share, limit[slot]);
        while (count[slot] >= own) {
            evict(lruTail[slot]);
        }
        if (entries.used >= maxEntries) {
            evict(lruTail[slotOverShare(share)]);
        }
        if (entries.mustGrow()) {
            entries.grow();
            tables.rebuild();
        }
        int e = entries.allocate();
        entries.setHash(e, h);
        entries.setOwner(e, slot);
        pushLru(slot, e);
        tables.insertPair(e);
        tables.addHolder(e);
        count[slot]++;
    }

    private int sharePerEndpoint() {
        return Math.min(blocksPerEndpoint, maxEntries / Math.max(1, slotOf.size()));
    }

    /** An endpoint above its share; one exists whenever the index is full and the recording one is not. */
    private int slotOverShare(int share) {
        int best = NONE;
        for (int k = 0; k < slotHighWater; k++) {
            int s = (trimCursor + k) % slotHighWater;
            if (endpointOf[s] == null) {
                continue;
            }
            if (count[s] > share) {
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
        int slot = entries.owner(e);
        unlinkLru(slot, e);
        count[slot]--;
        tables.removePair(e);
        tables.removeHolder(e);
        entries.free(e);
    }

    private void unlinkLru(int slot, int e) {
        int p = entries.lruPrev(e);
        int nx = entries.lruNext(e);
        if (p != NONE) {
            entries.setLruNext(p, nx);
        } else {
            lruHead[slot] = nx;
        }
        if (nx != NONE) {
            entries.setLruPrev(nx, p);
        } else {
            lruTail[slot] = p;
        }
    }

    private void pushLru(int slot, int e) {
        int head = lruHead[slot];
        entries.setLruPrev(e, NONE);
        entries.setLruNext(e, head);
        if (head != NONE) {
            entries.setLruPrev(head, e);
        } else {
            lruTail[slot] = e;
        }
        lruHead[slot] = e;
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
        if (n <= 0 || entries.used == 0) {
            return 0;
        }
        int depth = matcher.start(hashes, n, slotOf.size());
        if (depth > 0) {
            for (int i = 0; i < candidates.size(); i++) {
                int slot = slotOfCandidate(i, candidates.get(i));
                if (slot != NONE) {
                    out[i] = matcher.depthOf(slot);
                }
            }
        }
        matcher.finish();
        return depth;
    }

    private int slotOfCandidate(int i, Endpoint e) {
        if (i >= seenCandidates.length) {
            int n = Math.max(i + 1, seenCandidates.length * 2);
            seenCandidates = Arrays.copyOf(seenCandidates, n);
            seenSlots = Arrays.copyOf(seenSlots, n);
        }
        if (seenEpoch != slotEpoch) {
            Arrays.fill(seenCandidates, null);
            seenEpoch = slotEpoch;
        }
        if (seenCandidates[i] != e) {
            Integer slot = slotOf.get(e);
            seenCandidates[i] = e;
            seenSlots[i] = slot == null ? NONE : slot;
        }
        return seenSlots[i];
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
        int last = lastSlot; // a pool's picks mostly go to few pods: the one recorded last, without the map
        if (endpoint != null && endpointOf[last] == endpoint) {
            return last;
        }
        Integer known = slotOf.get(endpoint);
        if (known != null) {
            lastSlot = known;
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
        lastSlot = slot;
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
        return entries.used;
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

    /** Bytes held by the index's arrays now (entries, both tables, per-endpoint arrays). */
    public synchronized long footprintBytes() {
        return (long) entries.capacity() * EntryPool.BYTES_PER_ENTRY + tables.bytes()
                + (long) maxEndpoints * BYTES_PER_SLOT;
    }

    /** The footprint when full: the hard bound on this index's memory. */
    public long maxFootprintBytes() {
        return (long) maxEntries * EntryPool.BYTES_PER_ENTRY + ProbeTables.bytesFor(maxEntries)
                + (long) maxEndpoints * BYTES_PER_SLOT;
    }
}
