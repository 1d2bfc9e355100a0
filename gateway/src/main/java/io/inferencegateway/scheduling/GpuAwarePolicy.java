package io.inferencegateway.scheduling;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.DoubleSupplier;
import java.util.random.RandomGenerator;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.config.TargetConfig;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.LatencyPrediction;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.domain.PendingPick;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.PickReason;
import io.inferencegateway.domain.RecentFailures;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.metrics.MetricsView;
import io.inferencegateway.scheduling.framework.DeferredPicks;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.LatencyTargeted;
import io.inferencegateway.scheduling.framework.LoadEstimator;
import io.inferencegateway.scheduling.framework.MembershipListener;
import io.inferencegateway.scheduling.framework.PickObserver;
import io.inferencegateway.scheduling.framework.PlacementAware;
import io.inferencegateway.scheduling.framework.PrefixIndexed;
import io.inferencegateway.scheduling.framework.PromptReader;
import io.inferencegateway.scheduling.framework.SchedulerProfile;
import io.inferencegateway.scheduling.framework.SaturationDetector;
import io.inferencegateway.scheduling.framework.SchedulingCycle;
import io.inferencegateway.scheduling.framework.SessionKeeping;
import io.inferencegateway.scheduling.latency.LatencyPredictor;
import io.inferencegateway.scheduling.prefix.PrefixSharing;
import io.inferencegateway.domain.SchedulingPolicy;

/**
 * {@code policy: gpu-aware}: per request, builds every candidate's state from its last scrape plus the
 * gateway's own dispatches since (see {@link LoadEstimator}), then runs a {@link SchedulerProfile}.
 * When no candidate has fresh metrics it routes by the gateway's in-flight counts instead (least
 * request) and reports the switch, once per transition, through {@link SchedulerEvents} and the log.
 *
 * <p>At a global tier (a pool of clusters and providers) each state also carries its target, for the plugins that
 * weigh region, kind and price, and what this gateway saw fail there lately; the profile always runs, since providers
 * publish no metrics and its filters judge stale clusters themselves (docs/global.md).
 */
public final class GpuAwarePolicy implements SchedulingPolicy {

    private static final Logger LOG = LoggerFactory.getLogger(GpuAwarePolicy.class);

    private final String pool;
    private final SchedulerProfile profile;
    private final int promptChars;
    private final MetricsView metrics;
    private final InFlightRequests inFlight;
    private final NanoClock clock;
    private final SchedulerEvents events;
    private final LoadEstimator estimator;
    private final LatencyPredictor predictor;
    private final List<PrefixIndexed> prefixIndexes = new ArrayList<>();
    private final boolean targeted; // the profile has a LatencyTargeted plugin: targets count
    private final ThreadLocal<PerThread> threads = ThreadLocal.withInitial(PerThread::new);
    private final SaturationDetector saturation; // the profile's first, or null
    private final List<MembershipListener> membershipListeners = new ArrayList<>();
    private final AtomicBoolean fallback = new AtomicBoolean();
    private final AtomicInteger fallbackOffset = new AtomicInteger();
    private final Map<Endpoint, TargetConfig> targets; // empty for a pool of pods
    private final String homeRegion;
    private volatile RecentFailures failures = RecentFailures.NONE;

    /**
     * @param staleAfter metrics older than this count as stale (see {@link LoadEstimator}); when every
     *                   candidate's are, the policy routes by in-flight counts
     */
    public GpuAwarePolicy(String pool, SchedulerProfile profile, Duration staleAfter, MetricsView metrics,
            InFlightRequests inFlight, NanoClock clock, SchedulerEvents events) {
        this(pool, profile, staleAfter, () -> 1, metrics, inFlight, clock, events, new LatencyPredictor(pool), List.of(),
                null);
    }

    /**
     * @param replicas active gateway replicas sending to these pods; this gateway's dispatches since a scrape
     *                 are counted that many times (see {@link LoadEstimator})
     */
    public GpuAwarePolicy(String pool, SchedulerProfile profile, Duration staleAfter, int replicas,
            MetricsView metrics, InFlightRequests inFlight, NanoClock clock, SchedulerEvents events) {
        this(pool, profile, staleAfter, () -> replicas, metrics, inFlight, clock, events, new LatencyPredictor(pool),
                List.of(), null);
    }

