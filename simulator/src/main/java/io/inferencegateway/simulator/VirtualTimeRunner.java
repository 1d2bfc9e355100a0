package io.inferencegateway.simulator;

import java.util.PriorityQueue;

/**
 * Runs one {@link EngineCore} in virtual time: steps back to back while there is work, and
 * timed events (arrivals, client actions) in between. Deterministic; used by the calibration
 * and by tests that must not sleep.
 */
public final class VirtualTimeRunner {

    private record Event(long atNanos, long order, Runnable action) {
    }

    private final EngineCore engine;
    private final PriorityQueue<Event> events = new PriorityQueue<>((a, b) ->
            a.atNanos != b.atNanos ? Long.compare(a.atNanos, b.atNanos) : Long.compare(a.order, b.order));
    private long order;
    private long now;
    private long stepEnd = -1;

    public VirtualTimeRunner(EngineCore engine) {
        this.engine = engine;
    }

    public EngineCore engine() {
        return engine;
    }

    /** Current virtual time in ns. */
    public long now() {
        return now;
    }

    /** Runs {@code action} at virtual time {@code atNanos} (not before now). */
    public void at(long atNanos, Runnable action) {
        events.add(new Event(Math.max(atNanos, now), order++, action));
    }

    /** Advances virtual time to {@code endNanos}, running steps and events on the way. */
    public void runUntil(long endNanos) {
        while (true) {
            if (stepEnd < 0 && engine.hasWork()) {
                long d = engine.beginStep(now);
                if (d >= 0) {
                    stepEnd = now + d;
                }
            }
            long next = Long.MAX_VALUE;
            if (stepEnd >= 0) {
                next = stepEnd;
            }
            if (!events.isEmpty()) {
                next = Math.min(next, events.peek().atNanos);
            }
            if (next > endNanos) {
                now = Math.max(now, endNanos);
                return;
            }
            now = next;
            if (stepEnd == now) {
                stepEnd = -1;
                engine.finishStep(now);
            }
            while (!events.isEmpty() && events.peek().atNanos <= now) {
                events.poll().action.run();
            }
        }
    }

    /** Runs until the engine has no work and no events are pending, or {@code limitNanos} passes. */
    public void runUntilIdle(long limitNanos) {
        while (true) {
            runUntil(now);
            long next = stepEnd >= 0 ? stepEnd : Long.MAX_VALUE;
            if (!events.isEmpty()) {
                next = Math.min(next, events.peek().atNanos);
            }
            if (next == Long.MAX_VALUE || next > limitNanos) {
                return;
            }
            runUntil(next);
        }
    }
}
