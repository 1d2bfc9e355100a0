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
 * <p>Where a session goes needs no talking between gateway replicas: a new session's pod is its rendezvous home over
 * the candidates the filters kept (the pods with room; {@link RendezvousHomes#rank0}), so every replica that sees the
 * same pods saturated sends it to the same pod. There is no load bound beyond the saturation filter's: replicas read
 * different corrected queues (each counts its own dispatches), and a bound on them made two replicas place a third of
 * new sessions apart under load, where each then kept its own choice (docs/sessions.md). When its pod is filtered out (saturated) or
 * is no longer a candidate (gone, ejected), the session goes to its rendezvous home among the pods left, the same
 * next pod on every replica, and the table remembers the move, so it stays there when its old pod has room again.
 *
 * <p>The session's pod, and the rendezvous home of a session this replica has not seen, is expected to cache the
 * conversation's history (the prompt up to its last assistant message; {@link SchedulingCycle#expectCachedTokens}),
 * also when other replicas sent the earlier turns and this replica's prefix index knows nothing of them; a picker by
 * predicted time counts it (on one replica its prefix index knows it anyway).
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

    public SessionAffinityScorer(SessionTable table) {
        super(TYPE, PickReason.SESSION_AFFINITY);
        this.table = table;
    }

    /** The scorer for {@code pool}, its table as the pool's {@code sessionAffinity} bounds it, registered. */
    static SessionAffinityScorer forPool(PluginContext pool) {
        SessionAffinityConfig sessions = pool.sessions();
        SessionAffinityScorer scorer = new SessionAffinityScorer(new SessionTable(sessions.maxSessions(),
                sessions.idleTimeout().toNanos()));
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
        int n = endpoints.size();
        if (pod != null) {
            for (int i = 0; i < n; i++) {
                if (endpoints.get(i).endpoint().equals(pod)) {
                    scores[i] = 1.0;
                    cycle.expectCachedTokens(i, cycle.request().historyTokensEstimate());
                    return;
                }
            }
            table.leaving(session, candidate(cycle.states(), pod) ? SessionTable.SATURATED : SessionTable.POD_GONE);
        }
        int home = RendezvousHomes.rank0(session, cycle.endpointView(endpoints));
        if (home >= 0) {
            scores[home] = 1.0;
            if (pod == null) { // new to this replica: where the others sent it, if it is not new
                cycle.expectCachedTokens(home, cycle.request().historyTokensEstimate());
            }
        }
    }

    private static boolean candidate(List<EndpointState> states, Endpoint pod) {
        for (int i = 0; i < states.size(); i++) {
            if (states.get(i).endpoint().equals(pod)) {
                return true;
            }
        }
        return false;
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
            for (int i = 0; i < n; i++) {
                if (states.get(i).endpoint().equals(pod)) {
                    return i;
                }
            }
            table.leaving(session, SessionTable.POD_GONE);
        }
        return RendezvousHomes.rank0(session, cycle.endpointView(states));
    }

    @Override
    public void committed(SchedulingCycle cycle, EndpointState chosen) {
        String key = cycle.request().session();
        if (key != null) {
            table.remember(SessionTable.hash(key), chosen.endpoint(), cycle.nowNanos());
        }
    }
}
