package io.inferencegateway.scheduling;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.LatencyPrediction;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.domain.RecentFailures;
import io.inferencegateway.domain.RequestListener;
import io.inferencegateway.domain.RequestListeners;
import io.inferencegateway.domain.SchedulingPolicy;
import io.inferencegateway.metrics.MetricsView;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.LifecyclePlugin;
import io.inferencegateway.scheduling.framework.LoadEstimator;
import io.inferencegateway.scheduling.framework.MembershipListener;
import io.inferencegateway.scheduling.framework.PluginContext;
import io.inferencegateway.scheduling.framework.ProfileHandler;
import io.inferencegateway.scheduling.framework.SchedulerProfile;
import io.inferencegateway.scheduling.framework.SchedulingCycle;
import io.inferencegateway.scheduling.latency.LatencyPredictor;
import io.inferencegateway.scheduling.plugins.LatencyLearner;
import io.inferencegateway.scheduling.prefix.PrefixSharing;
import io.inferencegateway.scheduling.session.SessionTable;

/**
 * The policy made of a pool's plugins ({@code policy: gpu-aware}, and every global tier's pool): per request one
 * {@link RequestCycle}, which builds the candidates' snapshot once (each one's last scrape corrected by the gateway's
 * own dispatches since, {@link LoadEstimator}), runs the registered producers on it, answers admission from it (the
 * saturation detector, the admitters) and picks on it with the profiles its profile handler runs. When no candidate of
 * a pool of pods has fresh metrics it routes by the registered stale fallbacks, else by the gateway's in-flight counts
 * (least request), and reports the switch, once per transition, through {@link SchedulerEvents} and the log. A global
 * tier's profile always runs, since providers publish no metrics and its filters judge stale clusters themselves
 * (docs/global.md).
 *
 * <p>What the plugins learn from the requests they placed reaches them as lifecycle hooks: the committed pick
 * ({@link LifecyclePlugin#committed}) through the cycle, the rest of the request's life through {@link #lifecycle()}.
 */
public final class PluginPolicy implements SchedulingPolicy {

    private static final Logger LOG = LoggerFactory.getLogger(PluginPolicy.class);

    final String pool;
    final String homeRegion;
    final List<SchedulerProfile> profiles;
    final ProfileHandler handler;
    final PluginContext.Registered plugins;
    final boolean globalTier;
    final MetricsView metrics;
    final InFlightRequests inFlight;
    final NanoClock clock;
    final SchedulerEvents events;
    final LoadEstimator estimator;
    private final LatencyPredictor predictor;
    private final RequestListener lifecycle;
    private final ThreadLocal<RequestCycle.IdleCycles> cycles = ThreadLocal.withInitial(() -> new RequestCycle.IdleCycles(this));
    private final AtomicBoolean fallback = new AtomicBoolean();
    private final AtomicInteger fallbackOffset = new AtomicInteger();

    /**
     * @param built      the pool's profiles, handler and what its plugins registered
     * @param staleAfter metrics older than this count as stale (see {@link LoadEstimator}); when every candidate's
     *                   are, a pool of pods routes by its stale fallbacks
     * @param replicas   how many times this gateway's traffic the pods receive, asked once per request
     * @param home       at a global tier, the home region; else null
     */
    PluginPolicy(String pool, SchedulerProfiles.Built built, boolean globalTier, String home, Duration staleAfter,
            DoubleSupplier replicas, MetricsView metrics, InFlightRequests inFlight, NanoClock clock,
            SchedulerEvents events, LatencyPredictor predictor) {
        this.pool = Objects.requireNonNull(pool);
        this.profiles = built.profiles();
        this.handler = built.handler();
        this.plugins = built.registered();
        this.globalTier = globalTier;
        this.homeRegion = home;
        this.metrics = Objects.requireNonNull(metrics);
        this.inFlight = Objects.requireNonNull(inFlight);
        this.clock = Objects.requireNonNull(clock);
        this.events = Objects.requireNonNull(events);
        this.estimator = new LoadEstimator(staleAfter.toNanos(), replicas);
        this.predictor = Objects.requireNonNull(predictor);
        this.lifecycle = listenerOf(plugins.lifecycle());
    }

    /**
     * A policy of one profile built by hand (tests, the lab's benchmarks): its plugins register nothing beyond their
     * place in the profile, so it keeps no prefix index of its own decisions, detects no saturation and predicts
     * nothing unless the profile's plugins were built through their factories for another pool.
     */
    public static PluginPolicy of(String pool, SchedulerProfile profile, Duration staleAfter, MetricsView metrics,
            InFlightRequests inFlight, NanoClock clock, SchedulerEvents events) {
        PluginContext none = PluginContext.forChecking(() -> 0L);
        return new PluginPolicy(pool, SchedulerProfiles.handBuilt(profile, none), false, null, staleAfter, () -> 1,
                metrics, inFlight, clock, events, none.predictor());
    }

