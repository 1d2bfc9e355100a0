package io.inferencegateway.scheduling;

import static io.inferencegateway.domain.SchedulingPolicy.decideNow;
import static io.inferencegateway.scheduling.Scenarios.MODEL;
import static io.inferencegateway.scheduling.Scenarios.adapter;
import static io.inferencegateway.scheduling.Scenarios.base;
import static io.inferencegateway.scheduling.Scenarios.pod;
import static io.inferencegateway.scheduling.Scenarios.prompt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.random.RandomGenerator;

import org.junit.jupiter.api.Test;

import io.inferencegateway.config.Policy;
import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.config.ReplicaConfig;
import io.inferencegateway.config.ReplicaConfig.Coordination;
import io.inferencegateway.config.Weights;
import io.inferencegateway.scheduling.latency.LatencyPredictor;
import io.inferencegateway.domain.RecentFailures;
import io.inferencegateway.domain.Scheduling;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.AdmissionDecision;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.LatencyPrediction;
import io.inferencegateway.domain.LatencyTargets;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.domain.PendingPick;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.PickReason;
import io.inferencegateway.domain.Priority;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.scheduling.Scenarios.Scrape;
import io.inferencegateway.scheduling.plugins.PrefixCacheScorer;
import io.inferencegateway.scheduling.prefix.PrefixSharing;

/** The policy end to end with default weights: state building, herding correction, LoRA, prefix, fallback. */
class PluginPolicyTest {

    private static final long MS = 1_000_000L;
    /** Always the first of tied endpoints: makes herding visible, since ties then never spread load. */
    private static final RandomGenerator FIRST_OF_TIES = () -> 0L;

    private final Endpoint p1 = pod(1);
    private final Endpoint p2 = pod(2);
    private final Endpoint p3 = pod(3);
    private final Endpoint p4 = pod(4);
    private final List<Endpoint> pods = List.of(p1, p2, p3, p4);

    private final long[] now = {1_000 * MS};
    private final NanoClock clock = () -> now[0];
    private final InFlightRequests inFlight = new InFlightRequests();
    private final Map<Endpoint, EndpointMetrics> scrapes = new HashMap<>();
    private final List<Boolean> fallbackEvents = new ArrayList<>();

    private PluginPolicy policy(Weights weights) {
        return policy(pool(weights, Policy.GPU_AWARE));
    }

    private PluginPolicy policy(PoolConfig pool) {
        return PluginPolicy.forPool(pool, scrapes::get, inFlight, clock,
                (poolName, active) -> fallbackEvents.add(active), FIRST_OF_TIES);
    }

    private static PoolConfig pool(Weights weights, Policy policy) {
        return PoolConfig.builder(MODEL).name("p").loraAdapters(List.of("sql")).endpoints(List.of(pod(1)))
                .policy(policy).weights(weights).build();
    }

    /** The default GPU-aware pool, run by several gateway replicas as {@code replicas} says. */
    private static PoolConfig replicated(ReplicaConfig replicas) {
        return PoolConfig.builder(MODEL).name("p").loraAdapters(List.of("sql")).endpoints(List.of(pod(1)))
                .replicas(replicas).build();
    }

    /** A scrape of {@code e} taken now, remembering the gateway's counters at this moment as the scraper does. */
    private void scraped(Endpoint e, UnaryOperator<Scrape> what) {
        scrapes.put(e, what.apply(Scenarios.scrape().at(now[0]).dispatched(inFlight.snapshot(e))).build());
    }

    private void idle(Endpoint... es) {
        for (Endpoint e : es) {
            scraped(e, s -> s.kv(0.1));
        }
    }

    /** What the gateway does: choose, then count the request as started. */
    private Endpoint send(PluginPolicy policy, InferenceRequest r, List<Endpoint> candidates) {
        Endpoint chosen = decideNow(policy, r, candidates).endpoint();
        inFlight.started(chosen, r.promptTokensEstimate());
        return chosen;
    }

    private static Map<Endpoint, Integer> tally(List<Endpoint> picks) {
        Map<Endpoint, Integer> m = new HashMap<>();
        picks.forEach(e -> m.merge(e, 1, Integer::sum));
        return m;
    }

