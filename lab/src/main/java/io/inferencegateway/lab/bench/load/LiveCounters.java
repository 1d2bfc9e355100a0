package io.inferencegateway.lab.bench.load;

import java.util.concurrent.atomic.AtomicInteger;

/** Counts a running load generator updates and a progress display reads from another thread. */
public final class LiveCounters {

    private final AtomicInteger sent = new AtomicInteger();
    private final AtomicInteger completed = new AtomicInteger();
    private final AtomicInteger errors = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();
    private volatile int planned;

    void start(int plannedRequests) {
        planned = plannedRequests;
    }

    void onSent() {
        sent.incrementAndGet();
        maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
    }

    void onCompleted(boolean error) {
        completed.incrementAndGet();
        inFlight.decrementAndGet();
        if (error) {
            errors.incrementAndGet();
        }
    }

    public int planned() {
        return planned;
    }

    public int sent() {
        return sent.get();
    }

    public int completed() {
        return completed.get();
    }

    public int errors() {
        return errors.get();
    }

    public int inFlight() {
        return inFlight.get();
    }

    public int maxInFlight() {
        return maxInFlight.get();
    }
}
