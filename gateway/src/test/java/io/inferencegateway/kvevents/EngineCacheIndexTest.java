package io.inferencegateway.kvevents;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.inferencegateway.domain.Endpoint;

/**
 * The index of what each engine holds, fed with the engine's own events: prefixes found across events chained by their
 * parents, removals, media and their weights, adapters, a clear, a reset, blocks whose parent it never heard of, and
 * its bound.
 */
class EngineCacheIndexTest {

    static final Endpoint POD = new Endpoint("10.0.0.1", 8000);
    static final Endpoint OTHER = new Endpoint("10.0.0.2", 8000);

    final EngineCacheIndex index = new EngineCacheIndex(1_000, EngineCacheIndex.MediumWeights.DEFAULT);

    @Test
    void aPromptFindsTheLongestPrefixItsEngineSaidItStoredAcrossEvents() {
        // blocks of 2 tokens: [1,2] [3,4] in one event, then [5,6] after [3,4] in another
        index.batch(POD, batch(stored(new long[] {101, 102}, null, 1, 2, 3, 4)));
        index.batch(POD, batch(stored(new long[] {103}, 102L, 5, 6)));

        assertThat(index.match(POD, new int[] {1, 2, 3, 4, 5, 6, 7}, null).tokens()).isEqualTo(6);
        assertThat(index.match(POD, new int[] {1, 2, 3, 9, 5, 6}, null).tokens()).isEqualTo(2);
        assertThat(index.match(POD, new int[] {3, 4, 5, 6}, null).tokens()).as("a prefix starts at the prompt's start")
                .isZero();
        assertThat(index.match(OTHER, new int[] {1, 2, 3, 4}, null)).isEqualTo(EngineCacheIndex.PrefixHeld.NONE);
        assertThat(index.blocks(POD)).isEqualTo(3);
    }

    @Test
    void aRemovedBlockEndsThePrefixThereAndAnOffloadedOneWeighsLess() {
        index.batch(POD, batch(stored(new long[] {101, 102, 103}, null, 1, 2, 3, 4, 5, 6)));
        index.batch(POD, new KvEventBatch(0, List.of(
                new KvEvent.BlockStored(new long[] {102}, 101L, new int[] {3, 4}, 2, null, KvEvent.Medium.CPU, 0),
                new KvEvent.BlockRemoved(new long[] {102}, KvEvent.Medium.GPU, 0)), -1, 0));

        EngineCacheIndex.PrefixHeld m = index.match(POD, new int[] {1, 2, 3, 4, 5, 6}, null);
        assertThat(m.tokens()).isEqualTo(6);
        assertThat(m.weightedTokens()).isEqualTo(2 + 2 * 0.8 + 2);

        index.batch(POD, batch(new KvEvent.BlockRemoved(new long[] {102}, KvEvent.Medium.CPU, 0)));
        assertThat(index.match(POD, new int[] {1, 2, 3, 4, 5, 6}, null).tokens()).isEqualTo(2);
    }

    @Test
    void anAdaptersBlocksAreNotTheBaseModels() {
        index.batch(POD, batch(new KvEvent.BlockStored(new long[] {201}, null, new int[] {1, 2}, 2, "sql-lora",
                KvEvent.Medium.GPU, 0)));
        assertThat(index.match(POD, new int[] {1, 2}, null).tokens()).isZero();
        assertThat(index.match(POD, new int[] {1, 2}, "sql-lora").tokens()).isEqualTo(2);
    }

    @Test
    void aClearAResetAndAnUnknownParentLeaveNothingToMatch() {
        index.batch(POD, batch(stored(new long[] {101}, null, 1, 2)));
        index.batch(POD, batch(new KvEvent.AllBlocksCleared()));
        assertThat(index.blocks(POD)).isZero();

        index.batch(POD, batch(stored(new long[] {101}, null, 1, 2)));
        index.reset(POD, "restarted");
        assertThat(index.match(POD, new int[] {1, 2}, null).tokens()).isZero();

        index.batch(POD, batch(stored(new long[] {105, 106}, 104L, 7, 8, 9, 10)));
        assertThat(index.blocks(POD)).isZero();
        assertThat(index.dropped(POD)).isEqualTo(2);
    }

    @Test
    void anEndpointKeepsAtMostItsBound() {
        EngineCacheIndex small = new EngineCacheIndex(2, EngineCacheIndex.MediumWeights.DEFAULT);
        small.batch(POD, batch(stored(new long[] {1, 2, 3}, null, 1, 2, 3, 4, 5, 6)));
        assertThat(small.blocks(POD)).isEqualTo(2);
        assertThat(small.dropped(POD)).isEqualTo(1);
        assertThat(small.match(POD, new int[] {1, 2, 3, 4, 5, 6}, null).tokens()).isEqualTo(4);
    }

    static KvEvent.BlockStored stored(long[] hashes, Long parent, int... tokens) {
        return new KvEvent.BlockStored(hashes, parent, tokens, 2, null, KvEvent.Medium.GPU, 0);
    }

    static KvEventBatch batch(KvEvent... events) {
        return new KvEventBatch(0, List.of(events), -1, 0);
    }
}