    // ------------------------------------------------------------------ latency targets

    /**
     * Teaches the policy's predictor {@code n} responses on {@code pod}: first tokens after 40 ms per request queued
     * there plus 20 ms, times {@code slowness}.
     */
    private void learn(PluginPolicy policy, Endpoint pod, double slowness, int n) {
        for (int i = 0; i < n; i++) {
            int waiting = i % 5;
            scraped(pod, s -> s.waiting(waiting).kv(0.1));
            PickDecision d = decideNow(policy, base("warm " + i), List.of(pod));
            d.prediction().learn((20 + 40 * waiting) * slowness, 8 * slowness, 50);
        }
    }

    /** A streamed request: a plain one's first byte would wait for its whole output. */
    private static InferenceRequest targeted(int priority, long ttftMillis) {
        return InferenceRequest.builder(MODEL).promptText("a question").promptTokensEstimate(3).stream(true)
                .priority(priority).targets(new LatencyTargets(ttftMillis, 0)).build();
    }

    @Test
    void aTargetedRequestGoesToThePodPredictedInTimeAndItsDecisionCarriesThePrediction() {
        PluginPolicy policy = policy(Weights.DEFAULT);
        learn(policy, p1, 1, 30);
        learn(policy, p2, 3, 30); // an older GPU: three times slower
        scraped(p1, s -> s.waiting(3).kv(0.1)); // ~140 ms here
        scraped(p2, s -> s.waiting(0).kv(0.1)); // ~60 ms on the slow pod with an empty queue

        PickDecision fast = decideNow(policy, targeted(Priority.STANDARD, 100), List.of(p1, p2));
        assertThat(fast.endpoint()).as("only the slow pod's empty queue is in time").isEqualTo(p2);
        assertThat(fast.reason()).isEqualTo(PickReason.LATENCY_TARGET);
        assertThat(fast.prediction().ttftMillis()).isBetween(40.0, 100.0);

        AdmissionDecision late = admission(policy, targeted(Priority.SHEDDABLE, 30), List.of(p1, p2));
        assertThat(late.reason()).as("nobody is that fast").isEqualTo(GatewayError.Dropped.SLO_UNATTAINABLE);
        assertThat(late.detail()).startsWith("best predicted on " + p2);
        assertThat(admission(policy, targeted(Priority.CRITICAL, 100), List.of(p1, p2))).isEqualTo(AdmissionDecision.ADMIT);
        assertThat(admission(policy, base("untargeted"), List.of(p1, p2))).isEqualTo(AdmissionDecision.PASS);
    }

    /** What the policy's admission says of {@code request}, on one snapshot. */
    private static AdmissionDecision admission(PluginPolicy policy, InferenceRequest request, List<Endpoint> candidates) {
        try (Scheduling scheduling = policy.begin(request, candidates, 0)) {
            return scheduling.admission();
        }
    }

    @Test
    void withTheLatencyWeightAtZeroTargetsChangeNothingButThePredictorStillLearns() {
        PluginPolicy policy = policy(Weights.DEFAULT.with("latency", 0));
        learn(policy, p1, 1, 30);
        learn(policy, p2, 3, 30);
        scraped(p1, s -> s.waiting(3).kv(0.1));
        scraped(p2, s -> s.waiting(0).kv(0.1));

        PickDecision d = decideNow(policy, targeted(Priority.STANDARD, 100), List.of(p1, p2));
        assertThat(d.reason()).isNotEqualTo(PickReason.LATENCY_TARGET);
        assertThat(d.prediction().predicted()).as("learned, for the accuracy metrics").isTrue();
        assertThat(admission(policy, targeted(Priority.SHEDDABLE, 1), List.of(p1, p2))).isEqualTo(AdmissionDecision.PASS);
    }

