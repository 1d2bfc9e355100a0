package io.inferencegateway.scheduling.plugins;

import static io.inferencegateway.scheduling.Scenarios.MODEL;
import static io.inferencegateway.scheduling.Scenarios.base;
import static io.inferencegateway.scheduling.Scenarios.cycle;
import static io.inferencegateway.scheduling.Scenarios.prompt;
import static io.inferencegateway.scheduling.Scenarios.scrape;
import static io.inferencegateway.scheduling.Scenarios.states;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.scheduling.prefix.PrefixSharing;
import io.inferencegateway.scheduling.latency.LatencyPredictor;
import io.inferencegateway.scheduling.framework.SchedulingCycle;
import io.inferencegateway.scheduling.framework.PluginContext;
import io.inferencegateway.domain.RecentFailures;
import io.inferencegateway.config.SessionAffinityConfig;
import io.inferencegateway.config.ReplicaConfig;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.scheduling.Scenarios;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.scheduling.prefix.PrefixIndex;
import io.inferencegateway.scheduling.prefix.RendezvousHomes;

class PrefixCacheScorerTest {

    // pods 1, 2, 3; pod 1 was sent the 8-block prompt "doc", pod 2 only the first 2 blocks of it
    private final List<EndpointState> pods = states(scrape(0, 0, 0), scrape(0, 0, 0), scrape(0, 0, 0));
    private PrefixCacheScorer scorer;

    @BeforeEach
    void routeTwoPrompts() {
        scorer = new PrefixCacheScorer(new PrefixIndex());
        scorer.committed(cycle(base(prompt("doc", 8))), pods.get(0));
        scorer.committed(cycle(base(prompt("doc", 2))), pods.get(1));
    }

    /** Scores as a request does: the scorer's producer counts every candidate's cached tokens first. */
    private static void score(PrefixCacheScorer scorer, SchedulingCycle cycle, List<EndpointState> states,
            double[] scores) {
        states.forEach(s -> s.cachedTokens(0));
        scorer.count(cycle, states);
        scorer.score(cycle, states, scores);
    }

    /** A scorer on {@code index} for a pool whose replicas follow rendezvous placement (load bound 1.25, 4 blocks). */
    private static PrefixCacheScorer placed(PrefixIndex index) {
        ReplicaConfig replicas = new ReplicaConfig(2, ReplicaConfig.Coordination.RENDEZVOUS, 1.25, 4, false, null);
        return PrefixCacheScorer.forPool(index, 64, 256, new PluginContext("p", replicas, PrefixSharing.NONE,
                SessionAffinityConfig.OFF, List.of(), new LatencyPredictor("p"), RecentFailures.NONE, () -> 0L));
    }

