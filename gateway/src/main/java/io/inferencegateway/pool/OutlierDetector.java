package io.inferencegateway.pool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

import io.inferencegateway.config.OutlierConfig;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.domain.RecentFailures;

/**
 * Takes a pool's failing pods out of its candidates for a while, the way Envoy's outlier detection does. Fed with
 * each upstream outcome (a failure: refused connection, reset before the response, 5xx status; a success resets the
 * run of failures). A pod is ejected after {@code consecutiveFailures} in a row, or when more than
 * {@code failurePercent} of at least {@code minimumRequests} requests of one {@code interval} failed; for
 * {@code baseEjectionTime} times the number of times it has been ejected, at most {@code maxEjectionTime}. When that
 * time is up it is a candidate again, on probation: its first outcome decides, and a failure ejects it at once for
 * longer. No more than {@code maxEjectionPercent} of the pool's pods are ejected at once, and {@link #admitted}
 * fails open: when every candidate is ejected, they are all used.
 *
 * <p>Readmission happens lazily, on the next look at the pod (a pick, an outcome or {@link #ejectedCount()}), so there
 * is no timer. Each pod's state is guarded by its own monitor, held for a few field updates.
 */
public final class OutlierDetector implements RecentFailures {

    private final String pool;
    private final OutlierConfig config;
    private final IntSupplier poolSize;
    private final NanoClock clock;
    private final ConcurrentHashMap<Endpoint, PodHealth> pods = new ConcurrentHashMap<>();
    private final AtomicInteger ejected = new AtomicInteger();
    private volatile PoolHealthListener listener = PoolHealthListener.NONE;

    public OutlierDetector(String pool, OutlierConfig config, IntSupplier poolSize, NanoClock clock) {
        this.pool = pool;
        this.config = config;
        this.poolSize = poolSize;
        this.clock = clock;
    }

    void listener(PoolHealthListener l) {
        this.listener = l;
    }

    /** The pod answered (a status below 500). */
    public void success(Endpoint pod) {
        if (config.enabled()) {
            pod(pod).outcome(false, clock.nanoTime());
        }
    }

    /** The pod failed a request: refused the connection, reset it before answering, or answered 5xx. */
    public void failure(Endpoint pod) {
        if (config.enabled()) {
            pod(pod).outcome(true, clock.nanoTime());
        }
    }

    /** Whether the pod is ejected now. */
    public boolean isEjected(Endpoint pod) {
        PodHealth p = pods.get(pod);
        return p != null && p.ejectedAt(clock.nanoTime());
    }

    /**
     * The share of the pod's requests in the current {@code interval} that failed; NaN when it had none in it (or
     * outlier detection is off). A global tier's error-rate scorer reads it next to a cluster's own summary.
     */
    @Override
    public double failureRatio(Endpoint pod) {
        PodHealth p = pods.get(pod);
        return p == null ? Double.NaN : p.failureRatio(clock.nanoTime());
    }

    /**
     * The candidates that are not ejected; all of them when none is left (fail open). Returns {@code candidates}
     * itself, without allocating, while nothing is ejected.
     */
    public List<Endpoint> admitted(List<Endpoint> candidates) {
        if (ejected.get() == 0) {
            return candidates;
        }
        long now = clock.nanoTime();
        List<Endpoint> in = new ArrayList<>(candidates.size());
        for (Endpoint e : candidates) {
            PodHealth p = pods.get(e);
            if (p == null || !p.ejectedAt(now)) {
                in.add(e);
            }
        }
        return in.isEmpty() || in.size() == candidates.size() ? candidates : in;
    }

    /**
     * The candidates whose last request did not fail (or that had none yet); all of them when each one's did. What a
     * failover picks among: a pod that answers 503 at once looks idle to the scorers, and until it is ejected a retry
     * would go to it before a busy pod that serves (the chaos soak found three attempts spent so,
     * docs/benchmarks/soak.md). Only failovers read it: a first pick still reaches such a pod, so its next success
     * clears it.
     */
    public List<Endpoint> lastRequestServed(List<Endpoint> candidates) {
        List<Endpoint> served = null;
        for (int i = 0; i < candidates.size(); i++) {
            PodHealth p = pods.get(candidates.get(i));
            boolean failed = p != null && p.lastFailed();
            if (failed && served == null) {
                served = new ArrayList<>(candidates.subList(0, i));
            } else if (!failed && served != null) {
                served.add(candidates.get(i));
            }
        }
        return served == null || served.isEmpty() ? candidates : served;
    }

