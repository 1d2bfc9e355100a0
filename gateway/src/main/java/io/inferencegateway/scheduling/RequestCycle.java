package io.inferencegateway.scheduling;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.inferencegateway.domain.AdmissionDecision;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.PendingPick;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.PickReason;
import io.inferencegateway.domain.Scheduling;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.metrics.MetricsView;
import io.inferencegateway.scheduling.framework.Admitter;
import io.inferencegateway.scheduling.framework.DataProducer;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.LifecyclePlugin;
import io.inferencegateway.scheduling.framework.ProfileResult;
import io.inferencegateway.scheduling.framework.SaturationDetector;
import io.inferencegateway.scheduling.framework.SchedulerProfile;
import io.inferencegateway.scheduling.framework.SchedulingCycle;
import io.inferencegateway.scheduling.framework.StaleFallback;

/**
 * One request's scheduling by a {@link PluginPolicy}, from its admission to its committed pick: the snapshot is built
 * once when it begins (every candidate's state, then the producers' facts), admission reads it, the profiles pick on
 * it, and the lifecycle plugins learn from the pick when it is committed; then the cycle goes back to its thread's
 * pool for the next request. Not thread-safe: used by one thread at a time (commit may come from another).
 */
final class RequestCycle implements Scheduling, PendingPick {

    private enum Phase { IDLE, OPEN, PICKED }

    private final PluginPolicy policy;
    private final IdleCycles home;
    private final SchedulingCycle cycle = new SchedulingCycle();
    private final List<ProfileResult> results = new ArrayList<>(2);
    // each candidate position's scrape reader and in-flight tally, kept from request to request: pools pass the same
    // endpoints in the same order, so the two found once save two map lookups per candidate until the list changes
    private MetricsView.Reader[] readers = new MetricsView.Reader[0];
    private InFlightRequests.EndpointTally[] tallies = new InFlightRequests.EndpointTally[0];
    private Phase phase = Phase.IDLE;
    private int candidates;
    private int fresh;
    private int saturated; // -1 unknown, 0 no, 1 yes
    private AdmissionDecision admission;
    private EndpointState chosen;
    private PickDecision decision;

    private RequestCycle(PluginPolicy policy, IdleCycles home) {
        this.policy = policy;
        this.home = home;
    }

    /** Builds the snapshot: every candidate's state, then what the producers attach. */
    void begin(InferenceRequest request, List<Endpoint> endpoints, long waitedNanos) {
        long now = policy.clock.nanoTime();
        double factor = policy.estimator.factor(); // once per request: with shared placement it is measured
        cycle.begin(request, now, waitedNanos).pool(policy.pool, policy.homeRegion).facts(policy.plugins.facts());
        phase = Phase.OPEN;
        candidates = endpoints.size();
        saturated = -1;
        admission = null;
        fresh = 0;
        for (int i = 0; i < candidates; i++) {
            Endpoint e = endpoints.get(i);
            refresh(i, e);
            EndpointState s = cycle.addState();
            EndpointMetrics m = readers[i].latest();
            InFlightRequests.EndpointTally t = tallies[i];
            long finished = t.finished(); // first: a request counted as finished is always counted as started too
            policy.estimator.estimate(s, e, m, t.started(), finished, t.startedPromptTokens(), t.prefillingTokens(),
                    now, factor);
            if (s.fresh()) {
                fresh++;
            }
        }
        List<DataProducer> producers = policy.plugins.producers();
        for (int i = 0; i < producers.size(); i++) {
            producers.get(i).produce(cycle);
        }
    }

    /** The plugins' view of this request. */
    SchedulingCycle cycle() {
        return cycle;
    }

    @Override
    public boolean saturated() {
        if (saturated < 0) {
            SaturationDetector detector = policy.plugins.detector();
            boolean all = detector != null && fresh > 0;
            List<EndpointState> states = cycle.states();
            for (int i = 0; all && i < states.size(); i++) {
                EndpointState s = states.get(i);
                all = !s.fresh() || detector.saturated(s);
            }
            saturated = all ? 1 : 0;
        }
        return saturated == 1;
    }

    @Override
    public double saturatedFraction() {
        SaturationDetector detector = policy.plugins.detector();
        if (detector == null || fresh == 0) {
            return Double.NaN;
        }
        int full = 0;
        for (EndpointState s : cycle.states()) {
            if (s.fresh() && detector.saturated(s)) {
                full++;
            }
        }
        return full / (double) fresh;
    }

    @Override
    public AdmissionDecision admission() {
        if (admission == null) {
            admission = AdmissionDecision.PASS;
            List<Admitter> admitters = policy.plugins.admitters();
            for (int i = 0; i < admitters.size() && admission == AdmissionDecision.PASS; i++) {
                admission = admitters.get(i).admit(cycle);
            }
        }
        return admission;
    }

