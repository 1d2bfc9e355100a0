package io.inferencegateway.observability;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.inferencegateway.config.TargetConfig;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.Price;
import io.inferencegateway.domain.RequestListener;
import io.inferencegateway.domain.RequestRecord;
import io.inferencegateway.domain.SloOutcome;
import io.inferencegateway.metrics.ClusterCapacity;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.metrics.MetricsCache;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.pool.ModelPools;
import io.inferencegateway.rollout.RolloutView;
import io.inferencegateway.scheduling.PluginPolicy;
import io.inferencegateway.scheduling.latency.LatencyPredictor;

/**
 * The live fleet page's memory (GET /ui, GET /ui/fleet; docs/observability.md): per pool, the last
 * {@link #DECISIONS_KEPT} requests, a minute of latency-target attainment per priority band ({@link TargetAttainment})
 * and, per pod, a minute of picks and TTFT samples ({@link PodActivity}). Everything else it shows — queue, running
 * batch, KV use, adapters, metrics age, in-flight counts, fallback, the latency predictor's accuracy — is read from
 * the gateway's live state when a snapshot is taken.
 *
 * <p>As a {@link RequestListener} it runs on the event loops: each call is O(1) under a per-pool or per-pod lock held
 * for a few array writes, and memory is bounded by the pools and the pods active in the last minute.
 */
public final class FleetView implements RequestListener {

    /** Requests each pool remembers for the page's decisions table. */
    static final int DECISIONS_KEPT = 50;
    /**
     * Seconds the capacity summary's recent latency and error ratio reach back: short enough that a global tier
     * polling every second or few sees a cluster's change within a few polls, long enough to hold tens of answers at a
     * few requests a second (the page's picks/s rate uses the same).
     */
    public static final int RECENT_SECONDS = PodActivity.RATE_SECONDS;

    /**
     * A pool's answers of the last {@link #RECENT_SECONDS}.
     *
     * @param ttftMillis median time to first token, NaN without answers
     * @param tpotMillis median time per output token of the streams, NaN without any
     * @param ended      requests of the pool that ended
     * @param failed     of those, the ones that failed: a 5xx (the gateway's or a pod's) or an upstream that broke off
     */
    public record RecentRequests(double ttftMillis, double tpotMillis, long ended, long failed) {

