package io.inferencegateway.pool;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import io.inferencegateway.config.FlowControlConfig;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.LatencyPrediction;
import io.inferencegateway.domain.LatencyTargets;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.domain.Priority;

/**
 * A pool's admission: while every pod of the pool is saturated (its policy says so, {@code SchedulingPolicy.saturated}),
 * a request waits here instead of being pushed into a full pod's queue, and is bound to a pod (its {@link Placement}
 * made) only when one has room again: late binding, so it goes to the pod that is best when it can start, not to the
 * one that looked best when it arrived.
 *
 * <p>The queue is bounded ({@code maxQueued}) and ordered: highest priority first; within one priority, fairness keys
 * take turns (one request each, round robin), and each key's requests keep their order. A waiting request is an entry
 * here, not a thread: it is released by {@link #dispatch()}, which runs when a request of the pool ends and on the
 * pool's tick after each scrape ({@link #tick()}), which also refuses requests that waited past {@code queueTimeout}.
 *
 * <p>Refusals are 429s ({@link GatewayError#overloaded}): a sheddable request (negative priority, never queued) while
 * the pool is saturated or others wait, a newcomer when the queue is full of requests that matter as much or more, a
 * waiting request displaced by one of higher priority, or one that waited too long. A pool without endpoints stays a
 * 503.
 */
public final class FlowControl {

    /**
     * Hears, once, how a queued request's wait ended. Called on the thread that decided it (a request of the pool
     * ending, the scrape tick), never under the queue's lock: hand the work to the request's own thread.
     */
    public interface Waiter {
        /** A pod has room: the request is placed (counted in flight there), chosen in {@code pickNanos}. */
        void bound(Placement placement, long pickNanos);

        /** The request will not be served: a 429 (timeout, displaced) or the pool's 503 when it has no pods. */
        void refused(GatewayError error);
    }