    /**
     * {@link PickReason#FALLBACK} when no candidate of a pool of pods had fresh metrics, otherwise the primary result
     * of the profiles the handler ran (see {@link SchedulerProfile#run}), with the prompt tokens expected cached on the
     * chosen endpoint (0 in the fallback) and the latency predicted there.
     */
    @Override
    public PendingPick pick() {
        if (phase != Phase.OPEN) {
            throw new IllegalStateException("a scheduling cycle picks once");
        }
        try {
            List<EndpointState> states = cycle.states();
            PickReason reason;
            int cachedTokens;
            if (fresh == 0 && !policy.globalTier) {
                policy.fallback(true);
                chosen = states.get(stalePick(states));
                reason = PickReason.FALLBACK;
                cachedTokens = 0;
            } else {
                policy.fallback(false);
                ProfileResult primary = runProfiles();
                chosen = primary.chosen();
                reason = primary.reason();
                cachedTokens = primary.cachedTokens();
                List<DataProducer> producers = policy.plugins.producers();
                for (int i = 0; i < producers.size(); i++) {
                    producers.get(i).produceChosen(cycle, chosen);
                }
            }
            decision = new PickDecision(chosen.endpoint(), reason, cachedTokens, candidates, chosen.prediction());
            phase = Phase.PICKED;
            return this;
        } catch (RuntimeException e) { // a strict filter's refusal: nothing to commit
            release();
            throw e;
        }
    }

    /** Runs the profiles the handler names, round after round, on this snapshot; returns the primary result. */
    private ProfileResult runProfiles() {
        results.clear();
        List<SchedulerProfile> next;
        while (!(next = policy.handler.next(cycle, policy.profiles, results)).isEmpty()) {
            for (int i = 0; i < next.size(); i++) {
                SchedulerProfile profile = next.get(i);
                results.add(profile.result(cycle, profile.run(cycle, cycle.states())));
                policy.reportFilters(cycle);
            }
        }
        return policy.handler.primary(cycle, results);
    }

    /** Without fresh metrics: the first stale fallback's answer, else the fewest in flight. */
    private int stalePick(List<EndpointState> states) {
        List<StaleFallback> fallbacks = policy.plugins.fallbacks();
        for (int i = 0; i < fallbacks.size(); i++) {
            int at = fallbacks.get(i).choose(cycle, states);
            if (at >= 0) {
                return at;
            }
        }
        return policy.leastInFlight(states);
    }

    /** The results of the profiles that ran for this request, in order; valid until the pick is committed. */
    List<ProfileResult> results() {
        return results;
    }

    @Override
    public PickDecision decision() {
        return decision;
    }

    /** Tells the lifecycle plugins that the request is on its way, then frees the cycle for the next request. */
    @Override
    public void commit() {
        if (phase != Phase.PICKED) {
            throw new IllegalStateException("a pick is committed once");
        }
        try {
            List<LifecyclePlugin> lifecycle = policy.plugins.lifecycle();
            for (int i = 0; i < lifecycle.size(); i++) {
                lifecycle.get(i).committed(cycle, chosen);
            }
        } finally {
            release();
        }
    }

    @Override
    public void close() {
        if (phase == Phase.OPEN) {
            release();
        }
    }

    private void release() {
        phase = Phase.IDLE;
        cycle.end();
        results.clear();
        chosen = null;
        home.give(this);
    }

    /** Makes {@code readers[i]} and {@code tallies[i]} those of {@code e}. */
    private void refresh(int i, Endpoint e) {
        if (i >= tallies.length) {
            int n = Math.max(i + 1, tallies.length * 2);
            tallies = Arrays.copyOf(tallies, n);
            readers = Arrays.copyOf(readers, n);
        }
        InFlightRequests.EndpointTally t = tallies[i];
        if (t == null || !t.live() || !same(t.endpoint(), e)) {
            tallies[i] = policy.inFlight.tallyOf(e);
        }
        MetricsView.Reader r = readers[i];
        if (r == null || !r.live() || !same(r.endpoint(), e)) {
            readers[i] = policy.metrics.reader(e);
        }
    }

    private static boolean same(Endpoint held, Endpoint e) {
        return held == e || held.equals(e);
    }

    /**
     * One thread's idle cycles: a cycle ended on its own thread is reused by that thread's next request; one ended
     * elsewhere is left to the garbage collector. A few are kept, for requests admitted before the last ones were
     * committed. Not thread-safe: made by, and used on, one thread.
     */
    static final class IdleCycles {
        /** The most idle cycles kept. */
        static final int KEPT = 8;

        private final PluginPolicy policy;
        private final Thread thread = Thread.currentThread();
        private final RequestCycle[] idle = new RequestCycle[KEPT];
        private int count;

        IdleCycles(PluginPolicy policy) {
            this.policy = policy;
        }

        RequestCycle take() {
            if (count == 0) {
                return new RequestCycle(policy, this);
            }
            RequestCycle c = idle[--count];
            idle[count] = null;
            return c;
        }

        void give(RequestCycle c) {
            if (Thread.currentThread() == thread && count < KEPT) {
                idle[count++] = c;
            }
        }
    }
}
