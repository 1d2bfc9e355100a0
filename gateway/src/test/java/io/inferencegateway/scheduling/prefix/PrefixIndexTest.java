package io.inferencegateway.scheduling.prefix;

import static io.inferencegateway.scheduling.Scenarios.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.inferencegateway.domain.Endpoint;

class PrefixIndexTest {

    private static final Endpoint A = pod(1);
    private static final Endpoint B = pod(2);
    private static final Endpoint C = pod(3);

    /** Chain hashes of n blocks with ids (tag, i), as PromptBlocks would chain them: h_i covers blocks 0..i. */
    private static long[] chain(long tag, int n) {
        return branch(new long[0], 0, tag, n);
    }

    /** The first {@code shared} blocks of {@code base}, then blocks of its own, chained on from there. */
    private static long[] branch(long[] base, int shared, long tag, int n) {
        long[] h = new long[n];
        System.arraycopy(base, 0, h, 0, shared);
        long prev = shared == 0 ? 17 : h[shared - 1];
        for (int i = shared; i < n; i++) {
            prev = PromptBlocks.fmix(prev * 31 + tag * 1_000_003L + i);
            h[i] = prev;
        }
        return h;
    }

    private static int[] match(PrefixIndex index, long[] h, Endpoint... candidates) {
        int[] out = new int[candidates.length];
        index.match(h, h.length, List.of(candidates), out);
        return out;
    }

    @Test
    void matchesLeadingBlocksPerEndpoint() {
        PrefixIndex index = new PrefixIndex();
        long[] doc = chain(1, 8);
        index.record(doc, 8, A);
        index.record(doc, 3, B);
        assertThat(match(index, doc, A, B, C)).as("A all 8, B its 3, C never routed").containsExactly(8, 3, 0);
        assertThat(match(index, branch(doc, 5, 2, 9), A, B, C)).as("shares 5 blocks").containsExactly(5, 3, 0);
        Invariants.check(index);
    }

    @Test
    void stopsAtTheFirstBlockNobodyHas() {
        PrefixIndex index = new PrefixIndex();
        long[] doc = chain(1, 6);
        index.record(doc, 6, A);
        long[] changed = branch(doc, 2, 99, 6); // block 2 differs, so (chained) do all after it
        int[] out = new int[1];
        assertThat(index.match(changed, 6, List.of(A), out)).as("depth walked").isEqualTo(2);
        assertThat(out[0]).isEqualTo(2);
        assertThat(match(index, chain(9, 4), A)).as("block 0 unknown").containsExactly(0);
    }

    @Test
    void creditsBlocksThatEveryTrackedEndpointHoldsWithoutVisitingThem() {
        PrefixIndex index = new PrefixIndex();
        long[] system = chain(1, 10);
        index.record(system, 10, A);
        index.record(branch(system, 4, 2, 6), 6, B);
        index.record(branch(system, 4, 3, 5), 5, C);
        // blocks 0..3 are held by all three tracked endpoints; then only A goes on
        Endpoint fresh = pod(9);
        assertThat(match(index, system, A, B, C, fresh)).containsExactly(10, 4, 4, 0);
        assertThat(match(index, branch(system, 4, 2, 6), A, B, C)).containsExactly(4, 6, 4);
    }

