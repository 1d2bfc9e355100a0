package io.inferencegateway.kvevents;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.inferencegateway.domain.Endpoint;

/**
 * What each engine holds in its KV cache, from its own events: for each endpoint, the blocks of tokens it has, keyed by
 * the gateway's own hash of a block and of everything before it (so that a key names a whole prefix), and the medium
 * each sits in. The engine's block hashes (seeded at random unless the engine is told otherwise) only name blocks
 * between a store and its removal: a {@code BlockStored} carries the tokens, from which the gateway computes its keys,
 * chained from the parent block's. A request's prompt tokens, cut into blocks of the engine's size and hashed alike,
 * then find the longest prefix each endpoint holds ({@link #match}).
 *
 * <p>The LoRA adapter is in the key (its blocks are not the base model's). A block kept in two media counts in the
 * better one. What an engine says after a gap that could not be replayed, or after its restart, starts from nothing
 * ({@link #reset}); a block whose parent the index never heard of cannot be keyed and is counted as an orphan. An
 * endpoint holds at most {@code maxBlocks} blocks here; past that new ones are counted and dropped (an engine evicts
 * and says so, so its real count stays within its cache's size).
 *
 * <p>Thread-safe: events come from the subscriber's one thread; requests read each endpoint's keys, a concurrent map,
 * without a lock.
 */
public final class EngineCacheIndex implements KvEventSubscriber.KvEventListener {

    /** The weight of a block in each medium: one in accelerator memory saves its whole prefill, one on CPU most of it. */
    public record MediumWeights(double gpu, double cpu, double disk) {
        public static final MediumWeights DEFAULT = new MediumWeights(1.0, 0.8, 0.5);

        double of(KvEvent.Medium m) {
            return switch (m) {
                case GPU -> gpu;
                case CPU -> cpu;
                case DISK, OTHER -> disk;
            };
        }
    }

    /**
     * The longest prefix of a prompt that an endpoint holds.
     *
     * @param tokens         its tokens (whole blocks)
     * @param weightedTokens the same, each block weighted by the medium it sits in
     */
    public record PrefixHeld(int tokens, double weightedTokens) {
        public static final PrefixHeld NONE = new PrefixHeld(0, 0);
    }

    private final int maxBlocks;
    private final MediumWeights weights;
    private final Map<Endpoint, Engine> engines = new ConcurrentHashMap<>();

    /** @param maxBlocks the most blocks kept for one endpoint */
    public EngineCacheIndex(int maxBlocks, MediumWeights weights) {
        this.maxBlocks = maxBlocks;
        this.weights = weights;
    }

    @Override
    public void batch(Endpoint endpoint, KvEventBatch batch) {
        Engine engine = engines.computeIfAbsent(endpoint, e -> new Engine());
        for (KvEvent event : batch.events()) {
            if (event instanceof KvEvent.BlockStored stored) {
                engine.stored(stored);
            } else if (event instanceof KvEvent.BlockRemoved removed) {
                engine.removed(removed);
            } else {
                engine.clear();
            }
        }
    }

    @Override
    public void reset(Endpoint endpoint, String why) {
        Engine engine = engines.get(endpoint);
        if (engine != null) {
            engine.clear();
        }
    }

    /** Forgets {@code endpoint} (it left its pool). */
    public void forget(Endpoint endpoint) {
        engines.remove(endpoint);
    }

    /**
     * The longest prefix of {@code promptTokens} that {@code endpoint} holds, for requests to the base model when
     * {@code lora} is null, else to that adapter.
     */
    public PrefixHeld match(Endpoint endpoint, int[] promptTokens, String lora) {
        Engine engine = engines.get(endpoint);
        if (engine == null || engine.blockSize == 0) {
            return PrefixHeld.NONE;
        }
        int size = engine.blockSize;
        long key = root(lora);
        int tokens = 0;
        double weighted = 0;
        for (int start = 0; start + size <= promptTokens.length; start += size) {
            key = next(key, promptTokens, start, size);
            Byte media = engine.held.get(key);
            if (media == null) {
                break;
            }
            tokens += size;
            weighted += size * best(media);
        }
        return new PrefixHeld(tokens, weighted);
    }

    /** How many blocks the index holds for {@code endpoint}. */
    public int blocks(Endpoint endpoint) {
        Engine engine = engines.get(endpoint);
        return engine == null ? 0 : engine.held.size();
    }

    /** Blocks of {@code endpoint} that could not be keyed (their parent unknown) or kept (past {@code maxBlocks}). */
    public long dropped(Endpoint endpoint) {
        Engine engine = engines.get(endpoint);
        return engine == null ? 0 : engine.dropped;
    }

    private double best(byte media) {
        double w = 0;
        for (KvEvent.Medium m : KvEvent.Medium.values()) {
            if ((media & 1 << m.ordinal()) != 0) {
                w = Math.max(w, weights.of(m));
            }
        }
        return w;
    }

    /** The key before a prompt's first block: the adapter's (or the base model's). */
    static long root(String lora) {
        return mix(lora == null ? 0x243F6A8885A308D3L : lora.hashCode() * 0x9E3779B97F4A7C15L + 1);
    }

    /** The key of the block of {@code size} tokens at {@code start}, after the prefix whose key is {@code previous}. */
    static long next(long previous, int[] tokens, int start, int size) {
        long h = previous;
        for (int i = start; i < start + size; i++) {
            h = (h ^ tokens[i]) * 0x100000001B3L + 0x9E3779B97F4A7C15L;
        }
        return mix(h ^ size);
    }

    /** A 64-bit finalizer (the one of SplitMix64). */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** One endpoint's blocks. */
    private final class Engine {
        /** The gateway's key of each block by the engine's hash, and its media (a bit each): the subscriber's only. */
        final Map<Long, long[]> byEngineHash = new HashMap<>();
        /** The media each key is held in, one bit each: read by requests. */
        final Map<Long, Byte> held = new ConcurrentHashMap<>();
        volatile int blockSize;
        volatile long dropped;

        void stored(KvEvent.BlockStored e) {
            long key;
            if (e.parentHash() == null) {
                key = root(e.loraName());
            } else {
                long[] parent = byEngineHash.get(e.parentHash());
                if (parent == null) {
                    dropped += e.blockHashes().length;
                    return;
                }
                key = parent[0];
            }
            blockSize = e.blockSize();
            int bit = 1 << e.medium().ordinal();
            for (int b = 0; b < e.blockHashes().length; b++) {
                if ((b + 1) * e.blockSize() > e.tokenIds().length) {
                    dropped += e.blockHashes().length - b; // a partial block is not reused by the engine either
                    return;
                }
                key = next(key, e.tokenIds(), b * e.blockSize(), e.blockSize());
                if (held.size() >= maxBlocks && !held.containsKey(key)) {
                    dropped++;
                    continue;
                }
                long[] block = byEngineHash.computeIfAbsent(e.blockHashes()[b], h -> new long[2]);
                block[0] = key;
                block[1] |= bit;
                held.merge(key, (byte) bit, (a, c) -> (byte) (a | c));
            }
        }

        void removed(KvEvent.BlockRemoved e) {
            int bit = 1 << e.medium().ordinal();
            for (long hash : e.blockHashes()) {
                long[] block = byEngineHash.get(hash);
                if (block == null) {
                    continue;
                }
                block[1] &= ~bit;
                held.computeIfPresent(block[0], (k, media) -> (media & ~bit) == 0 ? null : (byte) (media & ~bit));
                if (block[1] == 0) {
                    byEngineHash.remove(hash);
                }
            }
        }

        void clear() {
            byEngineHash.clear();
            held.clear();
        }
    }
}