    @Test
    void aTargetedRequestStillFindsItsCachedPrefixCountedOnceForThePredictionAndTheScore() {
        PluginPolicy policy = policy(Weights.DEFAULT);
        learn(policy, p1, 1, 30);
        learn(policy, p2, 1, 30);
        idle(p1, p2);
        String prompt = Scenarios.prompt("chat", 40);
        InferenceRequest first = InferenceRequest.builder(MODEL).promptText(prompt)
                .promptTokensEstimate(InferenceRequest.estimateTokens(prompt)).stream(true).priority(Priority.STANDARD)
                .targets(new LatencyTargets(1000, 0)).build();
        Endpoint holder = send(policy, first, List.of(p1, p2));

        PickDecision again = decideNow(policy, first, List.of(p1, p2));
        assertThat(again.endpoint()).isEqualTo(holder);
        assertThat(again.expectedCachedTokens()).as("40 blocks of 16 tokens").isEqualTo(640);
    }

    @Test
    void untilThePredictorHasLearnedTargetsChangeNothing() {
        PluginPolicy policy = policy(Weights.DEFAULT);
        idle(p1, p2);
        PickDecision d = decideNow(policy, targeted(Priority.STANDARD, 100), List.of(p1, p2));
        assertThat(d.prediction().predicted()).isFalse();
        assertThat(d.reason()).isNotEqualTo(PickReason.LATENCY_TARGET);
        assertThat(admission(policy, targeted(Priority.SHEDDABLE, 1), List.of(p1, p2))).isEqualTo(AdmissionDecision.PASS);
    }

    // ------------------------------------------------------------------ herding

