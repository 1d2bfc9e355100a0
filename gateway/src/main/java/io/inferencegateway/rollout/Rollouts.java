package io.inferencegateway.rollout;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import io.inferencegateway.config.RolloutConfig;
import io.inferencegateway.domain.RequestListener;
import io.inferencegateway.domain.RequestRecord;
import io.lettuce.core.resource.ClientResources;

/**
 * The gateway's automatic canaries (docs/rollouts.md, "Automatic canary"): the candidates' shares the rewrites ask
 * for, the counts of their versions' requests, and the analysis that moves each rollout on once per interval.
 *
 * <p>A rollout joins when its rewrite first asks for its share, and a hot reload that keeps it keeps it: the config
 * object may change (a pause, a resume, other margins), its run goes on; a rollout with other versions or steps is a
 * new run and begins at its first step. Nothing runs until a rollout joins: no thread, no Redis connection, and a
 * request of no rewrite costs one field read.
 */
public final class Rollouts implements RolloutWeights, RequestListener, AutoCloseable {

    /** The most rollouts kept at once: far more than a config has; past it the one asked for least recently goes. */
    static final int MAX_ROLLOUTS = 1024;

    private final Map<String, LiveRollout> live = new ConcurrentHashMap<>();
    private final Map<String, Long> joined = new ConcurrentHashMap<>();
    private final Map<URI, ProgressStore> stores = new ConcurrentHashMap<>();
    private final ProgressStore local = new LocalProgressStore();
    private final Function<URI, ProgressStore> redisStore;
    private final LongSupplier millis;
    private final boolean scheduled;
    private final RolloutMeters meters;
    private ScheduledExecutorService executor; // made when the first rollout joins
    private volatile boolean closed;

    /**
     * The gateway's: analyses on a timer of their own, progress on Redis through the gateway's Redis threads.
     *
     * @param redisTimeout how long a Redis call may take before the store counts as unreachable
     */
    public Rollouts(RolloutMeters meters, Duration redisTimeout, Supplier<ClientResources> redisThreads) {
        this(meters, url -> new RedisProgressStore(url, redisTimeout, redisThreads.get()), System::currentTimeMillis,
                true);
    }

    /** @param scheduled false: nothing runs by itself, the caller runs the analyses with {@link #analyse()} */
    Rollouts(RolloutMeters meters, Function<URI, ProgressStore> redisStore, LongSupplier millis, boolean scheduled) {
        this.meters = meters;
        this.redisStore = redisStore;
        this.millis = millis;
        this.scheduled = scheduled;
    }

    @Override
    public int candidatePercent(RolloutConfig rollout) {
        LiveRollout l = live.get(rollout.name());
        if (l == null || l.config() != rollout) {
            l = join(rollout);
        }
        return l == null ? 0 : l.percent();
    }

    @Override
    public void ended(RequestRecord record) {
        String rewrite = record.rewrite();
        if (rewrite == null) {
            return;
        }
        LiveRollout l = live.get(rewrite);
        if (l != null) {
            l.record(record);
        }
    }

    /**
     * A rollout asked for in a config object not seen before: the same run reconfigured, or a new run; null once the
     * gateway is closing (its last requests go to the baseline).
     */
    private synchronized LiveRollout join(RolloutConfig rollout) {
        String name = rollout.name();
        joined.put(name, millis.getAsLong());
        LiveRollout l = live.get(name);
        if (l != null && l.config() == rollout) {
            return l;
        }
        if (l != null && LiveRollout.fingerprint(l.config()).equals(LiveRollout.fingerprint(rollout))
                && l.shared == (rollout.redisUrl() != null)) {
            l.reconfigure(rollout);
            return l;
        }
        if (closed) {
            return null;
        }
        if (l == null && live.size() >= MAX_ROLLOUTS) {
            joined.entrySet().stream().filter(e -> live.containsKey(e.getKey()))
                    .min(Comparator.comparingLong(Map.Entry::getValue))
                    .map(Map.Entry::getKey).ifPresent(gone -> {
                        live.remove(gone);
                        joined.remove(gone);
                    });
        }
        ProgressStore store = rollout.redisUrl() == null ? local
                : stores.computeIfAbsent(rollout.redisUrl(), redisStore);
        LiveRollout next = new LiveRollout(rollout, store, rollout.redisUrl() != null, this);
        live.put(name, next);
        meters.joined(name, this);
        CompletableFuture<Void> first = next.tick(millis.getAsLong()); // loads its progress at once
        if (scheduled) {
            if (executor == null) {
                executor = Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "rollout-analysis");
                    t.setDaemon(true);
                    return t;
                });
            }
            first.whenComplete((v, e) -> again(next));
        }
        return next;
    }

    /** Analyses {@code l} one interval from now, and so on, while it is the run of its name. */
    private void again(LiveRollout l) {
        if (closed || live.get(l.name) != l) {
            return;
        }
        try {
            executor.schedule(() -> l.tick(millis.getAsLong()).whenComplete((v, e) -> again(l)),
                    l.config().analysis().interval().toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            // the gateway is closing
        }
    }

    /** Runs every rollout's analysis now (tests, with a clock of their own); completes when all are done. */
    CompletableFuture<Void> analyse() {
        long now = millis.getAsLong();
        return CompletableFuture.allOf(live.values().stream().map(l -> l.tick(now))
                .toArray(CompletableFuture[]::new));
    }

    void transitioned(String name, String to) {
        meters.transitioned(name, to);
    }

    /** {@code f} of the live run named {@code name}, NaN when there is none (the rollout meters' gauges read it). */
    double read(String name, java.util.function.ToDoubleFunction<LiveRollout> f) {
        LiveRollout l = live.get(name);
        return l == null ? Double.NaN : f.applyAsDouble(l);
    }

    /** Every rollout this gateway runs, by name. */
    public List<RolloutView> views() {
        List<RolloutView> views = new ArrayList<>();
        for (LiveRollout l : live.values()) {
            RolloutConfig c = l.config();
            Progress p = l.progress();
            ProgressStore.StepCounts counts = l.lastCounts();
            views.add(new RolloutView(l.name, c.baseline(), c.candidate(), l.stateLabel(),
                    p == null ? 0 : p.step() + 1, c.steps().size(), l.percent(),
                    counts == null ? Tally.EMPTY : counts.baseline(), counts == null ? Tally.EMPTY : counts.candidate(),
                    l.lastFinding(), p == null ? "" : p.reason(), l.shared, l.storeDown()));
        }
        views.sort(Comparator.comparing(RolloutView::name));
        return views;
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (executor != null) {
            executor.shutdownNow();
        }
        stores.values().forEach(ProgressStore::close);
        local.close();
    }
}