    static Stream<Arguments> cases() {
        String doc = prompt("doc", 8);
        return Stream.of(
                Arguments.of("the same prompt: pod 1 holds 8/8, pod 2 its first 2/8, pod 3 none", base(doc),
                        new double[] {1.0, 0.25, 0.0}),
                Arguments.of("the prompt plus 2 new blocks: 8/10 and 2/10", base(doc + prompt("new", 2)),
                        new double[] {0.8, 0.2, 0.0}),
                Arguments.of("a trailing partial block is not a block: still 8/8 and 2/8", base(doc + "tail"),
                        new double[] {1.0, 0.25, 0.0}),
                Arguments.of("first 4 blocks then different: 4/6 and 2/6",
                        base(doc.substring(0, 4 * 64) + prompt("other", 2)),
                        new double[] {4.0 / 6, 2.0 / 6, 0.0}),
                Arguments.of("block 0 differs: the chain breaks at once, nothing matches though blocks 1.. are equal",
                        base("X" + doc.substring(1)), new double[] {0.0, 0.0, 0.0}),
                Arguments.of("shorter than one block (63 chars): no blocks, 0 everywhere",
                        base(doc.substring(0, 63)), new double[] {0.0, 0.0, 0.0}),
                Arguments.of("same text for another model: the seed differs, 0",
                        InferenceRequest.builder("other-model").promptText(doc).build(), new double[] {0.0, 0.0, 0.0}),
                Arguments.of("same text through a LoRA adapter: the adapter's KV differs, 0",
                        InferenceRequest.builder(MODEL).adapter("sql").promptText(doc)
                                .build(), new double[] {0.0, 0.0, 0.0}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void scoresMatchedOverTotalBlocks(String scenario, InferenceRequest request, double[] expected) {
        double[] scores = new double[3];
        score(scorer, cycle(request), pods, scores);
        assertThat(scores).containsExactly(expected, within(1e-12));
    }

    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
        "no KV geometry in the scrape: unknown                | -1 | -1    | 0",
        "16-token blocks, 6,144 of them: 6,144 index blocks     | 16 | 6144  | 6144",
        "32-token blocks count double                         | 32 | 1000  | 2000",
        "SGLang-style 1-token pages: 16 pages per index block | 1  | 16000 | 1000",
    })
    void learnsThePodsCacheSizeFromItsKvGeometry(String scenario, int blockSize, long totalBlocks, int expected) {
        PrefixCacheScorer s = new PrefixCacheScorer(new PrefixIndex());
        assertThat(s.cacheBlocks(Scenarios.scrape().kvGeometry(blockSize, totalBlocks).build())).isEqualTo(expected);
    }

    @Test
    void aPodWithASmallCacheForgetsWhatItMustHaveEvicted() {
        PrefixCacheScorer s = new PrefixCacheScorer(new PrefixIndex());
        List<EndpointState> small = states(Scenarios.scrape().kvGeometry(16, 4).build());
        s.committed(cycle(base(prompt("doc", 8))), small.get(0));
        assertThat(s.index().blocksOf(small.get(0).endpoint())).isEqualTo(4);
        double[] scores = new double[1];
        score(s, cycle(base(prompt("doc", 8))), small, scores);
        assertThat(scores).containsExactly(0.5); // blocks 0..3 of 8 kept: the most recent are the first ones
    }

    @Test
    void podsThatLeaveThePoolAreForgotten() {
        scorer.endpointsChanged(List.of(pods.get(1).endpoint(), pods.get(2).endpoint()));
        double[] scores = new double[3];
        score(scorer, cycle(base(prompt("doc", 8))), pods, scores);
        assertThat(scores).containsExactly(0.0, 0.25, 0.0);
        assertThat(scorer.index().trackedEndpoints()).isEqualTo(1);
    }

    /** Where every replica sends the "doc" prefix: its rendezvous home among the given pods. */
    private static int homeOfDoc(List<EndpointState> states) {
        long[] hashes = cycle(base(prompt("doc", 8))).promptBlocks(64, 256).hashes();
        List<io.inferencegateway.domain.Endpoint> endpoints = states.stream().map(EndpointState::endpoint).toList();
        return RendezvousHomes.rank0(new RendezvousHomes(1.25, 4).key(hashes, 8), endpoints);
    }

    @Test
    void withRendezvousPlacementTheHomeScoresAsAFullHitAndOtherHoldersHalfTheirMatch() {
        PrefixCacheScorer placed = placed(scorer.index());
        double[] scores = new double[3];
        score(placed, cycle(base(prompt("doc", 8))), pods, scores);
        double[] expected = {0.5, 0.25 * 0.5, 0.0};
        expected[homeOfDoc(pods)] = 1.0;
        assertThat(scores).containsExactly(expected, within(1e-12));
        assertThat(placed.index()).as("shares the index").isSameAs(scorer.index());
    }

    @Test
    void withRendezvousPlacementAPromptNeverSeenBeforeGoesToItsHomeToo() {
        PrefixCacheScorer placed = placed(scorer.index());
        double[] scores = new double[3];
        score(placed, cycle(base(prompt("one-off", 8))), pods, scores);
        long[] hashes = cycle(base(prompt("one-off", 8))).promptBlocks(64, 256).hashes();
        int home = RendezvousHomes.rank0(new RendezvousHomes(1.25, 4).key(hashes, 8),
                pods.stream().map(EndpointState::endpoint).toList());
        double[] expected = {0.0, 0.0, 0.0};
        expected[home] = 1.0;
        assertThat(scores).containsExactly(expected, within(1e-12));
    }

    @Test
    void withRendezvousPlacementAnOverloadedHomeSpillsToTheNextPod() {
        int home = homeOfDoc(pods);
        EndpointMetrics[] scrapes = {scrape(1, 1, 0), scrape(1, 1, 0), scrape(1, 1, 0)};
        scrapes[home] = scrape(20, 10, 0); // far above 1.25 × the average
        List<EndpointState> loaded = states(scrapes);
        PrefixCacheScorer placed = placed(new PrefixIndex());
        placed.committed(cycle(base(prompt("doc", 8))), loaded.get(home));
        double[] scores = new double[3];
        score(placed, cycle(base(prompt("doc", 8))), loaded, scores);
        int credited = 0;
        for (int i = 0; i < 3; i++) {
            if (i != home && scores[i] == 1.0) {
                credited++;
            }
        }
        assertThat(scores[home]).as("the overloaded holder keeps half its match").isEqualTo(0.5, within(1e-12));
        assertThat(credited).as("exactly one other pod is credited as the spill target").isEqualTo(1);
    }
}
