package io.inferencegateway.simulator;

import java.util.HashMap;
import java.util.Map;

/**
 * Paged KV cache with automatic prefix caching, as vLLM V1's block pool: fixed-size blocks,
 * full blocks registered under a chain hash, blocks nobody references kept in the free queue
 * with their hash (still hittable) and evicted from its head (least recently freed first).
 */
final class KvCacheManager {

    private static final int NONE = -1;

    private final int blockSize;
    private final int numBlocks;
    private final int[] refCount;
    private final long[] hash;
    private final int[] prev;
    private final int[] next;
    private final boolean[] inFree;
    private int head = NONE;
    private int tail = NONE;
    private int freeCount;
    private final Map<Long, Integer> cached = new HashMap<>();
    private long evictions;

    KvCacheManager(int numBlocks, int blockSize) {
        if (numBlocks < 1 || blockSize < 1) {
            throw new IllegalArgumentException("numBlocks and blockSize must be positive");
        }
        this.blockSize = blockSize;
        this.numBlocks = numBlocks;
        this.refCount = new int[numBlocks];
        this.hash = new long[numBlocks];
        this.prev = new int[numBlocks];
        this.next = new int[numBlocks];
        this.inFree = new boolean[numBlocks];
        for (int b = 0; b < numBlocks; b++) {
            append(b);
        }
    }

    /**
     * Number of leading full blocks of the request's tokens found in the cache, capped so that at
     * least one token is left to compute (vLLM: max hit = floor((tokens - 1) / blockSize) blocks).
     */
    int lookupPrefixBlocks(SimRequest r) {
        int maxBlocks = (r.numTokens - 1) / blockSize;
        int hits = 0;
        while (hits < maxBlocks && cached.containsKey(r.blockHash(hits, blockSize))) {
            hits++;
        }
        return hits;
    }

    /**
     * Makes room for {@code numNewTokens} more computed tokens; for a request holding no blocks,
     * first attaches its {@code hitBlocks} cached prefix blocks. All or nothing: returns false and
     * changes nothing when the free queue cannot supply the blocks.
     */
    boolean allocate(SimRequest r, int numNewTokens, int hitBlocks) {
        int total = r.numComputed + numNewTokens;
        int required = (total + blockSize - 1) / blockSize;
        int hitInFree = 0;
        for (int i = 0; i < hitBlocks; i++) {
            if (refCount[cached.get(r.blockHash(i, blockSize))] == 0) {
                hitInFree++;
            }
        }
        int fresh = Math.max(0, required - r.numBlocks - hitBlocks);
        if (fresh + hitInFree > freeCount) {
            return false;
        }
        for (int i = 0; i < hitBlocks; i++) {
            int b = cached.get(r.blockHash(i, blockSize));
            if (refCount[b]++ == 0) {
                unlink(b);
            }
            r.addBlock(b);
        }
        if (hitBlocks > 0) {
            r.numRegistered = Math.max(r.numRegistered, hitBlocks);
        }
        for (int i = 0; i < fresh; i++) {
            int b = head;
            unlink(b);
            if (hash[b] != 0) {
                cached.remove(hash[b], b);
                hash[b] = 0;
                evictions++;
            }
            refCount[b] = 1;
            r.addBlock(b);
        }
        registerFullBlocks(r, Math.min(total, r.numTokens));
        return true;
    }

    /** Releases the request's blocks, last block first, so its tail is evicted before its head. */
    void free(SimRequest r) {
        for (int i = r.numBlocks - 1; i >= 0; i--) {
            int b = r.blockIds[i];
            if (--refCount[b] == 0) {
                append(b);
            }
        }
        r.numBlocks = 0;
        r.numRegistered = 0;
    }

    /** Fraction of blocks in use; cached blocks nobody references count as free (vLLM's usage). */
    double usage() {
        return 1.0 - (double) freeCount / numBlocks;
    }

    int freeBlocks() {
        return freeCount;
    }

    int numBlocks() {
        return numBlocks;
    }

    int blockSize() {
        return blockSize;
    }

    int cachedBlocks() {
        return cached.size();
    }

    long evictions() {
        return evictions;
    }

    private void registerFullBlocks(SimRequest r, int knownTokens) {
        int full = Math.min(knownTokens / blockSize, r.numBlocks);
        for (int i = r.numRegistered; i < full; i++) {
            long h = r.blockHash(i, blockSize);
            int b = r.blockIds[i];
            if (hash[b] == 0) {
                hash[b] = h;
                cached.putIfAbsent(h, b);
            }
        }
        r.numRegistered = Math.max(r.numRegistered, full);
    }

    private void append(int b) {
        prev[b] = tail;
        next[b] = NONE;
        if (tail == NONE) {
            head = b;
        } else {
            next[tail] = b;
        }
        tail = b;
        inFree[b] = true;
        freeCount++;
    }

    private void unlink(int b) {
        if (!inFree[b]) {
            throw new IllegalStateException("block " + b + " is not free");
        }
        if (prev[b] == NONE) {
            head = next[b];
        } else {
            next[prev[b]] = next[b];
        }
        if (next[b] == NONE) {
            tail = prev[b];
        } else {
            prev[next[b]] = prev[b];
        }
        inFree[b] = false;
        freeCount--;
    }
}
