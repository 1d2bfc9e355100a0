package io.inferencegateway.scheduling.prefix;

import static io.inferencegateway.scheduling.Scenarios.prompt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

class PromptBlocksTest {

    private static long[] hashes(String model, String adapter, String text) {
        PromptBlocks b = new PromptBlocks().compute(model, adapter, text);
        return Arrays.copyOf(b.hashes(), b.count());
    }

    @Test
    void countsFullBlocksOnly() {
        assertThat(hashes("m", null, "x".repeat(63))).isEmpty();
        assertThat(hashes("m", null, "x".repeat(64))).hasSize(1);
        assertThat(hashes("m", null, "x".repeat(130))).as("130 chars = 2 full blocks + 2").hasSize(2);
    }

    @Test
    void stopsAt256Blocks() {
        assertThat(hashes("m", null, "y".repeat(64 * 300))).hasSize(256);
    }

    @Test
    void aSharedPrefixGivesSharedLeadingHashesAndNothingAfter() {
        String a = prompt("p", 6);
        String b = a.substring(0, 2 * 64) + "Z" + a.substring(2 * 64 + 1); // block 2 differs by one char
        long[] ha = hashes("m", null, a);
        long[] hb = hashes("m", null, b);
        assertThat(Arrays.copyOf(hb, 2)).containsExactly(Arrays.copyOf(ha, 2));
        for (int i = 2; i < 6; i++) {
            assertThat(hb[i]).as("block %d follows the changed block 2", i).isNotEqualTo(ha[i]);
        }
    }

    @Test
    void chainsEveryBlockToWhatCameBefore() {
        // two prompts whose block 1 is identical but block 0 differs: block 1's hash must differ too
        String common = ".".repeat(64);
        long[] a = hashes("m", null, "A".repeat(64) + common);
        long[] b = hashes("m", null, "B".repeat(64) + common);
        assertThat(a[1]).isNotEqualTo(b[1]);
        // and a repeated block does not repeat its hash within one prompt
        long[] same = hashes("m", null, common.repeat(3));
        assertThat(new HashSet<>(Arrays.asList(same[0], same[1], same[2]))).hasSize(3);
    }

    @Test
    void seedsWithModelAndAdapter() {
        String text = prompt("p", 2);
        Set<Long> firsts = new HashSet<>();
        firsts.add(hashes("m", null, text)[0]);
        firsts.add(hashes("m2", null, text)[0]);
        firsts.add(hashes("m", "sql", text)[0]);
        firsts.add(hashes("m", "law", text)[0]);
        firsts.add(hashes("ms", "ql", text)[0]);
        firsts.add(hashes("msql", null, text)[0]);
        assertThat(firsts).as("each (model, adapter) its own chain").hasSize(6);
        assertThat(hashes("m", null, text)).containsExactly(hashes("m", null, text));
    }

    @Test
    void everyCharacterOfABlockCounts() {
        String base = "a".repeat(64);
        Set<Long> seen = new HashSet<>();
        seen.add(hashes("m", null, base)[0]);
        for (int i = 0; i < 64; i++) {
            String changed = base.substring(0, i) + "b" + base.substring(i + 1);
            seen.add(hashes("m", null, changed)[0]);
        }
        assertThat(seen).hasSize(65);
    }

    @Test
    void reusesItsArraysAcrossPrompts() {
        PromptBlocks b = new PromptBlocks();
        long[] array = b.compute("m", null, prompt("p", 4)).hashes();
        b.compute("m", null, prompt("q", 1));
        assertThat(b.hashes()).isSameAs(array);
        assertThat(b.count()).isEqualTo(1);
    }

    @Test
    void rejectsBlockSizesTheHashCannotStep() {
        assertThatThrownBy(() -> new PromptBlocks(60, 10)).isInstanceOf(IllegalArgumentException.class);
    }
}