    /**
     * Takes over what {@code previous} (the same pool before a reload rebuilt it) knew of each pod: its recent
     * outcomes and its ejection, so that a reload readmits no failing pod and forgets no 503 a failover should pass
     * over (the chaos soak's reloads every few seconds did both). Call before the pool serves.
     */
    public void adopt(OutlierDetector previous) {
        if (!config.enabled()) {
            return;
        }
        previous.pods.forEach((endpoint, old) -> {
            PodHealth p = new PodHealth(endpoint);
            if (old.copyTo(p)) {
                ejected.incrementAndGet();
            }
            pods.put(endpoint, p);
        });
    }

    /** Pods ejected now (readmitting those whose time is up). */
    public int ejectedCount() {
        long now = clock.nanoTime();
        for (PodHealth p : pods.values()) {
            p.ejectedAt(now);
        }
        return ejected.get();
    }

    /** Forgets pods that left the pool. */
    void retain(List<Endpoint> current) {
        for (Endpoint e : List.copyOf(pods.keySet())) {
            if (!current.contains(e)) {
                PodHealth p = pods.remove(e);
                if (p != null) {
                    p.forget();
                }
            }
        }
    }

    private PodHealth pod(Endpoint e) {
        PodHealth p = pods.get(e);
        return p != null ? p : pods.computeIfAbsent(e, PodHealth::new);
    }

    /** Takes one ejection slot, unless the pool's share of ejected pods is reached. */
    private boolean takeSlot() {
        int cap = poolSize.getAsInt() * config.maxEjectionPercent() / 100;
        while (true) {
            int n = ejected.get();
            if (n >= cap) {
                return false;
            }
            if (ejected.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    private final class PodHealth {
        private final Endpoint endpoint;
        private int consecutive;
        private long windowStart;
        private int windowRequests;
        private int windowFailures;
        private int timesEjected;
        private long ejectedUntil; // 0 while admitted
        private boolean probing;
        private boolean gone;

        PodHealth(Endpoint endpoint) {
            this.endpoint = endpoint;
            this.windowStart = clock.nanoTime();
        }

        synchronized boolean ejectedAt(long now) {
            if (ejectedUntil == 0) {
                return false;
            }
            if (now - ejectedUntil < 0) {
                return true;
            }
            ejectedUntil = 0;
            probing = true;
            consecutive = 0;
            windowStart = now;
            windowRequests = 0;
            windowFailures = 0;
            ejected.decrementAndGet();
            listener.readmitted(pool, endpoint);
            return false;
        }

        /** Copies this pod's state into {@code next}, a fresh detector's; true when it is ejected. */
        synchronized boolean copyTo(PodHealth next) {
            next.consecutive = consecutive;
            next.windowStart = windowStart;
            next.windowRequests = windowRequests;
            next.windowFailures = windowFailures;
            next.timesEjected = timesEjected;
            next.ejectedUntil = ejectedUntil;
            next.probing = probing;
            return ejectedUntil != 0;
        }

        synchronized boolean lastFailed() {
            return consecutive > 0;
        }

        synchronized double failureRatio(long now) {
            if (windowRequests == 0 || now - windowStart >= config.interval().toNanos()) {
                return Double.NaN; // nothing lately: the window would restart with the next outcome
            }
            return (double) windowFailures / windowRequests;
        }

        synchronized void outcome(boolean failed, long now) {
            if (gone || ejectedAt(now)) {
                return; // the pod left, or a request sent before its ejection: already judged
            }
            if (now - windowStart >= config.interval().toNanos()) {
                windowStart = now;
                windowRequests = 0;
                windowFailures = 0;
            }
            windowRequests++;
            if (!failed) {
                consecutive = 0;
                probing = false;
                return;
            }
            windowFailures++;
            consecutive++;
            String reason = probing ? "probe failed"
                    : config.consecutiveFailures() > 0 && consecutive >= config.consecutiveFailures()
                            ? consecutive + " consecutive failures"
                    : config.failurePercent() > 0 && windowRequests >= config.minimumRequests()
                            && windowFailures * 100.0 / windowRequests > config.failurePercent()
                            ? windowFailures + " of " + windowRequests + " requests failed"
                    : null;
            if (reason != null && takeSlot()) {
                timesEjected++;
                Duration time = config.baseEjectionTime().multipliedBy(timesEjected);
                if (time.compareTo(config.maxEjectionTime()) > 0) {
                    time = config.maxEjectionTime();
                }
                long until = now + time.toNanos();
                ejectedUntil = until == 0 ? 1 : until;
                probing = false;
                consecutive = 0;
                listener.ejected(pool, endpoint, time, reason);
            }
        }

        synchronized void forget() {
            gone = true;
            if (ejectedUntil != 0) {
                ejectedUntil = 0;
                ejected.decrementAndGet();
            }
        }
    }
}
