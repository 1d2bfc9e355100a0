package io.inferencegateway.scheduling.plugins;

import java.util.List;

import io.inferencegateway.config.SessionAffinityConfig;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.PickReason;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.LifecyclePlugin;
import io.inferencegateway.scheduling.framework.PluginContext;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.SchedulingCycle;
import io.inferencegateway.scheduling.framework.Scorer;
import io.inferencegateway.scheduling.framework.StaleFallback;
import io.inferencegateway.scheduling.prefix.RendezvousHomes;
import io.inferencegateway.scheduling.session.SessionTable;

/**
 * {@value #TYPE}: keeps a conversation on the pod it went to, while that pod has room (soft affinity). A request's
 * session (its {@code prompt_cache_key}, {@code user} or session header, as the pool's {@code sessionAffinity.keys}
 * say; docs/sessions.md) scores 1.0 on its pod and 0 elsewhere; requests without one score 0 everywhere, so prefix
 * affinity and load decide them as before.
 *
 * <p>A new session, with one gateway (no {@code replicas} section, or {@code placement: independent}) or with
 * replicas that share their decisions ({@code placement: shared}, while Redis is reached), may go to any candidate
 * that holds less than its share of the sessions the table holds, this one included (its share by KV cache size when
 * every candidate reports one, else even), and among those the other scorers (load, cache) choose. A pod keeps the
 * conversations it takes, so placing them by hash alone left the busiest of eight pods twice the idlest's turns, and
 * more histories than its cache holds (docs/benchmarks/conversations.md). A pod that joins takes the new sessions
 * until it holds its share, unless the saturation filter finds it full.
 *
 * <p>In both cases a prefix index (where the pool has one) saw every turn, whichever replica sent it
 * ({@link SchedulingCycle#cachedTokensComplete}), and says where a conversation's history is: the conversation goes
 * to the candidate holding at least a quarter of its history, the most of it (its table's pod on a tie). So a session
 * this replica has not seen, or saw before another replica moved it, goes where the others sent it, and shared
 * replicas agree on a conversation's pod without a hash and without sharing the table (a move is counted once, by
 * the replica that made it). Where no candidate holds a quarter of the history, the session is placed as a new one
 * (a move counted as {@link SessionTable#EVICTED}): it is a miss wherever it goes, best taken where the load is least.
 *
 * <p>With replicas that do not share their decisions ({@code placement: rendezvous}, or shared while Redis is away)
 * where a session goes needs no talking between them: a new session's pod is its rendezvous home over the candidates
 * the filters kept (the pods with room; {@link RendezvousHomes#rank0}), so every replica that sees the same pods
 * saturated sends it to the same pod. There is no load bound beyond the saturation filter's: replicas read different
 * corrected queues and hold different sessions (each its own turns), and a bound on queues made two replicas place a
 * third of new sessions apart under load, where each then kept its own choice (docs/sessions.md). The session's pod,
 * and the rendezvous home of a session this replica has not seen, is expected to cache the conversation's history
 * ({@link SchedulingCycle#expectCachedTokens}), also when other replicas sent the earlier turns and this replica's
 * prefix index knows nothing of them; a picker by predicted time counts it.
 *
 * <p>When a session's pod is filtered out (saturated) or is no longer a candidate (gone, ejected), the session goes
 * where a new one would (or to another pod holding its history), and the table remembers the move, so it stays there
 * when its old pod has room again.
 *
 * <p>The table ({@link SessionTable}) is bounded and forgets idle sessions; it learns from the committed pick
 * ({@link #committed}), whichever scorer decided it. While no metrics are fresh, its pool's stale fallback keeps a
 * session on its pod ({@link #sessionPod}).
 */
public final class SessionAffinityScorer extends NamedScorer implements LifecyclePlugin {

    public static final String TYPE = SessionAffinityConfig.SCORER;

    /** Takes no parameters: the pool's {@code sessionAffinity} section bounds the table. */
    public static final PluginType<Scorer> PLUGIN = PluginType.scorer(TYPE, parameters -> forPool(parameters.pool()));

    private final SessionTable table;
    /** No rendezvous placement: new sessions are spread by the sessions each pod holds, not by rendezvous hash. */
    private final boolean spread;

    public SessionAffinityScorer(SessionTable table, boolean spread) {
        super(TYPE, PickReason.SESSION_AFFINITY);
        this.table = table;
        this.spread = spread;
    }

    /** The scorer for {@code pool}, its table as the pool's {@code sessionAffinity} bounds it, registered. */
    static SessionAffinityScorer forPool(PluginContext pool) {
        SessionAffinityConfig sessions = pool.sessions();
        SessionAffinityScorer scorer = new SessionAffinityScorer(new SessionTable(sessions.maxSessions(),
                sessions.idleTimeout().toNanos()), !pool.replicas().rendezvousHomes());
        pool.lifecycle(scorer);
        pool.sessionTable(scorer.table);
        pool.staleFallback(StaleFallback.SESSION, scorer::sessionPod);
        return scorer;
    }

    /** Where it remembers the sessions. */
    public SessionTable sessions() {
        return table;
    }

