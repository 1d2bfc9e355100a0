package io.inferencegateway.scheduling;

import static io.inferencegateway.domain.SchedulingPolicy.decideNow;
import static io.inferencegateway.scheduling.Scenarios.MODEL;
import static io.inferencegateway.scheduling.Scenarios.base;
import static io.inferencegateway.scheduling.Scenarios.pod;
import static io.inferencegateway.scheduling.Scenarios.prompt;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;

import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.config.ReplicaConfig;
import io.inferencegateway.config.SessionAffinityConfig;
import io.inferencegateway.config.Weights;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.PickReason;
import io.inferencegateway.domain.RecentFailures;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.scheduling.Scenarios.Scrape;
import io.inferencegateway.scheduling.latency.LatencyPredictor;
import io.inferencegateway.scheduling.prefix.PrefixSharing;
import io.inferencegateway.scheduling.session.SessionTable;

/** The default GPU-aware policy with session affinity on: sessions stick, move off full pods, and replicas agree. */
class SessionAffinityTest {

    static final long MS = 1_000_000L;

    final List<Endpoint> pods = List.of(pod(1), pod(2), pod(3), pod(4));
    final long[] now = {1_000 * MS};
    final NanoClock clock = () -> now[0];
    final InFlightRequests inFlight = new InFlightRequests();
    final Map<Endpoint, EndpointMetrics> scrapes = new HashMap<>();

    /** Two gateway replicas with rendezvous placement, as the {@code replicas} section configures them. */
    static final ReplicaConfig TWO = new ReplicaConfig(2, ReplicaConfig.Coordination.RENDEZVOUS, 1.25, 4, false, null);

    PluginPolicy policy(SessionAffinityConfig sessions) {
        return policy(sessions, ReplicaConfig.SINGLE);
    }

    PluginPolicy policy(SessionAffinityConfig sessions, ReplicaConfig replicas) {
        PoolConfig pool = PoolConfig.builder(MODEL).name("p").endpoints(pods).sessionAffinity(sessions)
                .replicas(replicas).build();
        return PluginPolicy.forPool(pool, scrapes::get, inFlight, clock, SchedulerEvents.NONE, () -> 0L);
    }

    /** The default weights with the picker that goes by predicted time ({@code picker: predicted-time}). */
    PluginPolicy byTime(SessionAffinityConfig sessions, ReplicaConfig replicas) {
        PoolConfig pool = PoolConfig.builder(MODEL).name("p").endpoints(pods).sessionAffinity(sessions)
                .replicas(replicas).endpointPicker(Weights.DEFAULT.endpointPicker("predicted-time")).build();
        return PluginPolicy.forPool(pool, scrapes::get, inFlight, clock, SchedulerEvents.NONE, () -> 0L);
    }

    void scraped(Endpoint e, UnaryOperator<Scrape> what) {
        scrapes.put(e, what.apply(Scenarios.scrape().at(now[0]).dispatched(inFlight.snapshot(e))).build());
    }

    void allIdle() {
        pods.forEach(p -> scraped(p, s -> s.kv(0.1)));
    }

    static InferenceRequest turn(String session, int turn) {
        return base(prompt(session, 2 + turn)).toBuilder().session(session).build();
    }

    /** Decides and commits, as the request path does, without counting the request in flight (scrapes say it all). */
    static PickDecision pick(PluginPolicy policy, InferenceRequest r, List<Endpoint> candidates) {
        return decideNow(policy, r, candidates);
    }

    /** A turn of a long conversation: ~3,000 prompt tokens, ~230 ms to compute where nothing of it is cached. */
    static InferenceRequest longTurn(String session, int turn) {
        return base(prompt(session, 190 + turn)).toBuilder().session(session).build();
    }

