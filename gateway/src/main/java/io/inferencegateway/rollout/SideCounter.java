package io.inferencegateway.rollout;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * What this gateway counted for one side of a rollout since the analysis last took its numbers: written by the
 * request listeners on every event loop, drained once per analysis interval. Fixed size.
 */
final class SideCounter {

    private final LongAdder requests = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder refusals = new LongAdder();
    private final AtomicLongArray ttft = new AtomicLongArray(LatencyBuckets.COUNT);
    private final AtomicLongArray tpot = new AtomicLongArray(LatencyBuckets.COUNT);

    void count(VersionOutcome outcome, long ttftNanos, long tpotNanos) {
        requests.increment();
        switch (outcome) {
            case ERROR -> errors.increment();
            case REFUSAL -> refusals.increment();
            default -> {
            }
        }
        if (ttftNanos >= 0) {
            ttft.incrementAndGet(LatencyBuckets.index(ttftNanos));
        }
        if (tpotNanos >= 0) {
            tpot.incrementAndGet(LatencyBuckets.index(tpotNanos));
        }
    }

    /** What was counted since the last drain; the counts start again from zero. */
    Tally drain() {
        long[] t = new long[LatencyBuckets.COUNT];
        long[] p = new long[LatencyBuckets.COUNT];
        for (int i = 0; i < t.length; i++) {
            t[i] = ttft.getAndSet(i, 0);
            p[i] = tpot.getAndSet(i, 0);
        }
        return new Tally(requests.sumThenReset(), errors.sumThenReset(), refusals.sumThenReset(), t, p);
    }

    /** Puts a drained tally back (its numbers could not be stored): they go with the next drain. */
    void restore(Tally t) {
        requests.add(t.requests());
        errors.add(t.errors());
        refusals.add(t.refusals());
        for (int i = 0; i < LatencyBuckets.COUNT; i++) {
            if (t.ttft()[i] != 0) {
                ttft.addAndGet(i, t.ttft()[i]);
            }
            if (t.tpot()[i] != 0) {
                tpot.addAndGet(i, t.tpot()[i]);
            }
        }
    }
}