    /**
     * @param replicas  how many times this gateway's traffic the pods receive, asked once per pick
     * @param predictor the pool's latency predictor, which outlives the policy across reloads
     * @param targets   at a global tier, the clusters and providers whose addresses are the candidates; else empty
     * @param home      at a global tier, the home region; else null
     */
    GpuAwarePolicy(String pool, SchedulerProfile profile, Duration staleAfter, DoubleSupplier replicas,
            MetricsView metrics, InFlightRequests inFlight, NanoClock clock, SchedulerEvents events,
            LatencyPredictor predictor, List<TargetConfig> targets, String home) {
        this.pool = Objects.requireNonNull(pool);
        this.profile = Objects.requireNonNull(profile);
        this.metrics = Objects.requireNonNull(metrics);
        this.inFlight = Objects.requireNonNull(inFlight);
        this.clock = Objects.requireNonNull(clock);
        this.events = Objects.requireNonNull(events);
        this.estimator = new LoadEstimator(staleAfter.toNanos(), replicas);
        this.predictor = Objects.requireNonNull(predictor);
        Map<Endpoint, TargetConfig> byAddress = new HashMap<>();
        targets.forEach(t -> byAddress.put(t.address(), t));
        this.targets = Map.copyOf(byAddress);
        this.homeRegion = home;
        this.saturation = profile.filters().stream().filter(SaturationDetector.class::isInstance)
                .map(SaturationDetector.class::cast).findFirst().orElse(null);
        for (SchedulerProfile.WeightedScorer ws : profile.scorers()) {
            addListener(ws.scorer());
            if (ws.scorer() instanceof PrefixIndexed indexed) {
                prefixIndexes.add(indexed);
            }
        }
        for (PickObserver o : profile.observers()) {
            addListener(o);
        }
        this.promptChars = promptChars(profile);
        this.targeted = profile.filters().stream().anyMatch(LatencyTargeted.class::isInstance)
                || profile.scorers().stream().anyMatch(ws -> ws.scorer() instanceof LatencyTargeted);
    }

    /** The most of a prompt any of the profile's plugins reads ({@link PromptReader}). */
    private static int promptChars(SchedulerProfile profile) {
        List<Object> plugins = new ArrayList<>(profile.filters());
        profile.scorers().forEach(ws -> plugins.add(ws.scorer()));
        plugins.add(profile.picker());
        plugins.addAll(profile.observers());
        int chars = 0;
        for (Object plugin : plugins) {
            if (plugin instanceof PromptReader reader) {
                chars = Math.max(chars, reader.promptChars());
            }
        }
        return chars;
    }

    @Override
    public int promptChars() {
        return promptChars;
    }

    /** The policy for a pool: its profile as the config describes it, its staleness threshold. */
    public static GpuAwarePolicy forPool(PoolConfig pool, MetricsView metrics, InFlightRequests inFlight,
            NanoClock clock, SchedulerEvents events, RandomGenerator random) {
        return forPool(pool, metrics, inFlight, clock, events, random, PrefixSharing.NONE);
    }

    /** Like the one above; with {@code replicas.placement: shared} the prefix index joins {@code sharing}. */
    public static GpuAwarePolicy forPool(PoolConfig pool, MetricsView metrics, InFlightRequests inFlight,
            NanoClock clock, SchedulerEvents events, RandomGenerator random, PrefixSharing sharing) {
        return forPool(pool, metrics, inFlight, clock, events, random, sharing, new LatencyPredictor(pool.name()));
    }

    /** Like the one above, predicting latency with {@code predictor} (which a reload hands from policy to policy). */
    public static GpuAwarePolicy forPool(PoolConfig pool, MetricsView metrics, InFlightRequests inFlight,
            NanoClock clock, SchedulerEvents events, RandomGenerator random, PrefixSharing sharing,
            LatencyPredictor predictor) {
        // the herding correction's factor: measured through the sharing while it is live, else replicas.count
        AtomicReference<PrefixSharing.Feed> feed = new AtomicReference<>();
        PrefixSharing joined = receiver -> {
            PrefixSharing.Feed f = sharing.join(receiver);
            feed.set(f);
            return f;
        };
        int count = pool.replicas().count();
        DoubleSupplier replicas = () -> {
            PrefixSharing.Feed f = feed.get();
            double measured = f == null ? Double.NaN : f.trafficFactor();
            return Double.isNaN(measured) ? count : measured;
        };
        return new GpuAwarePolicy(pool.name(),
                SchedulerProfiles.build(pool.endpointPicker(), random, pool.replicas(), joined, pool.sessionAffinity()),
                pool.metricsStalenessThreshold(), replicas, metrics, inFlight, clock, events, predictor, pool.targets(),
                pool.homeRegion());
    }