    @Test
    void byTimeAConversationStaysOnItsPodWhileItIsMerelyBusyAndMovesWhenAnotherIsFasterByMoreThanTheMargin() {
        PluginPolicy policy = byTime(SessionAffinityConfig.DEFAULT, ReplicaConfig.SINGLE);
        allIdle();
        Endpoint home = pick(policy, longTurn("conv", 0), pods).endpoint();

        scraped(home, s -> s.waiting(2).running(16).kv(0.6)); // busy: ~140 ms with its history cached, ~230 elsewhere
        for (int t = 1; t < 6; t++) {
            PickDecision d = pick(policy, longTurn("conv", t), pods);
            assertThat(d.endpoint()).as("turn %d", t).isEqualTo(home);
            assertThat(d.reason()).isEqualTo(PickReason.SESSION_AFFINITY);
        }

        inFlight.prefilling(home, 8_000); // 8,000 prompt tokens sent there and not computed yet: ~480 ms more
        PickDecision moved = pick(policy, longTurn("conv", 6), pods);
        assertThat(moved.endpoint()).isNotEqualTo(home);
        assertThat(moved.reason()).as("what made the other pod faster").isEqualTo(PickReason.LEAST_LOADED);
        assertThat(pick(policy, longTurn("conv", 7), pods).endpoint()).as("and it stays where it moved")
                .isEqualTo(moved.endpoint());
        assertThat(policy.sessions().moves(SessionTable.OUTSCORED)).isEqualTo(1);
    }

    @Test
    void byTimeATurnReachingAReplicaThatSentNoneOfTheConversationGoesWhereItsHistoryIs() {
        PluginPolicy a = byTime(SessionAffinityConfig.DEFAULT, TWO);
        PluginPolicy b = byTime(SessionAffinityConfig.DEFAULT, TWO);
        allIdle();
        Endpoint home = pick(a, answered("conv", 0), pods).endpoint();
        for (int t = 1; t < 3; t++) {
            assertThat(pick(a, answered("conv", t), pods).endpoint()).isEqualTo(home);
        }

        // busy: ~140 ms with the history cached; cold there ~320 ms, and ~230 ms on the idle pods
        scraped(home, s -> s.waiting(2).running(16).kv(0.6));
        PickDecision onB = pick(b, answered("conv", 3), pods);
        assertThat(onB.endpoint()).as("b's prefix index knows nothing of it, but the session is there")
                .isEqualTo(home);
        assertThat(onB.expectedCachedTokens()).isEqualTo(answered("conv", 3).historyTokensEstimate());
    }

    /** {@link #longTurn} whose prompt up to the previous turn's end is the conversation's history. */
    static InferenceRequest answered(String session, int turn) {
        int history = turn == 0 ? 0 : InferenceRequest.estimateTokens(prompt(session, 189 + turn));
        return longTurn(session, turn).toBuilder().historyTokensEstimate(history).build();
    }

    @Test
    void oneGatewayMovesAConversationWhosePodEvictedItsHistoryAndCountsTheMove() {
        PluginPolicy policy = policy(SessionAffinityConfig.DEFAULT);
        pods.forEach(p -> scraped(p, s -> s.kv(0.1).kvGeometry(16, 100))); // 1,600 tokens of KV cache a pod
        Endpoint home = pick(policy, chat("conv", 0), pods).endpoint();
        assertThat(pick(policy, chat("conv", 1), pods).endpoint()).as("its history is there").isEqualTo(home);

        for (int i = 0; i < 6; i++) { // 180 blocks of other prompts on its pod: more than it holds
            pick(policy, base(prompt("other-" + i, 30)), List.of(home));
        }
        PickDecision moved = pick(policy, chat("conv", 2), pods);

        assertThat(moved.endpoint()).isNotEqualTo(home);
        assertThat(policy.sessions().moves(SessionTable.EVICTED)).isEqualTo(1);
        assertThat(pick(policy, chat("conv", 3), pods).endpoint()).as("and stays where its history now is")
                .isEqualTo(moved.endpoint());
        assertThat(policy.sessions().moves(SessionTable.EVICTED)).isEqualTo(1);
    }

    /** A turn of a 20-block conversation whose history is its previous turn's prompt (and the answer to it). */
    static InferenceRequest chat(String session, int turn) {
        int history = turn == 0 ? 0 : InferenceRequest.estimateTokens(prompt(session, 19 + turn)) + 40;
        return base(prompt(session, 20 + turn)).toBuilder().session(session).historyTokensEstimate(history).build();
    }