        /** failed / ended, NaN when none ended. */
        public double errorRatio() {
            return ended == 0 ? Double.NaN : failed / (double) ended;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Supplier<ModelPools> pools;
    private final MetricsCache metrics;
    private final InFlightRequests inFlight;
    private final NanoClock clock;
    private final LongSupplier wallClock;
    private final Map<String, PoolActivity> activity = new ConcurrentHashMap<>();
    private volatile Supplier<List<RolloutView>> rollouts = List::of;

    /** @param state the gateway's live state, read when the page asks */
    public FleetView(LiveState state, LongSupplier wallClockMillis) {
        this.pools = state.pools();
        this.metrics = state.metrics();
        this.inFlight = state.inFlight();
        this.clock = state.clock();
        this.wallClock = wallClockMillis;
    }

    // ---- the listener: O(1) per request ---------------------------------------------------------

    @Override
    public void picked(RequestRecord record) {
        PickDecision d = record.decision();
        if (record.pool() != null && d != null) {
            long now = second(clock.nanoTime());
            activity(record.pool()).pod(d.endpoint(), now).picked(now);
        }
    }

    @Override
    public void ended(RequestRecord record) {
        if (record.pool() == null) {
            return; // no pool: the model is not served here, nothing of the fleet's
        }
        PoolActivity pool = activity(record.pool());
        PickDecision d = record.decision();
        long ttft = ttftNanos(record);
        long now = second(clock.nanoTime());
        if (d != null && ttft >= 0) {
            pool.pod(d.endpoint(), now).firstToken(now, ttft, tpotNanos(record));
        }
        pool.outcomes.ended(now, record.status() >= 500 || record.ending() == RequestRecord.Ending.UPSTREAM_FAILED);
        SloOutcome slo = record.slo();
        if (slo != null) {
            pool.slo.judged(second(clock.nanoTime()), record.priority(), slo.met());
        }
        pool.remember(decision(record, ttft, slo));
    }

    /**
     * Arrival to first token of a request served, as the TTFT histogram counts it (observability/RequestMeters): a stream's
     * first content event, a plain response's end; -1 for a request that was not served.
     */
    private static long ttftNanos(RequestRecord r) {
        boolean served = r.ending() == RequestRecord.Ending.COMPLETED && r.status() >= 200 && r.status() < 300;
        long first = r.stream() ? r.firstTokenNanos() : r.endNanos();
        return served && first != 0 ? first - r.startNanos() : -1;
    }

    /** Mean time per output token of a stream served whole, as the TPOT histogram counts it; -1 otherwise. */
    private static long tpotNanos(RequestRecord r) {
        if (!r.stream() || r.outputTokens() <= 1 || r.firstTokenNanos() == 0) {
            return -1;
        }
        return (r.endNanos() - r.firstTokenNanos()) / (r.outputTokens() - 1);
    }

    /**
     * The pool's answers of the last {@link #RECENT_SECONDS}, from the samples the page keeps anyway; off the request
     * path (locks each of its pods briefly, one at a time).
     */
    public RecentRequests recent(ModelPool pool) {
        long now = second(clock.nanoTime());
        PoolActivity act = activity.get(pool.name());
        if (act == null) {
            return new RecentRequests(Double.NaN, Double.NaN, 0, 0);
        }
        List<long[]> ttfts = new ArrayList<>();
        List<long[]> tpots = new ArrayList<>();
        for (Endpoint e : pool.endpoints()) {
            PodActivity pod = act.pods.get(e);
            if (pod != null) {
                ttfts.add(pod.ttftSamples(now, RECENT_SECONDS));
                tpots.add(pod.tpotSamples(now, RECENT_SECONDS));
            }
        }
        long[] outcomes = act.outcomes.window(now, RECENT_SECONDS);
        return new RecentRequests(median(ttfts), median(tpots), outcomes[0], outcomes[1]);
    }

    /** The median of every pod's samples together, in milliseconds; NaN without samples. */
    private static double median(List<long[]> perPod) {
        long[] all = perPod.stream().flatMapToLong(Arrays::stream).sorted().toArray();
        Double p50 = percentile(all, 0.50);
        return p50 == null ? Double.NaN : p50;
    }

    private PoolActivity activity(String pool) {
        PoolActivity a = activity.get(pool);
        return a != null ? a : activity.computeIfAbsent(pool, p -> new PoolActivity());
    }

    /**
     * What the decisions table shows of one ended request, as it was recorded: the labels and boxed numbers the page
     * wants are made when it reads the table (toDecision), not per request.
     */
    private record Recent(long timeMillis, String model, PickDecision pick, String target, int attempts, int status,
            boolean stream, long ttftNanos, long durationNanos, RequestRecord.Ending ending, String error,
            int inputTokens, int outputTokens, int cachedTokens, SloOutcome slo, double cost) {

        FleetSnapshot.Decision toDecision() {
            return new FleetSnapshot.Decision(timeMillis, model, pick == null ? null : pick.endpoint().toString(),
                    target, pick == null ? null : pick.reason().label(), attempts, status, stream,
                    ttftNanos < 0 ? null : millis(ttftNanos), millis(durationNanos),
                    ending == null ? null : ending.name().toLowerCase(Locale.ROOT), error,
                    pick == null ? 0 : pick.expectedCachedTokens(), count(inputTokens), count(outputTokens),
                    count(cachedTokens), slo == null ? null : slo.label(), known(cost));
        }
    }

    private static Recent decision(RequestRecord r, long ttftNanos, SloOutcome slo) {
        return new Recent(r.startEpochMillis(), r.request() == null ? null : r.request().model(), r.decision(),
                r.target(), r.attempts(), r.status(), r.stream(), ttftNanos, r.endNanos() - r.startNanos(), r.ending(),
                RequestMeters.errorCode(r), r.inputTokens(), r.outputTokens(), r.cachedTokens(), slo, r.cost());
    }

    // ---- the page's read: a snapshot of everything ----------------------------------------------

    /** The page's data now. Reads lock each pod briefly, one at a time; safe on an event loop. */
    public FleetSnapshot snapshot() {
        long nowNanos = clock.nanoTime();
        long now = second(nowNanos);
        List<FleetSnapshot.PoolView> out = new ArrayList<>();
        List<ModelPool> current = pools.get().pools();
        activity.keySet().retainAll(current.stream().map(ModelPool::name).toList()); // pools a reload removed
        for (ModelPool pool : current) {
            out.add(pool(pool, activity(pool.name()), nowNanos, now));
        }
        return new FleetSnapshot(wallClock.getAsLong(), PodActivity.WINDOW_SECONDS, PodActivity.RATE_SECONDS, out);
    }

    /** Where the page reads the automatic canaries from (docs/rollouts.md); none until this is called. */
    public void rollouts(Supplier<List<RolloutView>> views) {
        this.rollouts = views;
    }

    /** {@link #snapshot()} as the JSON of {@code GET /ui/fleet}, with a {@code rollouts} array while there are any. */
    public byte[] json() {
        try {
            List<RolloutView> views = rollouts.get();
            if (!views.isEmpty()) {
                ObjectNode tree = JSON.valueToTree(snapshot());
                tree.set("rollouts", JSON.valueToTree(RolloutRows.of(views)));
                return JSON.writeValueAsBytes(tree);
            }
            return JSON.writeValueAsBytes(snapshot());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("fleet snapshot not serializable", e);
        }
    }

    private FleetSnapshot.PoolView pool(ModelPool pool, PoolActivity act, long nowNanos, long now) {
        long staleAfter = pool.config().metricsStalenessThreshold().toNanos();
        List<FleetSnapshot.PodView> pods = new ArrayList<>();
        List<long[]> podTtft = new ArrayList<>();
        int samples = 0;
        int fresh = 0;
        long flying = 0;
        long picksInRate = 0;
        long picksInWindow = 0;
        for (Endpoint e : pool.endpoints()) {
            PodActivity pod = act.pods.get(e);
            int[] history = pod == null ? new int[PodActivity.WINDOW_SECONDS] : pod.pickHistory(now);
            long[] ttft = pod == null ? new long[0] : pod.ttftSamples(now);
            Arrays.sort(ttft);
            podTtft.add(ttft);
            samples += ttft.length;
            long rate = sum(history, history.length - 1 - PodActivity.RATE_SECONDS, history.length - 1);
            long window = sum(history, 0, history.length);
            picksInRate += rate;
            picksInWindow += window;
            MetricsCache.ScrapeState state = metrics.state(e);
            // a cluster's reading as this pool sees it: its model's part of the summary
            EndpointMetrics m = state == null || state.latest() == null ? null
                    : state.latest().forModel(pool.config().modelName());
            Long age = m == null ? null : Math.max(0, nowNanos - m.scrapeStartedNanos()) / 1_000_000;
            TargetConfig target = pool.config().target(e); // a global tier's cluster or provider, else a pod
            boolean polled = target == null || !target.provider(); // a provider publishes nothing to go stale
            boolean stale = polled && (m == null || nowNanos - m.scrapeStartedNanos() > staleAfter);
            if (polled && !stale) {
                fresh++;
            }
            long pending = inFlight.inFlight(e);
            flying += pending;
            long failures = state == null ? 0 : state.consecutiveFailures();
            pods.add(new FleetSnapshot.PodView(e.toString(), m == null ? null : count(m.waiting()),
                    m == null ? null : count(m.running()), m == null || Double.isNaN(m.kvUsage()) ? null : m.kvUsage(),
                    m == null ? List.of() : m.runningAdapters().stream().sorted().toList(),
                    m == null ? List.of() : m.waitingAdapters().stream().sorted().toList(), age, stale, failures,
                    failures > 0 ? state.lastError() : null, pending, rate / (double) PodActivity.RATE_SECONDS,
                    window, history, percentile(ttft, 0.50), percentile(ttft, 0.99), ttft.length,
                    target == null ? null : target(target, m, pool.config().homeRegion())));
        }
        act.pods.keySet().retainAll(pool.endpoints()); // pods that left the pool
        long[] allTtft = new long[samples];
        int at = 0;
        for (long[] ttft : podTtft) {
            System.arraycopy(ttft, 0, allTtft, at, ttft.length);
            at += ttft.length;
        }
        Arrays.sort(allTtft); // sorted runs, which the sort merges
        Boolean fallback = pool.policy() instanceof PluginPolicy gpuAware ? gpuAware.inFallback() : null;
        FleetSnapshot.Predictor predictor = pool.policy() instanceof PluginPolicy gpuAware
                ? predictor(gpuAware.predictor()) : null;
        return new FleetSnapshot.PoolView(pool.name(), pool.config().modelName(), pool.config().loraAdapters(),
                pool.config().policy().configName(), pool.config().homeRegion(), fallback, staleAfter / 1_000_000, fresh, flying,
                picksInRate / (double) PodActivity.RATE_SECONDS, picksInWindow, percentile(allTtft, 0.50),
                percentile(allTtft, 0.99), pods, act.decisions(), predictor, act.slo.window(now));
    }

    /** A cluster's or provider's row: its config, and for a cluster what its last capacity summary said. */
    private static FleetSnapshot.TargetView target(TargetConfig t, EndpointMetrics m, String homeRegion) {
        ClusterCapacity c = t.provider() || m == null ? null : m.cluster();
        Price price = t.price();
        boolean home = homeRegion != null && homeRegion.equals(t.region());
        return new FleetSnapshot.TargetView(t.name(), t.kind().label(), t.region(), home,
                price.inputPerMillion(), price.outputPerMillion(), c == null ? null : knownMillis(c.roundTripMillis()),
                c == null ? null : count(c.readyPods()), c == null ? null : count(c.pods()),
                c == null ? null : count(c.gatewayQueued()),
                c == null || Double.isNaN(m.kvUsage()) ? null : 1 - m.kvUsage(), c == null ? null : known(c.errorRatio()),
                c == null ? null : known(c.saturation()), c == null ? null : knownMillis(c.ttftMillis()),
                c == null ? null : knownMillis(c.predictedTtftMillis()), c == null ? null : knownMillis(c.tpotMillis()),
                c == null ? null : knownMillis(c.predictedTpotMillis()),
                c == null || c.recentRequests() < 0 ? null : c.recentRequests());
    }

    private static FleetSnapshot.Predictor predictor(LatencyPredictor p) {
        LatencyPredictor.Accuracy ttft = p.ttftAccuracy();
        LatencyPredictor.Accuracy tpot = p.tpotAccuracy();
        return new FleetSnapshot.Predictor(p.samples(), p.ready(), known(ttft.mape()), known(ttft.bias()),
                known(tpot.mape()), known(tpot.bias()), known(p.ranking().share()));
    }

    private static Double known(double value) {
        return Double.isNaN(value) ? null : value;
    }

    /** Milliseconds to two decimals, as {@link #millis} gives them; null when unknown. */
    private static Double knownMillis(double value) {
        return Double.isNaN(value) ? null : Math.round(value * 100) / 100.0;
    }

    /** Nearest-rank percentile of sorted nanos, in milliseconds; null without samples. */
    static Double percentile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return null;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return millis(sorted[Math.max(0, rank - 1)]);
    }