    /**
     * Chooses an endpoint and says why: {@link PickReason#FALLBACK} when no candidate had fresh metrics,
     * otherwise what the profile found decisive (see {@link SchedulerProfile#schedule}), with the prompt tokens
     * the prefix scorer expects the chosen pod to hold (0 in the fallback, which does not consult the index).
     * Reports the filters' removals to the {@link SchedulerEvents}. The prefix index (and with shared placement, the
     * other replicas) learns of the decision when the returned pick is committed.
     */
    @Override
    public PendingPick decide(InferenceRequest request, List<Endpoint> candidates) {
        long now = clock.nanoTime();
        double factor = estimator.factor(); // once per pick: with shared placement it is measured
        PerThread thread = threads.get();
        SchedulingCycle cycle = thread.cycle.begin(request, now).pool(pool, homeRegion);
        try {
            return decide(cycle, thread, request, candidates, now, factor);
        } finally {
            cycle.end();
        }
    }

    private PendingPick decide(SchedulingCycle cycle, PerThread thread, InferenceRequest request,
            List<Endpoint> candidates, long now, double factor) {
        int fresh = addStates(cycle, thread, candidates, now, factor);
        EndpointState chosen;
        PickReason reason;
        int expectedCached;
        LatencyPrediction prediction = null;
        if (fresh == 0 && targets.isEmpty()) {
            setFallback(true);
            chosen = fallbackPick(cycle);
            reason = PickReason.FALLBACK;
            expectedCached = 0;
        } else {
            setFallback(false);
            if (targeted && request.targets().any() && predictor.ready()) {
                predict(cycle, request);
            }
            chosen = profile.decide(cycle, cycle.states());
            reason = cycle.reason();
            expectedCached = Math.max(cycle.expectedCachedTokens(), chosen.cachedTokens());
            prediction = predictor.prediction(chosen, request, expectedCached, now);
            for (int row = 0; row < cycle.filterOutcomes(); row++) {
                events.filtered(pool, cycle.filterOf(row).toString(), cycle.outcomeOf(row), cycle.endpointsOf(row));
            }
        }
        PickDecision decision = new PickDecision(chosen.endpoint(), reason, expectedCached, candidates.size(),
                prediction);
        // the fallback's choice too, so that what the observers learn stays whole
        return thread.deferred.defer(profile.observers(), cycle, chosen, decision);
    }

    /**
     * True when the profile has a {@link SaturationDetector} filter that finds every candidate with fresh metrics full,
     * and at least one candidate has them (with none fresh the policy falls back to in-flight counts and never holds
     * a request back). Stops at the first candidate with room, so a pool with room costs one estimate.
     */
    @Override
    public boolean saturated(List<Endpoint> candidates) {
        if (saturation == null) {
            return false;
        }
        long now = clock.nanoTime();
        double factor = estimator.factor();
        PerThread thread = threads.get();
        EndpointState s = thread.probe;
        boolean anyFresh = false;
        for (int i = 0; i < candidates.size(); i++) {
            Endpoint e = candidates.get(i);
            thread.refresh(i, e, metrics, inFlight);
            estimate(s, e, thread.readers[i], thread.tallies[i], now, factor);
            if (s.fresh()) {
                if (!saturation.saturated(s)) {
                    return false;
                }
                anyFresh = true;
            }
        }
        return anyFresh;
    }

    /** As {@link #saturated}, the share of fresh candidates the profile's saturation detector finds full. */
    @Override
    public double saturatedFraction(List<Endpoint> candidates) {
        if (saturation == null) {
            return Double.NaN;
        }
        long now = clock.nanoTime();
        double factor = estimator.factor();
        PerThread thread = threads.get();
        EndpointState s = thread.probe;
        int fresh = 0;
        int full = 0;
        for (int i = 0; i < candidates.size(); i++) {
            Endpoint e = candidates.get(i);
            thread.refresh(i, e, metrics, inFlight);
            estimate(s, e, thread.readers[i], thread.tallies[i], now, factor);
            if (s.fresh()) {
                fresh++;
                if (saturation.saturated(s)) {
                    full++;
                }
            }
        }
        return fresh == 0 ? Double.NaN : full / (double) fresh;
    }