    @Override
    public void score(SchedulingCycle cycle, List<EndpointState> endpoints, double[] scores) {
        String key = cycle.request().session();
        if (key == null) {
            return; // no session: nothing to keep
        }
        long session = SessionTable.hash(key);
        Endpoint pod = table.pod(session, cycle.nowNanos());
        boolean complete = cycle.cachedTokensComplete(); // the prefix index saw every turn, whoever sent it
        int at = pod == null ? -1 : indexOf(endpoints, pod);
        int warmest = complete ? warmest(endpoints, at) : -1;
        // with a complete index the conversation is where its history is, the table's pod on a tie
        int holder = warmest >= 0 && holdsHistory(cycle, endpoints.get(warmest)) ? warmest : -1;
        int n = endpoints.size();
        if (at >= 0) {
            if (!complete || holder == at || cycle.request().historyTokensEstimate() == 0) {
                scores[at] = 1.0;
                if (!spread && !complete) { // other replicas may have sent the history: this one's index lacks it
                    cycle.expectCachedTokens(at, cycle.request().historyTokensEstimate());
                }
                return;
            }
            if (holder >= 0) { // another replica moved it, and this one's table did not see the move
                scores[holder] = 1.0;
                return;
            }
            table.leaving(session, SessionTable.EVICTED); // its history is nowhere: placed as a new one
        } else if (pod != null) {
            table.leaving(session, indexOf(cycle.states(), pod) >= 0 ? SessionTable.SATURATED : SessionTable.POD_GONE);
        }
        if (spread || complete) {
            if (holder >= 0) { // a session this replica has not seen (or forgot), or whose pod is full
                scores[holder] = 1.0;
                return;
            }
            boolean[] room = room(endpoints);
            for (int i = 0; i < n; i++) {
                if (room[i]) {
                    scores[i] = 1.0;
                }
            }
            if (!spread && pod == null) {
                // new to this replica, perhaps not to the others: a client that sends no assistant messages gives no
                // history to find, but the pod holding the most of its prompt may have its earlier turns
                if (warmest >= 0) {
                    scores[warmest] = 1.0;
                }
            }
            return;
        }
        int home = RendezvousHomes.rank0(session, cycle.endpointView(endpoints));
        if (home >= 0) {
            scores[home] = 1.0;
            if (pod == null) { // new to this replica: where the others sent it, if it is not new
                cycle.expectCachedTokens(home, cycle.request().historyTokensEstimate());
            }
        }
    }

    private static int indexOf(List<EndpointState> states, Endpoint pod) {
        for (int i = 0; i < states.size(); i++) {
            if (states.get(i).endpoint().equals(pod)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Whether the prefix index says {@code pod} holds at least a quarter of the conversation's history (the prompt up
     * to its last assistant message); false without a history. The index keeps no more of a pod's blocks than its KV
     * cache holds, so a pod that evicted the history holds little of it (the engine, whose cache also holds what it
     * generates, evicts sooner). A quarter, not a half: the index holds the previous prompt, the history also its
     * answer.
     */
    private static boolean holdsHistory(SchedulingCycle cycle, EndpointState pod) {
        int history = cycle.request().historyTokensEstimate();
        return history > 0 && pod.cachedTokens() >= history / 4;
    }

    /** The candidate holding the most of the prompt, {@code preferred} on a tie; -1 when none holds any. */
    private static int warmest(List<EndpointState> endpoints, int preferred) {
        int best = preferred;
        for (int i = 0; i < endpoints.size(); i++) {
            if (endpoints.get(i).cachedTokens() > (best < 0 ? 0 : endpoints.get(best).cachedTokens())) {
                best = i;
            }
        }
        return best >= 0 && endpoints.get(best).cachedTokens() > 0 ? best : -1;
    }

    /**
     * Without fresh metrics: the index in {@code states} of the pod the request's session is on, or of its rendezvous
     * pod when that one is not among them; -1 when the request has no session.
     */
    int sessionPod(SchedulingCycle cycle, List<EndpointState> states) {
        String key = cycle.request().session();
        if (key == null || states.isEmpty()) {
            return -1;
        }
        long session = SessionTable.hash(key);
        Endpoint pod = table.pod(session, cycle.nowNanos());
        int n = states.size();
        if (pod != null) {
            int at = indexOf(states, pod);
            if (at >= 0) {
                return at;
            }
            table.leaving(session, SessionTable.POD_GONE);
        }
        if (spread) {
            boolean[] room = room(states);
            for (int i = 0; i < n; i++) {
                if (room[i]) {
                    return i;
                }
            }
        }
        return RendezvousHomes.rank0(session, cycle.endpointView(states));
    }

    /**
     * Which candidates have room for one more session: those holding less than their share of the sessions held on all
     * of them plus this one. At least one has (the shares add up to 1).
     */
    private boolean[] room(List<EndpointState> endpoints) {
        int n = endpoints.size();
        int[] held = new int[n];
        long[] kvTokens = new long[n];
        long total = 0;
        long totalKv = 0;
        for (int i = 0; i < n; i++) {
            EndpointState e = endpoints.get(i);
            held[i] = table.sessionsOn(e.endpoint());
            total += held[i];
            kvTokens[i] = kvTokens(e);
            totalKv = kvTokens[i] > 0 && totalKv >= 0 ? totalKv + kvTokens[i] : -1;
        }
        boolean[] room = new boolean[n];
        for (int i = 0; i < n; i++) {
            double share = totalKv > 0 ? (double) kvTokens[i] / totalKv : 1.0 / n;
            room[i] = held[i] + 1 <= Math.ceil((total + 1) * share);
        }
        return room;
    }

    /** The tokens the pod's KV cache holds, as its last scrape reports them; -1 when unknown. */
    private static long kvTokens(EndpointState e) {
        var m = e.metrics();
        return m == null || m.kvBlockSize() <= 0 || m.kvTotalBlocks() <= 0 ? -1 : m.kvBlockSize() * m.kvTotalBlocks();
    }

    @Override
    public void committed(SchedulingCycle cycle, EndpointState chosen) {
        String key = cycle.request().session();
        if (key != null) {
            table.remember(SessionTable.hash(key), chosen.endpoint(), cycle.nowNanos());
        }
    }
}