    @Test
    void aBurstBetweenScrapesSpreadsOverIdlePods() {
        idle(p1, p2, p3, p4);
        PluginPolicy policy = policy(Weights.DEFAULT);
        List<Endpoint> picks = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            picks.add(send(policy, base("hi"), pods));
        }
        // without the correction every pick would tie and FIRST_OF_TIES would send all 8 to pod 1
        assertThat(tally(picks)).containsEntry(p1, 2).containsEntry(p2, 2).containsEntry(p3, 2).containsEntry(p4, 2);
    }

    @Test
    void theBestLookingPodTakesOnlyUntilItCatchesUp() {
        scraped(p1, s -> s.waiting(0).kv(0.1));
        scraped(p2, s -> s.waiting(2).kv(0.1));
        scraped(p3, s -> s.waiting(2).kv(0.1));
        PluginPolicy policy = policy(Weights.DEFAULT);
        List<Endpoint> picks = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            picks.add(send(policy, base("hi"), List.of(p1, p2, p3)));
        }
        // p1 queue 0→1→2: two requests make it equal to the others; then 2,2,2 ties → p1 (first), then p2, p3
        assertThat(picks).containsExactly(p1, p1, p1, p2, p3);
    }

    @Test
    void completionsSinceTheScrapeMakeAPodAttractiveAgain() {
        inFlight.started(p1, 10);
        inFlight.started(p1, 10);
        scraped(p1, s -> s.waiting(2).kv(0.1)); // our 2 requests queued there
        scraped(p2, s -> s.waiting(1).kv(0.1));
        inFlight.finished(p1);
        inFlight.finished(p1); // both done since: p1's queue is 0 in the gateway's eyes
        assertThat(decideNow(policy(Weights.DEFAULT), base("hi"), List.of(p2, p1)).endpoint()).isEqualTo(p1);
    }

    @Test
    void withSharedPlacementTheMeasuredTrafficFactorReplacesTheConfiguredCount() {
        PoolConfig shared = replicated(new ReplicaConfig(1, Coordination.SHARED, 1.25, 4, false,
                java.net.URI.create("redis://127.0.0.1:6379")));
        double[] measured = {Double.NaN};
        PrefixSharing sharing = receiver -> new PrefixSharing.Feed() {
            @Override
            public void publish(long[] hashes, int count, Endpoint endpoint, int cacheBlocks) {
            }

            @Override
            public boolean live() {
                return true;
            }

            @Override
            public double trafficFactor() {
                return measured[0];
            }
        };
        PluginPolicy policy = PluginPolicy.forPool(shared, scrapes::get, inFlight, clock,
                (poolName, active) -> fallbackEvents.add(active), FIRST_OF_TIES, sharing,
                new LatencyPredictor(shared.name()), RecentFailures.NONE);
        scraped(p1, s -> s.waiting(0).kv(0.1));
        scraped(p2, s -> s.waiting(3).kv(0.1));
        inFlight.started(p1, 10); // this replica sent one request to p1 since the scrape
        // unknown: count (1) applies, p1 looks 1 deep against p2's 3
        assertThat(decideNow(policy, base("hi"), List.of(p1, p2)).endpoint()).isEqualTo(p1);
        // the pool's decisions are 4 times this replica's: p1 is about 4 deep
        measured[0] = 4.0;
        assertThat(decideNow(policy, base("hi"), List.of(p1, p2)).endpoint()).isEqualTo(p2);
    }

    // ------------------------------------------------------------------ saturation and fallback

    @Test
    void stalePodsAreAvoidedWhileOthersAreFresh() {
        scraped(p1, s -> s.kv(0.0)); // the best numbers, but about to go stale
        now[0] += 150 * MS;
        scraped(p2, s -> s.waiting(4).kv(0.7));
        now[0] += 100 * MS; // p1's scrape is 250 ms old, p2's 100 ms
        assertThat(decideNow(policy(Weights.DEFAULT), base("hi"), List.of(p1, p2)).endpoint()).isEqualTo(p2);
        assertThat(fallbackEvents).isEmpty();
    }

    @Test
    void whenEveryPodIsSaturatedTheLeastBadOneIsChosen() {
        scraped(p1, s -> s.waiting(9).kv(0.9));
        scraped(p2, s -> s.waiting(6).kv(0.85));
        assertThat(decideNow(policy(Weights.DEFAULT), base("hi"), List.of(p1, p2)).endpoint()).isEqualTo(p2);
        assertThat(fallbackEvents).isEmpty();
    }

    @Test
    void withRendezvousPlacementTheFallbackKeepsEachPromptOnItsHome() {
        PoolConfig replicated = replicated(new ReplicaConfig(2, Coordination.RENDEZVOUS, 1.25, 4, false,
                null));
        PluginPolicy a = policy(replicated);
        PluginPolicy b = policy(replicated);
        String prompt = "a long shared system prompt that fills more than one block of sixty-four characters, twice";
        // never scraped: both replicas are in the fallback, and both pick the same pod for the prompt, every time
        Endpoint first = decideNow(a, base(prompt), pods).endpoint();
        for (int i = 0; i < 5; i++) {
            assertThat(decideNow(a, base(prompt), pods).endpoint()).isEqualTo(first);
            assertThat(decideNow(b, base(prompt), pods).endpoint()).isEqualTo(first);
        }
        assertThat(a.inFallback()).isTrue();
    }

    @Test
    void fallsBackToLeastInFlightWhenNoMetricsAreFreshAndSaysSoOncePerTransition() {
        PluginPolicy policy = policy(Weights.DEFAULT);
        inFlight.started(p1, 1);
        inFlight.started(p2, 1);
        inFlight.started(p2, 1);
        // never scraped: fallback, p3 has no requests in flight
        assertThat(decideNow(policy, base("hi"), List.of(p1, p2, p3)).endpoint()).isEqualTo(p3);
        assertThat(decideNow(policy, base("hi"), List.of(p1, p2)).endpoint()).isEqualTo(p1);
        assertThat(policy.inFallback()).isTrue();
        assertThat(fallbackEvents).containsExactly(true);

        idle(p1, p2);
        decideNow(policy, base("hi"), List.of(p1, p2)).endpoint();
        decideNow(policy, base("hi"), List.of(p1, p2)).endpoint();
        assertThat(fallbackEvents).containsExactly(true, false);

        now[0] += 201 * MS; // both scrapes now stale
        decideNow(policy, base("hi"), List.of(p1, p2)).endpoint();
        decideNow(policy, base("hi"), List.of(p1, p2)).endpoint();
        assertThat(fallbackEvents).containsExactly(true, false, true);
    }

    // ------------------------------------------------------------------ LoRA

    @Test
    void anAdapterRequestGoesToAPodThatHasItLoadedEvenIfAnotherIsIdler() {
        // by weighted sum alone p2 would win: 2×1 + 2×0.9 + 2×0.8 = 5.4 against p1's 0 + 2×0.5 + 2×1 = 3.0
        scraped(p1, s -> s.waiting(3).running(20).kv(0.5).lora(Set.of("sql"), Set.of(), 2));
        scraped(p2, s -> s.waiting(0).running(2).kv(0.1).lora(Set.of(), Set.of(), 2));
        assertThat(decideNow(policy(Weights.DEFAULT), adapter("sql"), List.of(p2, p1)).endpoint()).isEqualTo(p1);
    }

    @Test
    void aColdAdapterGoesToThePodWithAFreeSlotAndTheMostSpareCapacity() {
        scraped(p1, s -> s.waiting(2).kv(0.5).lora(Set.of("chat"), Set.of(), 2)); // free slot, busier
        scraped(p2, s -> s.waiting(1).kv(0.4).lora(Set.of("chat"), Set.of(), 2)); // free slot, more spare
        scraped(p3, s -> s.waiting(0).kv(0.0).lora(Set.of("chat", "law"), Set.of(), 2)); // idle but no slot
        // by weighted sum alone p3 would win: 2×1 + 2×1 + 0 = 4.0 against p2's 2×0.5 + 2×0.6 + 2×0.8 = 3.8
        assertThat(decideNow(policy(Weights.DEFAULT), adapter("sql"), List.of(p1, p2, p3)).endpoint()).isEqualTo(p2);
    }

    @Test
    void aHotAdapterSpillsOverOnceItsPodIsSaturated() {
        scraped(p1, s -> s.waiting(5).kv(0.5).lora(Set.of("sql"), Set.of(), 2));
        scraped(p2, s -> s.waiting(0).kv(0.2).lora(Set.of(), Set.of(), 2));
        assertThat(decideNow(policy(Weights.DEFAULT), adapter("sql"), List.of(p1, p2)).endpoint()).isEqualTo(p2);
    }

    @Test
    void withLoraAffinityWeightZeroAdaptersAreRoutedByLoadAlone() {
        scraped(p1, s -> s.waiting(3).kv(0.5).lora(Set.of("sql"), Set.of(), 2));
        scraped(p2, s -> s.waiting(0).kv(0.1).lora(Set.of(), Set.of(), 2));
        assertThat(decideNow(policy(Weights.DEFAULT.with("loraAffinity", 0)), adapter("sql"), List.of(p1, p2)).endpoint())
                .isEqualTo(p2);
    }

    // ------------------------------------------------------------------ prefix affinity

    @Test
    void aRepeatedPromptFollowsItsCacheUntilThePodSaturates() {
        idle(p1, p2, p3);
        PluginPolicy policy = policy(Weights.DEFAULT);
        String doc = prompt("doc", 40);
        List<Endpoint> picks = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            picks.add(send(policy, base(doc), List.of(p3, p2, p1)));
        }
        // first: all tie → p3. Then p3 has the prompt: 0×2 (queue) + 0.9×2 + 1×3 = 4.8 beats 2 + 1.8 = 3.8,
        // until 5 requests wait there (saturation); the next one starts the prompt on p2.
        assertThat(picks).containsExactly(p3, p3, p3, p3, p3, p2, p2);
    }

    @Test
    void theFallbackKeepsFeedingThePrefixIndex() {
        PluginPolicy policy = policy(Weights.DEFAULT);
        inFlight.started(p1, 1);
        String doc = prompt("doc", 10);
        assertThat(send(policy, base(doc), List.of(p1, p2))).as("fallback: fewest in flight").isEqualTo(p2);
        idle(p1, p2);
        assertThat(decideNow(policy, base(doc), List.of(p1, p2)).endpoint()).as("prefix learnt during fallback").isEqualTo(p2);
    }

    @Test
    void aDeferredDecisionTeachesTheIndexOnlyOnceCommittedAndOnAnyThread() throws InterruptedException {
        idle(p1, p2, p3);
        PluginPolicy policy = policy(Weights.DEFAULT);
        String doc = prompt("doc", 10);
        PendingPick first = policy.begin(base(doc), List.of(p3, p2, p1), 0).pick();
        assertThat(first.decision().endpoint()).as("all tie: the first").isEqualTo(p3);
        assertThat(prefixScorer(policy).index().entries()).as("nothing learnt before the commit").isZero();
        PendingPick unrelated = policy.begin(base(prompt("other", 10)), List.of(p1, p2, p3), 0).pick();
        Thread elsewhere = new Thread(first::commit);
        elsewhere.start();
        elsewhere.join();
        unrelated.commit();
        assertThat(prefixScorer(policy).index().entries()).isEqualTo(20);
        PendingPick again = policy.begin(base(doc), List.of(p1, p2, p3), 0).pick();
        assertThat(again.decision().endpoint()).as("the committed prompt's pod").isEqualTo(p3);
        assertThat(again.decision().reason()).isEqualTo(PickReason.PREFIX_HIT);
        again.commit();
        assertThatThrownBy(again::commit).isInstanceOf(IllegalStateException.class);
    }

    private static PrefixCacheScorer prefixScorer(PluginPolicy policy) {
        return (PrefixCacheScorer) policy.profile().scorers().stream()
                .map(ws -> ws.scorer()).filter(s -> s instanceof PrefixCacheScorer).findFirst().orElseThrow();
    }

    @Test
    void podsThatLeaveThePoolLeaveTheIndex() {
        idle(p1, p2);
        PluginPolicy policy = policy(Weights.DEFAULT);
        send(policy, base(prompt("doc", 10)), List.of(p1, p2));
        PrefixCacheScorer prefix = (PrefixCacheScorer) policy.profile().scorers().stream()
                .map(ws -> ws.scorer()).filter(s -> s instanceof PrefixCacheScorer).findFirst().orElseThrow();
        assertThat(prefix.index().trackedEndpoints()).isEqualTo(1);
        policy.endpointsChanged(List.of(p2, p3));
        assertThat(prefix.index().trackedEndpoints()).isZero();
    }

    // ------------------------------------------------------------------ factory

    @Test
    void theFactoryBuildsThePluginPolicyAndKeepsTheBaselines() {
        MetricsViewStub none = new MetricsViewStub();
        assertThat(SchedulingPolicies.create(pool(Weights.DEFAULT, Policy.GPU_AWARE), none, inFlight, clock))
                .isInstanceOf(PluginPolicy.class)
                .hasToString("plugins[p: filters=[saturation-filter, lora-affinity-filter, latency-target-filter] "
                        + "scorers=[queue-scorer×2, kv-cache-scorer×2, lora-affinity-scorer×2, prefix-cache-scorer×3, "
                        + "latency-scorer×2, session-affinity-scorer×8] picker=max-score-picker]");
        assertThat(SchedulingPolicies.create(pool(Weights.DEFAULT, Policy.ROUND_ROBIN), none, inFlight, clock))
                .isInstanceOf(RoundRobinPolicy.class);
        assertThat(SchedulingPolicies.create(pool(Weights.DEFAULT, Policy.LEAST_REQUEST), none, inFlight, clock))
                .isInstanceOf(LeastRequestPolicy.class);
        assertThat(SchedulingPolicies.create(pool(Weights.DEFAULT, Policy.RANDOM), none, inFlight, clock))
                .isInstanceOf(RandomPolicy.class);
    }

    @Test
    void thePoolsStalenessThresholdDecidesWhatIsFresh() {
        PoolConfig base = pool(Weights.DEFAULT, Policy.GPU_AWARE);
        PoolConfig patient = PoolConfig.builder(MODEL).name("p").endpoints(List.of(p1))
                .metricsStalenessThreshold(Duration.ofSeconds(1)).build();
        scraped(p1, s -> s.waiting(0).kv(0.1));
        now[0] += 500 * MS;
        scraped(p2, s -> s.waiting(4).kv(0.7));
        // p1's scrape is 500 ms old: stale at the default 200 ms, so the busier p2 wins; fresh within 1 s
        assertThat(decideNow(policy(base), base("hi"), List.of(p1, p2)).endpoint()).isEqualTo(p2);
        assertThat(decideNow(policy(patient), base("hi"), List.of(p1, p2)).endpoint()).isEqualTo(p1);
    }

    private static final class MetricsViewStub implements io.inferencegateway.metrics.MetricsView {
        @Override
        public EndpointMetrics latest(Endpoint endpoint) {
            return null;
        }
    }
}