    /** The policy for a pool: its plugins as its config describes them, what it has seen fail, its predictor. */
    public static PluginPolicy forPool(PoolConfig pool, MetricsView metrics, InFlightRequests inFlight,
            NanoClock clock, SchedulerEvents events, RandomGenerator random) {
        return forPool(pool, metrics, inFlight, clock, events, random, PrefixSharing.NONE,
                new LatencyPredictor(pool.name()), RecentFailures.NONE);
    }

    /**
     * @param sharing   with {@code replicas.placement: shared}, what the prefix index joins
     * @param predictor the pool's latency predictor, which outlives the policy across reloads
     * @param failures  what the pool's outlier detection saw fail lately
     */
    public static PluginPolicy forPool(PoolConfig pool, MetricsView metrics, InFlightRequests inFlight,
            NanoClock clock, SchedulerEvents events, RandomGenerator random, PrefixSharing sharing,
            LatencyPredictor predictor, RecentFailures failures) {
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
        PluginContext context = new PluginContext(pool.name(), pool.replicas(), joined, pool.sessionAffinity(),
                pool.targets(), predictor, failures, random);
        return new PluginPolicy(pool.name(), SchedulerProfiles.build(pool.endpointPicker(), context),
                !pool.targets().isEmpty(), pool.homeRegion(), pool.metricsStalenessThreshold(), replicas, metrics,
                inFlight, clock, events, predictor);
    }

    @Override
    public RequestCycle begin(InferenceRequest request, List<Endpoint> candidates, long waitedNanos) {
        RequestCycle cycle = cycles.get().take();
        cycle.begin(request, candidates, waitedNanos);
        return cycle;
    }

    @Override
    public RequestListener lifecycle() {
        return lifecycle;
    }

    @Override
    public int promptChars() {
        return plugins.promptChars();
    }

    @Override
    public void endpointsChanged(List<Endpoint> current) {
        predictor.retain(current);
        for (MembershipListener l : plugins.membership()) {
            l.endpointsChanged(current);
        }
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
        try (RequestCycle cycle = begin(typical, candidates, 0)) {
            SchedulingCycle c = cycle.cycle();
            double[] x = new double[LatencyPredictor.FEATURES];
            EndpointState best = null;
            double bestTtft = Double.NaN;
            for (EndpointState s : c.states()) {
                if (s.fresh()) {
                    LatencyLearner.features(s, typical, x);
                    double ttft = predictor.ttftMillis(s.endpoint(), x);
                    if (best == null || ttft < bestTtft) {
                        best = s;
                        bestTtft = ttft;
                    }
                }
            }
            if (best == null) {
                return null;
            }
            LatencyLearner.features(best, typical, x);
            return predictor.prediction(best.endpoint(), x, typical, c.nowNanos());
        }
    }

    /** The share of {@code candidates} with fresh metrics that the saturation detector finds full; NaN without. */
    public double saturatedFraction(List<Endpoint> candidates) {
        if (candidates.isEmpty()) {
            return Double.NaN;
        }
        try (RequestCycle cycle = begin(predictor.typicalRequest(pool), candidates, 0)) {
            return cycle.saturatedFraction();
        }
    }

    /** The pool's latency predictor. */
    public LatencyPredictor predictor() {
        return predictor;
    }

    /** True while no candidate had fresh metrics at the last decision. */
    public boolean inFallback() {
        return fallback.get();
    }

    /** The pool's first profile. */
    public SchedulerProfile profile() {
        return profiles.get(0);
    }

    /** Blocks held by the pool's prefix indexes, -1 when it has none. */
    public long prefixIndexEntries() {
        long entries = -1;
        for (LongSupplier index : plugins.prefixIndexes()) {
            entries = Math.max(0, entries) + index.getAsLong();
        }
        return entries;
    }

    /** Where the pool remembers its sessions (docs/sessions.md), null when it keeps none. */
    public SessionTable sessions() {
        return plugins.sessionTable();
    }

    // ---- for the request cycles ---------------------------------------------------------------------------------

    /** The candidate with the fewest requests in flight through this gateway; ties rotate. */
    int leastInFlight(List<EndpointState> states) {
        int n = states.size();
        int start = Math.floorMod(fallbackOffset.getAndIncrement(), n);
        int best = -1;
        for (int k = 0; k < n; k++) {
            int i = (start + k) % n;
            if (best < 0 || states.get(i).inFlight() < states.get(best).inFlight()) {
                best = i;
            }
        }
        return best;
    }

    void fallback(boolean active) {
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

    /** The filters' removals of the profile that just ran, to the events. */
    void reportFilters(SchedulingCycle cycle) {
        for (int row = 0; row < cycle.filterOutcomes(); row++) {
            events.filtered(pool, cycle.filterOf(row).toString(), cycle.outcomeOf(row), cycle.endpointsOf(row));
        }
    }

    /** The lifecycle plugins as one listener; none as {@link RequestListener#NONE}. */
    private static RequestListener listenerOf(List<LifecyclePlugin> plugins) {
        return plugins.isEmpty() ? RequestListener.NONE : new RequestListeners(plugins);
    }

    @Override
    public String toString() {
        return "plugins[" + pool + ": " + (profiles.size() == 1 ? profiles.get(0) : handler + " " + profiles) + "]";
    }
}
