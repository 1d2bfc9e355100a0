package io.inferencegateway.scheduling.prefix;

import java.util.Objects;

/**
 * The chain hashes of a prompt's full blocks: {@code h_i = hash(block_i, h_(i-1))}, with {@code h_(-1)}
 * derived from the model and adapter names. Because each hash covers everything before it, two prompts
 * share {@code h_i} exactly when they share the first {@code i + 1} blocks, and one lookup per block tells
 * how long a common prefix is. A trailing partial block is left out: engines cache full blocks only.
 *
 * <p>One instance is reused for the requests of one thread: computing allocates nothing.
 */
public final class PromptBlocks {

    /** 64 characters, about 16 tokens at 4 characters a token: one vLLM KV block. */
    public static final int DEFAULT_BLOCK_CHARS = 64;
    public static final int DEFAULT_MAX_BLOCKS = 256;

    private static final long P1 = 0x9E3779B97F4A7C15L;
    private static final long P2 = 0xC2B2AE3D27D4EB4FL;
    private static final long P3 = 0x165667B19E3779F9L;
    private static final long P4 = 0xD6E8FEB86659FD93L;

    private final int blockChars;
    private final int maxBlocks;
    private final long[] hashes;
    private char[] chars; // the prompt's first blocks, copied for hashing; made by the first compute
    private int count;
    // the last seed and what it was made of: a thread's requests mostly name the same model
    private String seedModel;
    private String seedAdapter;
    private long seed;
    private boolean seeded;

    public PromptBlocks() {
        this(DEFAULT_BLOCK_CHARS, DEFAULT_MAX_BLOCKS);
    }

    public PromptBlocks(int blockChars, int maxBlocks) {
        if (blockChars < 16 || blockChars % 16 != 0) {
            throw new IllegalArgumentException("blockChars must be a positive multiple of 16, got " + blockChars);
        }
        if (maxBlocks < 1) {
            throw new IllegalArgumentException("maxBlocks must be positive, got " + maxBlocks);
        }
        this.blockChars = blockChars;
        this.maxBlocks = maxBlocks;
        this.hashes = new long[maxBlocks];
    }

    /** Hashes the prompt's full blocks, at most {@code maxBlocks} of them. */
    public PromptBlocks compute(String model, String adapter, String prompt) {
        int blocks = Math.min(prompt.length() / blockChars, maxBlocks);
        if (chars == null) {
            chars = new char[blockChars * maxBlocks];
        }
        prompt.getChars(0, blocks * blockChars, chars, 0);
        if (!seeded || !Objects.equals(model, seedModel) || !Objects.equals(adapter, seedAdapter)) {
            seed = seed(model, adapter);
            seeded = true;
            seedModel = model;
            seedAdapter = adapter;
        }
        long h = seed;
        for (int b = 0; b < blocks; b++) {
            h = hashBlock(b * blockChars, h);
            hashes[b] = h;
        }
        count = blocks;
        return this;
    }

    /** Makes these the hashes {@code other} computed, which must have the same geometry; copies no characters. */
    public PromptBlocks copyFrom(PromptBlocks other) {
        if (other.blockChars != blockChars || other.maxBlocks != maxBlocks) {
            throw new IllegalArgumentException("different block geometry");
        }
        System.arraycopy(other.hashes, 0, hashes, 0, other.count);
        count = other.count;
        return this;
    }

    public int count() {
        return count;
    }

    public long hash(int block) {
        return hashes[block];
    }

    /** The backing array: valid from 0 to {@link #count()}, overwritten by the next {@code compute}. */
    public long[] hashes() {
        return hashes;
    }

    public int blockChars() {
        return blockChars;
    }

    public int maxBlocks() {
        return maxBlocks;
    }

    static long seed(String model, String adapter) {
        long h = mixString(P1, model == null ? "" : model);
        // a separator so that ("ab", null) and ("a", "b") differ
        return fmix(mixString(h ^ P3, adapter == null ? "" : adapter));
    }

    private static long mixString(long h, String s) {
        for (int i = 0; i < s.length(); i++) {
            h = (h ^ s.charAt(i)) * P2;
        }
        return Long.rotateLeft(h, 27) * P1 + s.length();
    }

    // Four independent lanes, four characters each per step, so the multiplies overlap in the CPU.
    private long hashBlock(int from, long previous) {
        long a = previous ^ P1;
        long b = previous + P2;
        long c = Long.rotateLeft(previous, 17) ^ P3;
        long d = previous * P4;
        char[] cs = chars;
        for (int i = from, end = from + blockChars; i < end; i += 16) {
            a = Long.rotateLeft((a ^ word(cs, i)) * P1, 31);
            b = Long.rotateLeft((b ^ word(cs, i + 4)) * P2, 29);
            c = Long.rotateLeft((c ^ word(cs, i + 8)) * P3, 33);
            d = Long.rotateLeft((d ^ word(cs, i + 12)) * P4, 27);
        }
        return fmix(a ^ Long.rotateLeft(b, 16) ^ Long.rotateLeft(c, 32) ^ Long.rotateLeft(d, 48) ^ previous * P3);
    }

    private static long word(char[] cs, int i) {
        return cs[i] | (long) cs[i + 1] << 16 | (long) cs[i + 2] << 32 | (long) cs[i + 3] << 48;
    }

    /** MurmurHash3's 64-bit finaliser: every input bit flips each output bit with probability about 1/2. */
    static long fmix(long k) {
        k ^= k >>> 33;
        k *= 0xFF51AFD7ED558CCDL;
        k ^= k >>> 33;
        k *= 0xC4CEB9FE1A85EC53L;
        k ^= k >>> 33;
        return k;
    }
}