    @Test
    void aSessionStaysOnItsPodWhileThatPodHasRoomEvenWhenOthersAreEmptier() {
        PluginPolicy policy = policy(SessionAffinityConfig.DEFAULT);
        allIdle();
        Endpoint home = pick(policy, turn("conv", 0), pods).endpoint();

        scraped(home, s -> s.waiting(4).running(8).kv(0.7)); // busy, but under the saturation thresholds (5, 0.8)
        for (int t = 1; t < 12; t++) {
            PickDecision d = pick(policy, turn("conv", t), pods);
            assertThat(d.endpoint()).as("turn %d", t).isEqualTo(home);
            assertThat(d.reason()).isEqualTo(PickReason.SESSION_AFFINITY);
        }
        assertThat(policy.sessions().size(now[0])).isEqualTo(1);
    }

    @Test
    void aSessionMovesOffASaturatedPodAndStaysWhereItMoved() {
        PluginPolicy policy = policy(SessionAffinityConfig.DEFAULT);
        allIdle();
        Endpoint home = pick(policy, turn("conv", 0), pods).endpoint();

        scraped(home, s -> s.waiting(5).kv(0.5)); // saturated
        Endpoint moved = pick(policy, turn("conv", 1), pods).endpoint();
        assertThat(moved).isNotEqualTo(home);

        allIdle(); // the old pod has room again
        for (int t = 2; t < 6; t++) {
            assertThat(pick(policy, turn("conv", t), pods).endpoint()).as("turn %d", t).isEqualTo(moved);
        }
        SessionTable table = policy.sessions();
        assertThat(table.moves(SessionTable.SATURATED)).isEqualTo(1);
        assertThat(table.moves(SessionTable.POD_GONE)).isZero();
        assertThat(table.moves(SessionTable.OUTSCORED)).isZero();
    }

    @Test
    void aSessionWhosePodLeftMovesAndCountsItAsGone() {
        PluginPolicy policy = policy(SessionAffinityConfig.DEFAULT);
        allIdle();
        Endpoint home = pick(policy, turn("conv", 0), pods).endpoint();
        List<Endpoint> left = pods.stream().filter(p -> !p.equals(home)).toList();

        Endpoint moved = pick(policy, turn("conv", 1), left).endpoint();

        assertThat(left).contains(moved);
        assertThat(pick(policy, turn("conv", 2), pods).endpoint()).as("back in the pool, but the session moved")
                .isEqualTo(moved);
        assertThat(policy.sessions().moves(SessionTable.POD_GONE)).isEqualTo(1);
    }

    @Test
    void oneGatewayGivesEveryPodItsShareOfTheConversationsByKvCacheSize() {
        PluginPolicy policy = policy(SessionAffinityConfig.DEFAULT);
        pods.forEach(p -> scraped(p, s -> s.kv(0.1).kvGeometry(16, p.equals(pods.get(0)) ? 2_000 : 1_000)));
        Map<Endpoint, Integer> perPod = new HashMap<>();
        for (int s = 0; s < 400; s++) {
            perPod.merge(pick(policy, turn("session-" + s, 0), pods).endpoint(), 1, Integer::sum);
        }
        // shares 0.4, 0.2, 0.2, 0.2 of 400
        assertThat(perPod.get(pods.get(0))).isBetween(159, 161);
        pods.subList(1, 4).forEach(p -> assertThat(perPod.get(p)).as("%s", p).isBetween(79, 81));
        assertThat(policy.sessions().sessionsOn(pods.get(0))).isEqualTo(perPod.get(pods.get(0)));
    }

    @Test
    void aPodThatJoinsTakesNewConversationsUntilItHoldsItsShare() {
        PluginPolicy policy = policy(SessionAffinityConfig.DEFAULT);
        allIdle();
        List<Endpoint> three = pods.subList(0, 3);
        for (int s = 0; s < 90; s++) {
            pick(policy, turn("early-" + s, 0), three);
        }
        Map<Endpoint, Integer> perPod = new HashMap<>();
        for (int s = 0; s < 40; s++) {
            perPod.merge(pick(policy, turn("late-" + s, 0), pods).endpoint(), 1, Integer::sum);
        }
        // 30 each on the first three: the fourth takes the next 30, then all four share (33 of 130 at most)
        assertThat(perPod.get(pods.get(3))).isBetween(30, 33);
        assertThat(perPod).as("then the others take new ones again").hasSize(4);
    }