    /**
     * The latency of a typical request of the pool ({@link LatencyPredictor#typicalRequest}) on the fresh candidate
     * predicted to answer it first; null while the predictor learns or when no candidate's metrics are fresh. Off the
     * request path (the capacity summary): it costs a prediction per candidate.
     */
    public LatencyPrediction typicalPrediction(String model, List<Endpoint> candidates) {
        if (!predictor.ready() || candidates.isEmpty()) {
            return null;
        }
        InferenceRequest typical = predictor.typicalRequest(model);
        long now = clock.nanoTime();
        double factor = estimator.factor();
        PerThread thread = threads.get();
        SchedulingCycle cycle = thread.cycle.begin(typical, now);
        try {
            addStates(cycle, thread, candidates, now, factor);
            double[] scratch = cycle.doubleScratch(LatencyPredictor.FEATURES);
            EndpointState best = null;
            for (EndpointState s : cycle.states()) {
                if (s.fresh()) {
                    predictor.predict(s, typical, 0, scratch);
                    if (best == null || s.predictedTtftMillis() < best.predictedTtftMillis()) {
                        best = s;
                    }
                }
            }
            return best == null ? null : predictor.prediction(best, typical, 0, now);
        } finally {
            cycle.end();
        }
    }

    /** Adds every candidate's state to the cycle; returns how many have fresh metrics. */
    private int addStates(SchedulingCycle cycle, PerThread thread, List<Endpoint> candidates, long now,
            double factor) {
        int fresh = 0;
        for (int i = 0; i < candidates.size(); i++) {
            Endpoint e = candidates.get(i);
            EndpointState s = cycle.addState();
            thread.refresh(i, e, metrics, inFlight);
            estimate(s, e, thread.readers[i], thread.tallies[i], now, factor);
            if (!targets.isEmpty()) {
                s.target(targets.get(e), failures.failureRatio(e));
            }
            if (s.fresh()) {
                fresh++;
            }
        }
        return fresh;
    }

    /** Every fresh candidate's predicted latency, with the prompt tokens the prefix indexes say it holds. */
    private void predict(SchedulingCycle cycle, InferenceRequest request) {
        List<EndpointState> states = cycle.states();
        for (PrefixIndexed indexed : prefixIndexes) {
            indexed.countCachedTokens(cycle, states);
        }
        if (prefixIndexes.size() == 1) {
            cycle.cachedTokensCountedBy(prefixIndexes.get(0));
        }
        double[] scratch = cycle.doubleScratch(LatencyPredictor.FEATURES);
        for (int i = 0; i < states.size(); i++) {
            EndpointState s = states.get(i);
            if (s.fresh()) {
                predictor.predict(s, request, s.cachedTokens(), scratch);
            }
        }
    }

    /**
     * The fresh candidate whose prediction falls shortest of the request's targets; null without targets, while the
     * predictor learns, when no candidate has fresh metrics, or when the profile ignores targets (no
     * {@link LatencyTargeted} plugin: the {@code latency} weight at 0).
     */
    @Override
    public LatencyPrediction bestPrediction(InferenceRequest request, List<Endpoint> candidates) {
        if (!targeted || !request.targets().any() || !predictor.ready()) {
            return null;
        }
        long now = clock.nanoTime();
        double factor = estimator.factor();
        PerThread thread = threads.get();
        SchedulingCycle cycle = thread.cycle.begin(request, now).pool(pool, homeRegion);
        try {
            addStates(cycle, thread, candidates, now, factor);
            predict(cycle, request);
            EndpointState best = null;
            for (EndpointState s : cycle.states()) {
                double ratio = s.latencyRatio(); // NaN for a stale pod: never the best
                if (ratio >= 0 && (best == null || ratio < best.latencyRatio())) {
                    best = s;
                }
            }
            return best == null ? null : predictor.prediction(best, request, best.cachedTokens(), now);
        } finally {
            cycle.end();
        }
    }

    @Override
    public void recentFailures(RecentFailures seen) {
        this.failures = Objects.requireNonNull(seen);
    }

    /** The pool's latency predictor. */
    public LatencyPredictor predictor() {
        return predictor;
    }

    private void estimate(EndpointState into, Endpoint e, MetricsView.Reader reader, InFlightRequests.EndpointTally tally,
            long now, double factor) {
        EndpointMetrics m = reader.latest();
        long finished = tally.finished(); // first: a request counted as finished is always counted as started too
        estimator.estimate(into, e, m, tally.started(), finished, tally.startedPromptTokens(), now, factor);
    }

    @Override
    public void endpointsChanged(List<Endpoint> current) {
        predictor.retain(current);
        for (MembershipListener l : membershipListeners) {
            l.endpointsChanged(current);
        }
    }

