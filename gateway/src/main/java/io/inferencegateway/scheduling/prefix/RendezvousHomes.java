package io.inferencegateway.scheduling.prefix;

import java.util.List;

import io.inferencegateway.domain.Endpoint;

/**
 * Where a prompt prefix should live when several gateway replicas route to the same pods and must agree
 * without talking to each other: rendezvous (highest random weight) hashing of the prefix's leading blocks
 * over the candidate pods, with bounded load.
 *
 * <p>Every replica computes the same weight {@code w(key, pod)} from the prompt's chain hash at block
 * {@code keyBlocks − 1} and the pod's address, so all replicas send a prefix to the same pod, its
 * <em>home</em>. A pod joining takes over only the prefixes for which it now has the highest weight
 * (about 1/n of them); a pod leaving hands over only its own prefixes, each to the pod with its next highest
 * weight. Nothing else moves.
 *
 * <p>Bounded load (consistent hashing with bounded loads): with {@code L} the candidates' total load and
 * {@code n} their number, a pod takes the prefix only while its load plus this request stays within
 * {@code ceil(loadBound × (L + 1) / n) + 1}; otherwise the prefix spills to the eligible pod with the next highest
 * weight, the same second pod on every replica that sees similar loads. At least one pod (the least loaded)
 * is always eligible. The prefix scorer passes the scraped queues corrected for recent dispatches
 * ({@code scheduling/framework/LoadEstimator}), which every replica reads from the same pods.
 *
 * <p>Stateless and thread-safe; no allocation per call.
 */
public final class RendezvousHomes {

    public static final double DEFAULT_LOAD_BOUND = 1.25;
    public static final int DEFAULT_KEY_BLOCKS = 4;

    private final double loadBound;
    private final int keyBlocks;

    /**
     * @param loadBound the bounded-load factor, at least 1: a pod may carry this much more than the average
     * @param keyBlocks leading blocks that identify a prefix (prompts sharing them share a home)
     */
    public RendezvousHomes(double loadBound, int keyBlocks) {
        if (!(loadBound >= 1) || Double.isInfinite(loadBound)) {
            throw new IllegalArgumentException("loadBound must be at least 1, got " + loadBound);
        }
        if (keyBlocks < 1) {
            throw new IllegalArgumentException("keyBlocks must be at least 1, got " + keyBlocks);
        }
        this.loadBound = loadBound;
        this.keyBlocks = keyBlocks;
    }

    public int keyBlocks() {
        return keyBlocks;
    }

    public double loadBound() {
        return loadBound;
    }

    /** The prefix's key: the chain hash of its first {@code keyBlocks} blocks (or of all, if fewer); 0 for none. */
    public long key(long[] hashes, int count) {
        return count == 0 ? 0 : hashes[Math.min(count, keyBlocks) - 1];
    }

    /**
     * The most load a pod may carry, this request included: {@code ceil(loadBound × (total + 1) / pods) + 1}. The
     * extra request keeps a nearly idle pool from spilling on one request a replica has not yet seen finish (a
     * scrape is up to one interval old, and the other replicas' completions are not in this one's counters).
     */
    public long capacity(long totalLoad, int pods) {
        return (long) Math.ceil(loadBound * (totalLoad + 1) / pods) + 1;
    }

    /**
     * The index of the key's home among {@code endpoints}: the highest weight among the pods within the load
     * bound; -1 when there are no endpoints.
     *
     * @param loads each endpoint's load, {@code loads[offset + i]} for {@code endpoints.get(i)}
     */
    public int home(long key, List<Endpoint> endpoints, int[] loads, int offset) {
        int n = endpoints.size();
        long total = 0;
        for (int i = 0; i < n; i++) {
            total += Math.max(0, loads[offset + i]);
        }
        long cap = capacity(total, n);
        int best = -1;
        long bestWeight = 0;
        for (int i = 0; i < n; i++) {
            if (Math.max(0, loads[offset + i]) + 1L > cap) {
                continue;
            }
            long w = weight(key, endpoints.get(i));
            if (best < 0 || Long.compareUnsigned(w, bestWeight) > 0) {
                best = i;
                bestWeight = w;
            }
        }
        return best;
    }

    /** The key's home ignoring load: the pod with the highest weight. */
    public static int rank0(long key, List<Endpoint> endpoints) {
        int best = -1;
        long bestWeight = 0;
        for (int i = 0; i < endpoints.size(); i++) {
            long w = weight(key, endpoints.get(i));
            if (best < 0 || Long.compareUnsigned(w, bestWeight) > 0) {
                best = i;
                bestWeight = w;
            }
        }
        return best;
    }

    /**
     * The rendezvous weight of a pod for a key. It depends only on the key and the pod's address (host string
     * hash, which Java specifies, and port), so every replica, in any JVM, computes the same value.
     */
    public static long weight(long key, Endpoint endpoint) {
        long pod = mix(endpoint.host().hashCode() * 0x9E3779B97F4A7C15L + endpoint.port());
        return mix(key ^ pod);
    }

    /** SplitMix64's finalizer: every input bit affects every output bit. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