    @Test
    void replicasSharingTheirDecisionsGiveEveryPodItsShareAndAgreeWhereEachConversationIs() {
        Sharing redis = new Sharing();
        PluginPolicy a = sharing(redis);
        PluginPolicy b = sharing(redis);
        allIdle();
        Map<Endpoint, Integer> perPod = new HashMap<>();
        for (int s = 0; s < 40; s++) {
            PluginPolicy first = s % 2 == 0 ? a : b;
            PluginPolicy other = first == a ? b : a;
            Endpoint pod = pick(first, chat("conv-" + s, 0), pods).endpoint();
            assertThat(pick(other, chat("conv-" + s, 1), pods).endpoint()).as("conversation %d", s).isEqualTo(pod);
            assertThat(pick(first, chat("conv-" + s, 2), pods).endpoint()).isEqualTo(pod);
            perPod.merge(pod, 1, Integer::sum);
        }
        assertThat(perPod.values()).as("by share, not by hash").containsOnly(10);
        assertThat(a.sessions().moves(SessionTable.EVICTED) + b.sessions().moves(SessionTable.EVICTED)).isZero();

        // a moves a conversation (its pod is gone in a's view); b, whose table did not see the move, follows it
        Endpoint old = pick(a, chat("moved", 0), pods).endpoint();
        assertThat(pick(b, chat("moved", 1), pods).endpoint()).isEqualTo(old);
        Endpoint moved = pick(a, chat("moved", 2), pods.stream().filter(p -> !p.equals(old)).toList()).endpoint();
        assertThat(pick(b, chat("moved", 3), pods).endpoint()).isEqualTo(moved);
        assertThat(a.sessions().moves(SessionTable.POD_GONE)).isEqualTo(1);
        assertThat(b.sessions().moves(SessionTable.POD_GONE) + b.sessions().moves(SessionTable.EVICTED))
                .as("counted once, by the replica that moved it").isZero();

        redis.live = false; // while Redis is away they place new conversations by rendezvous hash, and still agree
        for (int s = 0; s < 20; s++) {
            InferenceRequest r = chat("later-" + s, 0);
            assertThat(pick(b, r, pods).endpoint()).as("later %d", s).isEqualTo(pick(a, r, pods).endpoint());
        }
    }

    @Test
    void aSharingReplicaFindsAConversationWithoutAssistantMessagesWhereItsPromptIs() {
        Sharing redis = new Sharing();
        PluginPolicy a = sharing(redis);
        PluginPolicy b = sharing(redis);
        allIdle();
        Map<Endpoint, Integer> onB = new HashMap<>();
        for (int s = 0; s < 5; s++) { // one pod holds two of b's conversations: it is above its share in b's count
            onB.merge(pick(b, turn("b-" + s, 0), pods).endpoint(), 1, Integer::sum);
        }
        Endpoint full = onB.entrySet().stream().filter(e -> e.getValue() == 2).findFirst().orElseThrow().getKey();

        pick(a, turn("x", 0), List.of(full));
        // no history to find it by; it goes where its prompt is, not to a pod below b's share
        assertThat(pick(b, turn("x", 1), pods).endpoint()).isEqualTo(full);
    }

    /** A replica with {@code placement: shared}, telling the others through {@code redis}. */
    PluginPolicy sharing(Sharing redis) {
        ReplicaConfig replicas = new ReplicaConfig(2, ReplicaConfig.Coordination.SHARED, 1.25, 4, false,
                URI.create("redis://127.0.0.1:6379"));
        PoolConfig pool = PoolConfig.builder(MODEL).name("p").endpoints(pods)
                .sessionAffinity(SessionAffinityConfig.DEFAULT).replicas(replicas).build();
        return PluginPolicy.forPool(pool, scrapes::get, inFlight, clock, SchedulerEvents.NONE, () -> 0L, redis,
                new LatencyPredictor(pool.name()), RecentFailures.NONE);
    }

    /** Replicas telling each other every decision the moment it is made, as Redis does within a millisecond. */
    static final class Sharing implements PrefixSharing {
        final List<Receiver> replicas = new ArrayList<>();
        boolean live = true;