    private static long sum(int[] values, int from, int to) {
        long s = 0;
        for (int i = Math.max(0, from); i < to; i++) {
            s += values[i];
        }
        return s;
    }

    private static long second(long nanos) {
        return Math.floorDiv(nanos, 1_000_000_000L);
    }

    private static double millis(long nanos) {
        return Math.round(nanos / 1e4) / 100.0; // two decimals are plenty for a person
    }

    private static Integer count(int value) {
        return value < 0 ? null : value;
    }

    /** One pool's recent requests, how those with targets fared, and its pods' activity. */
    private static final class PoolActivity {

        final Map<Endpoint, PodActivity> pods = new ConcurrentHashMap<>();
        final TargetAttainment slo = new TargetAttainment();
        final RecentOutcomes outcomes = new RecentOutcomes();
        private final Recent[] ring = new Recent[DECISIONS_KEPT];
        private int next;
        private int size;

        PodActivity pod(Endpoint e, long now) {
            PodActivity p = pods.get(e);
            if (p == null) {
                // a pod seen for the first time: the moment to drop those idle for a whole window, so that pods
                // churning through a Kubernetes pool never pile up even when no one looks at the page (a pick racing
                // with the removal of its idle pod may go uncounted, once)
                pods.values().removeIf(old -> old.idleSince(now));
                p = pods.computeIfAbsent(e, k -> new PodActivity());
            }
            return p;
        }

        synchronized void remember(Recent d) {
            ring[next] = d;
            next = (next + 1) % ring.length;
            size = Math.min(size + 1, ring.length);
        }

        /** Newest first. */
        synchronized List<FleetSnapshot.Decision> decisions() {
            List<FleetSnapshot.Decision> out = new ArrayList<>(size);
            for (int k = 1; k <= size; k++) {
                out.add(ring[Math.floorMod(next - k, ring.length)].toDecision());
            }
            return out;
        }
    }
}
