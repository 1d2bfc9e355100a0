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
import io.inferencegateway.domain.AdmissionDecision;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.domain.Priority;
import io.inferencegateway.domain.Scheduling;

/**
 * A pool's admission: while every pod of the pool is saturated (its policy's scheduling of the request says so,
 * {@link Scheduling#saturated}), a request waits here instead of being pushed into a full pod's queue, and is bound to a pod (its {@link Placement}
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

        /** The request {@link #poll} would take next, left in place. */
        Ticket peek() {
            return byKey.get(turns.peekFirst()).peekFirst();
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
     * Whether a request may go to a pod now: then the scheduling of the request that admission began, for the caller
     * to place it with ({@link Placement#place}: one snapshot for both); null when it must wait: then {@link #enqueue}
     * it.
     *
     * <p>The scheduler's admission speaks first (docs/slo.md): it may refuse (a sheddable request that no pod is
     * predicted to serve in time, even when the pool has room) or let a request go at once (one that matters more than
     * standard and that a pod is predicted to serve in time, even while the pods look full or others wait, unless
     * requests of higher priority wait). Otherwise: the request goes when the pool has room and nobody waits (the
     * common case: one saturation check on the snapshot, no lock); with flow control off, it goes unless it is
     * sheddable and every pod is saturated. Every other request waits, a standard one with a TTFT target at most until
     * that target has passed.
     *
     * @throws GatewayError 503 when the pool has no endpoint; 429 for a sheddable request while saturated, while others
     *                      wait, or when no pod is predicted to serve it in time
     */
    public Scheduling admit(InferenceRequest request) {
        List<Endpoint> endpoints = pool.endpoints();
        if (endpoints.isEmpty()) {
            throw GatewayError.noEndpoint(pool.name());
        }
        Scheduling scheduling = pool.policy().begin(request, pool.outliers().admitted(endpoints), 0);
        try {
            if (admitNow(request.priority(), scheduling)) {
                return scheduling;
            }
        } catch (RuntimeException e) {
            scheduling.close();
            throw e;
        }
        scheduling.close();
        return null;
    }

    private boolean admitNow(int priority, Scheduling scheduling) {
        boolean sheddable = Priority.sheddable(priority);
        AdmissionDecision admission = scheduling.admission();
        if (admission.refused()) {
            throw refusal(priority, admission.reason(), admission.detail());
        }
        if (!config.enabled()) { // no queue; a sheddable request is still shed while every pod is full
            if (sheddable && scheduling.saturated()) {
                throw refusal(priority, GatewayError.Dropped.SHEDDABLE_SATURATED);
            }
            return true;
        }
        if (queued == 0 && !scheduling.saturated()) {
            return true;
        }
        if (admission.action() == AdmissionDecision.Action.ADMIT && !higherWaits(priority)) {
            return true; // in time where it would go now; waiting could only make it late
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

    /**
     * Queues a request that {@link #admit} held back, then dispatches, so the waiter may hear at once. The request
     * is placed when it leaves the queue (late binding): on the pod that is best then.
     *
     * A standard request with a TTFT target waits at most until that target has passed: refused at the first tick
     * after (its pods' queues drain while it waits, so what its best pod would take now says little about what it
     * will take when the request is let out; the target itself is the one bound that holds). A critical one waits as
     * long as any request: it is served, late or not.
     *
     * Within its priority the request counts against its {@link InferenceRequest#fairnessKey()} (a tenant, a user;
     * none: everyone's).
     *
     * @throws GatewayError 429 {@code queue_full} when the queue is full of requests that matter as much or more
     */
    public Ticket enqueue(InferenceRequest request, Waiter waiter) {
        String fairnessKey = request.fairnessKey();
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
     * so the next check sees it. The next waiter's scheduling is begun first: its snapshot says whether the pool has
     * room, and the same snapshot places it. Cheap when nothing waits.
     */
    public void dispatch() {
        if (queued == 0) {
            return;
        }
        List<Release> released = null;
        synchronized (this) {
            while (queued > 0) {
                List<Endpoint> endpoints = pool.endpoints();
                if (endpoints.isEmpty()) {
                    break;
                }
                Level level = levels.firstEntry().getValue();
                Ticket t = level.peek();
                long start = clock.nanoTime();
                Scheduling scheduling = pool.policy().begin(t.request, pool.outliers().admitted(endpoints),
                        start - t.enqueuedNanos);
                if (scheduling.saturated()) {
                    scheduling.close();
                    break;
                }
                level.poll();
                forget(t);
                Placement placement = null;
                GatewayError error = null;
                try {
                    placement = Placement.place(pool, t.request, scheduling);
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