    @Test
    void evictsEachEndpointsLeastRecentBlocksDeepestFirst() {
        PrefixIndex index = new PrefixIndex(4, 1024, 8);
        long[] first = chain(1, 3);
        long[] second = chain(2, 3);
        index.record(first, 3, A);
        index.record(second, 3, A); // 6 blocks into 4: first's two deepest go, its block 0 stays
        assertThat(index.blocksOf(A)).isEqualTo(4);
        assertThat(match(index, first, A)).containsExactly(1);
        assertThat(match(index, second, A)).containsExactly(3);
        index.record(first, 3, A); // touching first again makes second the older one
        assertThat(match(index, second, A)).containsExactly(1);
        assertThat(match(index, first, A)).containsExactly(3);
        Invariants.check(index);
    }

    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
        "pod cache unknown: the configured 100 blocks hold both prompts   | 0   | 6 | 3 | 3",
        "pod cache of 4 blocks: first keeps only its block 0               | 4   | 4 | 1 | 3",
        "pod cache of 3 blocks: only second remains                        | 3   | 3 | 0 | 3",
        "pod cache larger than the configured 100 blocks: 100 applies      | 500 | 6 | 3 | 3",
    })
    void capsEachEndpointAtItsPodsCacheSize(String scenario, int cacheBlocks, int held, int firstMatch,
                                            int secondMatch) {
        PrefixIndex index = new PrefixIndex(100, 1024, 8);
        long[] first = chain(1, 3);
        long[] second = chain(2, 3);
        index.record(first, 3, A, cacheBlocks);
        index.record(second, 3, A, cacheBlocks);
        assertThat(index.blocksOf(A)).isEqualTo(held);
        assertThat(match(index, first, A)).containsExactly(firstMatch);
        assertThat(match(index, second, A)).containsExactly(secondMatch);
        Invariants.check(index);
    }

    @Test
    void aPodReportingASmallerCacheShrinksAtItsNextRecord() {
        PrefixIndex index = new PrefixIndex(100, 1024, 8);
        index.record(chain(1, 10), 10, A);
        index.record(chain(2, 2), 2, A, 5); // 12 blocks, now capped at 5: the 2 new and 3 most recent old
        assertThat(index.blocksOf(A)).isEqualTo(5);
        assertThat(match(index, chain(1, 10), A)).containsExactly(3);
        Invariants.check(index);
    }

    @Test
    void touchingAKnownBlockDoesNotGrowTheIndex() {
        PrefixIndex index = new PrefixIndex();
        long[] doc = chain(1, 50);
        for (int i = 0; i < 10; i++) {
            index.record(doc, 50, A);
        }
        assertThat(index.entries()).isEqualTo(50);
    }

    @Test
    void staysWithinTheGlobalBoundByShrinkingEachEndpointsShare() {
        PrefixIndex index = new PrefixIndex(100, 64, 16);
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 2_000; i++) {
            Endpoint e = pod(1 + random.nextInt(8));
            index.record(chain(random.nextInt(50), 20), 20, e);
            assertThat(index.entries()).isLessThanOrEqualTo(64);
        }
        Invariants.check(index);
        assertThat(index.trackedEndpoints()).isEqualTo(8);
        // 8 endpoints share 64 entries: after enough traffic each is trimmed to 64/8
        for (int p = 1; p <= 8; p++) {
            index.record(chain(1000 + p, 20), 20, pod(p));
        }
        for (int p = 1; p <= 8; p++) {
            assertThat(index.blocksOf(pod(p))).as("pod %d", p).isLessThanOrEqualTo(8);
        }
    }

    @Test
    void dropsEndpointsThatLeftThePool() {
        PrefixIndex index = new PrefixIndex();
        index.record(chain(1, 5), 5, A);
        index.record(chain(2, 7), 7, B);
        index.retain(List.of(B));
        assertThat(index.trackedEndpoints()).isEqualTo(1);
        assertThat(index.entries()).isEqualTo(7);
        assertThat(match(index, chain(1, 5), A, B)).containsExactly(0, 0);
        index.forget(B);
        assertThat(index.entries()).isZero();
        Invariants.check(index);
    }

    @Test
    void tracksAtMostMaxEndpointsDroppingTheLeastRecentlyRouted() {
        PrefixIndex index = new PrefixIndex(100, 1000, 2);
        index.record(chain(1, 5), 5, A);
        index.record(chain(2, 5), 5, B);
        index.record(chain(1, 5), 5, A); // A is now more recent than B
        index.record(chain(3, 5), 5, C);
        assertThat(index.trackedEndpoints()).isEqualTo(2);
        assertThat(index.blocksOf(B)).isZero();
        assertThat(index.blocksOf(A)).isEqualTo(5);
        assertThat(index.blocksOf(C)).isEqualTo(5);
        Invariants.check(index);
    }

    @Test
    void growsItsArraysAndKeepsEverything() {
        PrefixIndex index = new PrefixIndex(100_000, 200_000, 4);
        for (int i = 0; i < 100; i++) {
            index.record(chain(i, 100), 100, pod(1 + i % 4)); // 10,000 entries: past the first 4,096
        }
        assertThat(index.entries()).isEqualTo(10_000);
        Invariants.check(index);
        for (int i = 0; i < 100; i++) {
            assertThat(match(index, chain(i, 100), pod(1 + i % 4))).containsExactly(100);
        }
    }

    @Test
    void footprintIsBoundedByConfiguration() {
        PrefixIndex index = new PrefixIndex(50, 1 << 12, 64);
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 5_000; i++) {
            index.record(chain(random.nextLong(), 40), 40, pod(1 + random.nextInt(60)));
        }
        assertThat(index.entries()).isLessThanOrEqualTo(1 << 12);
        assertThat(index.footprintBytes()).isLessThanOrEqualTo(index.maxFootprintBytes());
        Invariants.check(index);
    }

    @Test
    void rejectsABoundSmallerThanOneBlockPerEndpoint() {
        assertThatThrownBy(() -> new PrefixIndex(10, 8, 16)).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * Random traffic compared with a plain model: per endpoint an access-ordered set of hashes, touched
     * deepest block first; a match is the number of leading blocks the set holds, cut at the first block
     * no endpoint holds. No global pressure here (maxEntries covers every endpoint's full share). With 6
     * pods every holder list is walked; with 40, popular blocks have more than 16 holders and are probed
     * per candidate instead. Colliding: every hash is bent to one of 8 home slots in each table, so probe runs
     * are hundreds long and the tables' displacement marks saturate ({@code ProbeTables.FAR}). After each record the
     * pod's LRU list must be in the model's order exactly, least recent first.
     */
    @ParameterizedTest(name = "{0} pods, colliding {1}")
    @CsvSource({"6, false", "40, false", "6, true", "40, true"})
    void agreesWithAPlainLruModelUnderRandomTraffic(int podCount, boolean colliding) {
        int perEndpoint = 40;
        PrefixIndex index = new PrefixIndex(perEndpoint, podCount * perEndpoint, podCount);
        Map<Endpoint, LinkedHashSet<Long>> model = new HashMap<>();
        List<Endpoint> pods = new ArrayList<>();
        for (int p = 1; p <= podCount; p++) {
            pods.add(pod(p));
            model.put(pod(p), new LinkedHashSet<>());
        }
        SplittableRandom random = new SplittableRandom(42);
        long[][] roots = new long[8][];
        for (int r = 0; r < roots.length; r++) {
            roots[r] = chain(r, 30);
        }
        for (int step = 0; step < 10_000; step++) {
            long[] base = roots[random.nextInt(roots.length)];
            int n = 1 + random.nextInt(30);
            long[] h = branch(base, random.nextInt(n + 1), 100 + random.nextInt(20), n);
            if (colliding) {
                for (int i = 0; i < n; i++) { // (h ^ h >>> 32) keeps 3 bits: 8 homes
                    long hi = h[i] >>> 32;
                    h[i] = hi << 32 | (hi ^ (h[i] & 7)) & 0xFFFF_FFFFL;
                }
            }
            if (random.nextBoolean()) {
                Endpoint e = pods.get(random.nextInt(pods.size()));
                index.record(h, n, e);
                LinkedHashSet<Long> lru = model.get(e);
                for (int i = n - 1; i >= 0; i--) {
                    lru.remove(h[i]);
                    lru.add(h[i]); // most recent last
                }
                for (Iterator<Long> it = lru.iterator(); lru.size() > perEndpoint; ) {
                    it.next();
                    it.remove();
                }
                assertThat(Invariants.lruOrder(index, e)).as("step %d, LRU order", step).containsExactlyElementsOf(lru);
            } else {
                int[] out = new int[pods.size()];
                index.match(h, n, pods, out);
                assertThat(out).as("step %d", step).containsExactly(expected(model, pods, h, n));
            }
        }
        Invariants.check(index);
    }

    private static int[] expected(Map<Endpoint, LinkedHashSet<Long>> model, List<Endpoint> pods, long[] h, int n) {
        int depth = 0;
        while (depth < n && held(model, h[depth])) {
            depth++;
        }
        int[] out = new int[pods.size()];
        for (int p = 0; p < pods.size(); p++) {
            LinkedHashSet<Long> lru = model.get(pods.get(p));
            int m = 0;
            while (m < depth && lru.contains(h[m])) {
                m++;
            }
            out[p] = m;
        }
        return out;
    }

    private static boolean held(Map<Endpoint, LinkedHashSet<Long>> model, long h) {
        return model.values().stream().anyMatch(s -> s.contains(h));
    }
}