    /** How a wait in the queue ended, for the meters. */
    public enum WaitOutcome {
        DISPATCHED, REFUSED, CANCELLED;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** A waiting request. {@link #cancel()} when its client leaves. */
    public static final class Ticket {
        private final InferenceRequest request;
        private final int priority;
        private final String fairnessKey;
        private final long enqueuedNanos;
        private final long deadlineNanos; // when its TTFT target passes: refused at the tick after
        private final Waiter waiter;
        private volatile FlowControl owner; // the queue it waits in; another after a reload's hand-over
        private boolean done; // guarded by the owner's lock

        private Ticket(InferenceRequest request, String fairnessKey, long enqueuedNanos, long deadlineNanos,
                Waiter waiter) {
            this.request = request;
            this.priority = request.priority();
            this.fairnessKey = fairnessKey;
            this.enqueuedNanos = enqueuedNanos;
            this.deadlineNanos = deadlineNanos;
            this.waiter = waiter;
        }

        /** The request as it leaves the queue: its TTFT target less the time it waited. */
        InferenceRequest released(long nowNanos) {
            LatencyTargets t = request.targets();
            if (t.ttftMillis() == 0) {
                return request;
            }
            long waitedMillis = (nowNanos - enqueuedNanos) / 1_000_000;
            return request.toBuilder().targets(new LatencyTargets(Math.max(1, t.ttftMillis() - waitedMillis),
                    t.tpotMillis())).build();
        }

        /** Takes the request out of the queue; false when it was bound or refused already. */
        public boolean cancel() {
            FlowControl queue = owner;
            synchronized (queue) {
                if (done || queue != owner) {
                    return false;
                }
                queue.remove(this);
            }
            queue.pool.healthListener().waited(queue.pool.name(), priority, WaitOutcome.CANCELLED,
                    queue.clock.nanoTime() - enqueuedNanos);
            return true;
        }

        public int priority() {
            return priority;
        }

        public long enqueuedNanos() {
            return enqueuedNanos;
        }
    }

    /** The requests of one priority: a FIFO per fairness key, and the keys' turn order. */
    private static final class Level {
        final Map<String, ArrayDeque<Ticket>> byKey = new HashMap<>();
        final ArrayDeque<String> turns = new ArrayDeque<>();

        void add(Ticket t) {
            byKey.computeIfAbsent(t.fairnessKey, k -> {
                turns.addLast(k);
                return new ArrayDeque<>();
            }).addLast(t);
        }

        Ticket poll() {
            String key = turns.pollFirst();
            ArrayDeque<Ticket> q = byKey.get(key);
            Ticket t = q.pollFirst();
            if (q.isEmpty()) {
                byKey.remove(key);
            } else {
                turns.addLast(key);
            }
            return t;
        }

        void remove(Ticket t) {
            ArrayDeque<Ticket> q = byKey.get(t.fairnessKey);
            q.remove(t);
            if (q.isEmpty()) {
                byKey.remove(t.fairnessKey);
                turns.remove(t.fairnessKey);
            }
        }

        /** The newest request of the key with the most waiting: who gives way when a higher priority needs room. */
        Ticket newestOfLongest() {
            ArrayDeque<Ticket> longest = null;
            for (ArrayDeque<Ticket> q : byKey.values()) {
                if (longest == null || q.size() > longest.size()) {
                    longest = q;
                }
            }
            return longest.peekLast();
        }

        boolean isEmpty() {
            return byKey.isEmpty();
        }
    }

    private final ModelPool pool;
    private final FlowControlConfig config;
    private final NanoClock clock;
    private final TreeMap<Integer, Level> levels = new TreeMap<>(Comparator.reverseOrder()); // highest first
    private final LinkedHashSet<Ticket> byArrival = new LinkedHashSet<>(); // oldest first: the timeout order
    private final int[] queuedByBand = new int[3]; // critical, standard, sheddable
    private volatile int queued;

    FlowControl(ModelPool pool, FlowControlConfig config, NanoClock clock) {
        this.pool = pool;
        this.config = config;
        this.clock = clock;
    }

    /**
     * Whether a request may go to a pod now; then the caller places it ({@link Placement#choose}). False when it must
     * wait: then {@link #enqueue} it.
     *
     * <p>Without latency targets (or before the pool's policy predicts latency, {@code bestPrediction}): true when the
     * pool has room and nobody waits (the common case: one saturation estimate, no lock); with flow control off, true
     * unless the request is sheddable and every pod is saturated. With targets the best pod's prediction decides what
     * saturation alone cannot (docs/slo.md): a sheddable request that no pod is predicted to serve in time is refused
     * even when the pool has room, and a critical one that a pod is predicted to serve in time goes at once even while
     * the pods look full or others wait, unless requests of higher priority wait. Every other request waits as without
     * targets, a standard one at most until its TTFT target has passed.
     *
     * @throws GatewayError 503 when the pool has no endpoint; 429 for a sheddable request while saturated, while others
     *                      wait, or when no pod is predicted to serve it in time
     */
    public boolean admitNow(InferenceRequest request) {
        List<Endpoint> endpoints = pool.endpoints();
        if (endpoints.isEmpty()) {
            throw GatewayError.noEndpoint(pool.name());
        }
        int priority = request.priority();
        boolean sheddable = Priority.sheddable(priority);
        boolean targeted = request.targets().any();
        if (targeted && sheddable) { // the prediction is asked only where it decides: it costs another pick
            LatencyPrediction best = pool.policy().bestPrediction(request, pool.outliers().admitted(endpoints));
            if (best != null && !best.meets(request.targets())) {
                throw refusal(priority, GatewayError.Dropped.SLO_UNATTAINABLE, explain(best, request.targets()));
            }
        }
        if (!config.enabled()) { // no queue; a sheddable request is still shed while every pod is full
            if (sheddable && pool.policy().saturated(pool.outliers().admitted(endpoints))) {
                throw refusal(priority, GatewayError.Dropped.SHEDDABLE_SATURATED);
            }
            return true;
        }
        if (queued == 0 && !pool.policy().saturated(pool.outliers().admitted(endpoints))) {
            return true;
        }
        if (targeted && priority > Priority.STANDARD && !higherWaits(priority)) {
            LatencyPrediction best = pool.policy().bestPrediction(request, pool.outliers().admitted(endpoints));
            if (best != null && best.meets(request.targets())) {
                return true; // in time where it would go now; waiting could only make it late
            }
        }
        if (sheddable) { // never queued: refused while the pool is full or others wait
            throw refusal(priority, GatewayError.Dropped.SHEDDABLE_SATURATED);
        }
        return false;
    }

    /** Whether requests of a higher priority than {@code priority} wait. */
    private boolean higherWaits(int priority) {
        synchronized (this) {
            return !levels.isEmpty() && levels.firstKey() > priority;
        }
    }

    /** What a refusal by prediction says: the best pod's predicted latency against the targets. */
    private static String explain(LatencyPrediction best, LatencyTargets targets) {
        StringBuilder sb = new StringBuilder("best predicted on ").append(best.endpoint()).append(": ");
        if (targets.ttftMillis() > 0) {
            sb.append("first token in ").append(Math.round(best.ttftMillis())).append(" ms, target ")
                    .append(targets.ttftMillis()).append(" ms");
        }
        if (targets.tpotMillis() > 0) {
            sb.append(targets.ttftMillis() > 0 ? "; " : "").append(Math.round(best.tpotMillis()))
                    .append(" ms per output token, target ").append(targets.tpotMillis()).append(" ms");
        }
        return sb.toString();
    }

    /**
     * Queues a request that {@link #admitNow} held back, then dispatches, so the waiter may hear at once. The request
     * is placed when it leaves the queue (late binding): on the pod that is best then.
     *
     * A standard request with a TTFT target waits at most until that target has passed: refused at the first tick
     * after (its pods' queues drain while it waits, so what its best pod would take now says little about what it
     * will take when the request is let out; the target itself is the one bound that holds). A critical one waits as
     * long as any request: it is served, late or not.
     *
     * @param fairnessKey who the request counts against within its priority (a tenant, a user); null for everyone
     * @throws GatewayError 429 {@code queue_full} when the queue is full of requests that matter as much or more
     */
    public Ticket enqueue(InferenceRequest request, String fairnessKey, Waiter waiter) {
        int priority = request.priority();
        long now = clock.nanoTime();
        long deadline = Long.MAX_VALUE;
        if (request.targets().ttftMillis() > 0 && priority <= Priority.STANDARD) {
            deadline = now + request.targets().ttftMillis() * 1_000_000;
        }
        Ticket ticket = new Ticket(request, fairnessKey == null ? "" : fairnessKey, now, deadline, waiter);
        ticket.owner = this;
        Ticket displaced = null;
        synchronized (this) {
            if (queued >= config.maxQueued()) {
                Level lowest = levels.isEmpty() ? null : levels.lastEntry().getValue();
                Ticket victim = lowest == null ? null : lowest.newestOfLongest();
                if (victim == null || victim.priority >= priority) {
                    throw refusal(priority, GatewayError.Dropped.QUEUE_FULL);
                }
                remove(victim);
                displaced = victim;
            }
            add(ticket);
        }
        if (displaced != null) {
            refuse(displaced, GatewayError.Dropped.DISPLACED);
        }
        dispatch();
        return ticket;
    }

    /**
     * Binds waiting requests, highest priority first, while the pool has room; each binding counts in flight at once,
     * so the next check sees it. Cheap when nothing waits.
     */
    public void dispatch() {
        if (queued == 0) {
            return;
        }
        List<Release> released = null;
        synchronized (this) {
            while (queued > 0) {
                List<Endpoint> endpoints = pool.endpoints();
                if (endpoints.isEmpty() || pool.policy().saturated(pool.outliers().admitted(endpoints))) {
                    break;
                }
                Ticket t = levels.firstEntry().getValue().poll();
                forget(t);
                long start = clock.nanoTime();
                Placement placement = null;
                GatewayError error = null;
                try {
                    placement = Placement.choose(pool, t.released(start));
                    placement.commit(); // now: the next waiter's decision, a moment later, must see this one
                } catch (GatewayError e) {
                    error = e;
                }
                if (released == null) {
                    released = new ArrayList<>(4);
                }
                released.add(new Release(t, placement, clock.nanoTime() - start, error));
            }
        }
        if (released != null) {
            for (Release r : released) {
                Ticket t = r.ticket;
                pool.healthListener().waited(pool.name(), t.priority,
                        r.placement != null ? WaitOutcome.DISPATCHED : WaitOutcome.REFUSED, clock.nanoTime() - t.enqueuedNanos);
                if (r.placement != null) {
                    t.waiter.bound(r.placement, r.pickNanos);
                } else {
                    t.waiter.refused(r.error);
                }
            }
        }
    }

    /** A request let out of the queue: placed, or refused when the placement failed. */
    private record Release(Ticket ticket, Placement placement, long pickNanos, GatewayError error) {
    }

    /**
     * The pool's tick, after each scrape ({@link FlowControlTicker}): refuses the requests that waited past
     * {@code queueTimeout} or past the last moment they could meet their latency target, then dispatches.
     */
    public void tick() {
        if (queued == 0) {
            return;
        }
        long now = clock.nanoTime();
        long deadline = now - config.queueTimeout().toNanos();
        List<Ticket> expired = new ArrayList<>();
        List<Ticket> late = new ArrayList<>();
        synchronized (this) {
            for (Ticket t : byArrival) {
                if (t.enqueuedNanos - deadline <= 0) {
                    expired.add(t);
                } else if (t.deadlineNanos != Long.MAX_VALUE && t.deadlineNanos - now <= 0) {
                    late.add(t);
                }
            }
            expired.forEach(this::remove);
            late.forEach(this::remove);
        }
        for (Ticket t : expired) {
            refuse(t, GatewayError.Dropped.QUEUE_TIMEOUT);
        }
        for (Ticket t : late) {
            refuse(t, GatewayError.Dropped.SLO_DEADLINE);
        }
        dispatch();
    }

    /**
     * The pool was replaced by a reload: its waiting requests move to {@code next}'s queue (the new pool of the same
     * name), keeping their priority, key and arrival time; with no successor they get the 503 of a pool without pods.
     */
    public void handOver(FlowControl next) {
        List<Ticket> moving;
        synchronized (this) {
            moving = new ArrayList<>(byArrival);
            for (Ticket t : moving) {
                remove(t);
            }
        }
        for (Ticket t : moving) {
            if (next == null) {
                t.waiter.refused(GatewayError.noEndpoint(pool.name()));
            } else {
                next.adopt(t);
            }
        }
        if (next != null) {
            next.dispatch();
        }
    }

    private void adopt(Ticket t) {
        synchronized (this) {
            t.owner = this;
            t.done = false;
            add(t);
        }
    }

    /** Requests waiting now. */
    public int queued() {
        return queued;
    }

    /** Requests waiting now in a priority band ({@link Priority#band}: critical, standard or sheddable). */
    public int queued(String band) {
        synchronized (this) {
            return queuedByBand[bandIndex(band)];
        }
    }

    public FlowControlConfig config() {
        return config;
    }

    private void refuse(Ticket t, GatewayError.Dropped why) {
        pool.healthListener().waited(pool.name(), t.priority, WaitOutcome.REFUSED, clock.nanoTime() - t.enqueuedNanos);
        t.waiter.refused(refusal(t.priority, why));
    }

    private GatewayError refusal(int priority, GatewayError.Dropped why) {
        return refusal(priority, why, null);
    }

    private GatewayError refusal(int priority, GatewayError.Dropped why, String detail) {
        pool.healthListener().dropped(pool.name(), priority, why);
        return GatewayError.overloaded(pool.name(), why, detail, Math.max(1, config.retryAfter().toSeconds()));
    }

    // ---- the queue, under the lock ------------------------------------------------------------------

    private void add(Ticket t) {
        levels.computeIfAbsent(t.priority, p -> new Level()).add(t);
        byArrival.add(t);
        queuedByBand[bandIndex(Priority.band(t.priority))]++;
        queued++;
    }

    private void remove(Ticket t) {
        levels.get(t.priority).remove(t);
        forget(t);
    }

    /** Takes a ticket polled or removed from its level out of the rest. */
    private void forget(Ticket t) {
        byArrival.remove(t);
        t.done = true;
        Level level = levels.get(t.priority);
        if (level != null && level.isEmpty()) {
            levels.remove(t.priority);
        }
        queuedByBand[bandIndex(Priority.band(t.priority))]--;
        queued--;
    }

    private static int bandIndex(String band) {
        return switch (band) {
            case "critical" -> 0;
            case "standard" -> 1;
            default -> 2;
        };
    }
}