        @Override
        public Feed join(Receiver receiver) {
            replicas.add(receiver);
            return new Feed() {
                @Override
                public void publish(long[] hashes, int count, Endpoint endpoint, int cacheBlocks) {
                    if (live) {
                        replicas.stream().filter(r -> r != receiver)
                                .forEach(r -> r.routed(hashes, count, endpoint, cacheBlocks));
                    }
                }

                @Override
                public boolean live() {
                    return live;
                }
            };
        }
    }

    @Test
    void newSessionsSpreadOverThePodsAndTwoReplicasPlaceEachAlike() {
        PluginPolicy a = policy(SessionAffinityConfig.DEFAULT, TWO);
        PluginPolicy b = policy(SessionAffinityConfig.DEFAULT, TWO);
        allIdle();
        Map<Endpoint, Integer> perPod = new HashMap<>();
        for (int s = 0; s < 400; s++) {
            InferenceRequest r = turn("session-" + s, 0);
            Endpoint onA = pick(a, r, pods).endpoint();
            assertThat(pick(b, r, pods).endpoint()).as("session %d", s).isEqualTo(onA);
            perPod.merge(onA, 1, Integer::sum);
        }
        assertThat(perPod).hasSize(4);
        assertThat(perPod.values()).allSatisfy(n -> assertThat(n).isBetween(60, 140));
    }

    @Test
    void twoReplicasMoveASessionOffASaturatedPodToTheSamePod() {
        PluginPolicy a = policy(SessionAffinityConfig.DEFAULT, TWO);
        PluginPolicy b = policy(SessionAffinityConfig.DEFAULT, TWO);
        allIdle();
        List<Endpoint> movedTo = new ArrayList<>();
        for (int s = 0; s < 50; s++) {
            allIdle();
            Endpoint home = pick(a, turn("session-" + s, 0), pods).endpoint();
            assertThat(pick(b, turn("session-" + s, 1), pods).endpoint()).isEqualTo(home);
            scraped(home, x -> x.waiting(7).kv(0.9));
            Endpoint onA = pick(a, turn("session-" + s, 2), pods).endpoint();
            assertThat(pick(b, turn("session-" + s, 3), pods).endpoint()).as("session %d", s).isEqualTo(onA)
                    .isNotEqualTo(home);
            movedTo.add(onA);
        }
        assertThat(new HashSet<>(movedTo)).as("moves spread too").hasSizeGreaterThan(1);
    }

    @Test
    void requestsWithoutASessionArePlacedExactlyAsWithoutSessionAffinity() {
        PluginPolicy with = policy(SessionAffinityConfig.DEFAULT);
        PluginPolicy without = policy(SessionAffinityConfig.OFF);
        assertThat(with.profile().toString()).contains("session-affinity-scorer×8");
        assertThat(without.profile().toString()).doesNotContain("session-affinity-scorer");
        for (int i = 0; i < 200; i++) {
            int n = i;
            pods.forEach(p -> scraped(p, s -> s.waiting((n * 7 + p.host().hashCode()) % 4).kv(((n + 3) % 7) / 10.0)));
            InferenceRequest r = base(prompt("shared-" + (i % 5), 3 + i % 4));
            PickDecision d1 = pick(with, r, pods);
            PickDecision d2 = pick(without, r, pods);
            assertThat(d1.endpoint()).as("request %d", i).isEqualTo(d2.endpoint());
            assertThat(d1.reason()).isEqualTo(d2.reason());
        }
        assertThat(with.sessions().size(now[0])).isZero();
    }

    @Test
    void whileMetricsAreStaleASessionStaysOnItsPod() {
        PluginPolicy policy = policy(SessionAffinityConfig.DEFAULT);
        allIdle();
        Endpoint home = pick(policy, turn("conv", 0), pods).endpoint();
        now[0] += 10_000 * MS; // every scrape stale: the fallback decides

        for (int t = 1; t < 4; t++) {
            PickDecision d = pick(policy, turn("conv", t), pods);
            assertThat(d.reason()).isEqualTo(PickReason.FALLBACK);
            assertThat(d.endpoint()).isEqualTo(home);
        }
    }
}