    /** True while no candidate had fresh metrics at the last decision. */
    public boolean inFallback() {
        return fallback.get();
    }

    public SchedulerProfile profile() {
        return profile;
    }

    /** Blocks held by the profile's prefix indexes ({@link PrefixIndexed} scorers), -1 when it has none. */
    public long prefixIndexEntries() {
        long entries = -1;
        for (SchedulerProfile.WeightedScorer ws : profile.scorers()) {
            if (ws.scorer() instanceof PrefixIndexed indexed) {
                entries = Math.max(0, entries) + indexed.indexEntries();
            }
        }
        return entries;
    }

    /** The profile's session-keeping scorer (docs/sessions.md), null when it has none. */
    public SessionKeeping sessionKeeping() {
        for (SchedulerProfile.WeightedScorer ws : profile.scorers()) {
            if (ws.scorer() instanceof SessionKeeping keeping) {
                return keeping;
            }
        }
        return null;
    }

    /**
     * Without fresh metrics: the prompt's rendezvous home by in-flight counts when the profile places prefixes across
     * replicas (so they keep agreeing while metrics are stale), else the fewest in flight.
     */
    private EndpointState fallbackPick(SchedulingCycle cycle) {
        SessionKeeping keeping = sessionKeeping();
        if (keeping != null) { // a conversation stays on its pod while metrics are stale too
            int pod = keeping.sessionPod(cycle, cycle.states());
            if (pod >= 0) {
                return cycle.states().get(pod);
            }
        }
        for (SchedulerProfile.WeightedScorer ws : profile.scorers()) {
            if (ws.scorer() instanceof PlacementAware placed) {
                int home = placed.home(cycle, cycle.states());
                if (home >= 0) {
                    return cycle.states().get(home);
                }
            }
        }
        return leastInFlight(cycle.states());
    }

    private EndpointState leastInFlight(List<EndpointState> states) {
        int n = states.size();
        int start = Math.floorMod(fallbackOffset.getAndIncrement(), n); // ties rotate
        EndpointState best = null;
        for (int k = 0; k < n; k++) {
            EndpointState s = states.get((start + k) % n);
            if (best == null || s.inFlight() < best.inFlight()) {
                best = s;
            }
        }
        return best;
    }

    private void setFallback(boolean active) {
        if (fallback.get() == active || !fallback.compareAndSet(!active, active)) {
            return;
        }
        if (active) {
            LOG.warn("pool {}: no endpoint has metrics fresher than the staleness limit; routing by fewest "
                    + "in-flight requests until metrics return", pool);
        } else {
            LOG.info("pool {}: fresh metrics again; GPU-aware scheduling resumed", pool);
        }
        events.fallbackChanged(pool, active);
    }

    private void addListener(Object plugin) {
        if (plugin instanceof MembershipListener l && !membershipListeners.contains(l)) {
            membershipListeners.add(l);
        }
    }

    @Override
    public String toString() {
        return "gpu-aware[" + pool + ": " + profile + "]";
    }

    /**
     * What one request thread reuses from decision to decision: the cycle, its deferred picks, a probe state, and each
     * candidate position's scrape reader and in-flight tally. Pools pass the same endpoints in the same order request
     * after request, so the two found once save two map lookups per candidate until the list or the endpoint changes.
     */
    private static final class PerThread {
        final SchedulingCycle cycle = new SchedulingCycle();
        final DeferredPicks deferred = new DeferredPicks();
        final EndpointState probe = new EndpointState();
        MetricsView.Reader[] readers = new MetricsView.Reader[0];
        InFlightRequests.EndpointTally[] tallies = new InFlightRequests.EndpointTally[0];

        /** Makes {@code readers[i]} and {@code tallies[i]} those of {@code e}. */
        void refresh(int i, Endpoint e, MetricsView metrics, InFlightRequests inFlight) {
            if (i >= tallies.length) {
                int n = Math.max(i + 1, tallies.length * 2);
                tallies = Arrays.copyOf(tallies, n);
                readers = Arrays.copyOf(readers, n);
            }
            InFlightRequests.EndpointTally t = tallies[i];
            if (t == null || !t.live() || !same(t.endpoint(), e)) {
                tallies[i] = inFlight.tallyOf(e);
            }
            MetricsView.Reader r = readers[i];
            if (r == null || !r.live() || !same(r.endpoint(), e)) {
                readers[i] = metrics.reader(e);
            }
        }

        private static boolean same(Endpoint held, Endpoint e) {
            return held == e || held.equals(e);
        }
    }
}
