package io.inferencegateway.scheduling.prefix;

import static io.inferencegateway.scheduling.prefix.EntryPool.NONE;

import java.util.Arrays;

/**
 * How many leading blocks of one prompt each endpoint holds, computed from few lookups. It relies on the
 * index recording deepest block first, so that the holders of block {@code i + 1} are always a subset of
 * those of block {@code i} and the holder count never rises along a prompt. Then:
 * <ol>
 * <li>the depth (leading blocks anybody holds) is found by galloping, then bisection, on "count > 0";</li>
 * <li>the levels after which the count drops are found by bisection (equal counts at both ends of a
 * range mean equal holder sets all through it);</li>
 * <li>only those levels are credited: a level every tracked endpoint holds, to all of them at once; a
 * short holder list, by walking it; a long one, by probing each candidate's (block, endpoint) pair, since
 * walking a long list is one dependent cache miss after another while probes are independent loads.</li>
 * </ol>
 * Owned by one index and only used under its lock. Use: {@link #start}, {@link #depthOf} per candidate,
 * {@link #finish}.
 */
final class PrefixMatcher {

    /** Holder lists up to this long are walked; longer ones are probed per candidate. */
    static final int WALK_LIMIT = 16;

    private final EntryPool entries;
    private final ProbeTables tables;
    private final int[] slotMatch;
    private final int[] touched;
    private int touchedCount;
    private int universalDepth;
    private int tracked;
    private long[] hashes;
    private int[] levelCount = new int[0];
    private int[] levelPos = new int[0];
    private int[] probeLevels = new int[0];
    private int probeCount;

    PrefixMatcher(EntryPool entries, ProbeTables tables, int maxEndpoints) {
        this.entries = entries;
        this.tables = tables;
        this.slotMatch = new int[maxEndpoints];
        this.touched = new int[maxEndpoints];
    }

    /** Walks the prompt's {@code n} chain hashes; returns how many leading blocks some endpoint holds. */
    int start(long[] chainHashes, int n, int trackedEndpoints) {
        hashes = chainHashes;
        tracked = trackedEndpoints;
        touchedCount = 0;
        universalDepth = 0;
        probeCount = 0;
        if (levelCount.length < n) {
            levelCount = new int[n];
            levelPos = new int[n];
            probeLevels = new int[n];
        }
        Arrays.fill(levelCount, 0, n, -1);
        if (countAt(0) == 0) {
            return 0;
        }
        int depth = depth(n);
        creditLevel(depth - 1);
        findDrops(0, depth - 1);
        Arrays.sort(probeLevels, 0, probeCount);
        return depth;
    }

    /** Leading blocks the endpoint in {@code slot} holds; valid between start and finish. */
    int depthOf(int slot) {
        int known = Math.max(universalDepth, slotMatch[slot]);
        for (int k = probeCount - 1; k >= 0 && probeLevels[k] + 1 > known; k--) {
            if (tables.findPair(hashes[probeLevels[k]], slot) != NONE) {
                return probeLevels[k] + 1;
            }
        }
        return known;
    }

    void finish() {
        for (int k = 0; k < touchedCount; k++) {
            slotMatch[touched[k]] = 0;
        }
        touchedCount = 0;
        hashes = null;
    }

    private int countAt(int level) {
        if (levelCount[level] < 0) {
            int pos = tables.findBlock(hashes[level]);
            levelPos[level] = pos;
            levelCount[level] = pos == NONE ? 0 : tables.holders(pos);
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

    /** Credits every level in [lo, hi) after which the holder count drops. */
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

    private void creditLevel(int level) {
        int depth = level + 1;
        int holders = countAt(level);
        if (holders == tracked) {
            universalDepth = Math.max(universalDepth, depth);
            return;
        }
        if (holders > WALK_LIMIT) {
            probeLevels[probeCount++] = level;
            return;
        }
        for (int e = tables.firstHolder(levelPos[level]); e != NONE; e = entries.holderNext(e)) {
            int s = entries.owner(e);
            if (slotMatch[s] == 0) {
                touched[touchedCount++] = s;
            }
            if (slotMatch[s] < depth) {
                slotMatch[s] = depth;
            }
        }
    }
}
