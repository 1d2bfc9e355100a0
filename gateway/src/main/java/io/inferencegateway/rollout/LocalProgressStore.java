package io.inferencegateway.rollout;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Progress in this process's memory: right for one replica; a restart begins every rollout afresh. Holds the rollouts
 * of the last {@value #MAX_ROLLOUTS} configurations seen, each with the counts of its current step only.
 */
final class LocalProgressStore implements ProgressStore {

    static final int MAX_ROLLOUTS = 256;

    private static final class StoredProgress {
        Progress progress;
        int countedStep;
        Tally baseline = Tally.EMPTY;
        Tally candidate = Tally.EMPTY;
    }

    private final Map<String, StoredProgress> entries = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, StoredProgress> eldest) {
            return size() > MAX_ROLLOUTS;
        }
    };

    @Override
    public synchronized CompletableFuture<StepCounts> exchange(String key, int step, Tally baseline, Tally candidate,
            long nowMillis) {
        StoredProgress e = entries.computeIfAbsent(key, k -> new StoredProgress());
        if (e.progress == null) {
            e.progress = Progress.start(nowMillis);
        }
        if (e.countedStep != e.progress.step()) {
            e.countedStep = e.progress.step();
            e.baseline = Tally.EMPTY;
            e.candidate = Tally.EMPTY;
        }
        if (step == e.countedStep) { // counts of an earlier step arrive late: dropped
            e.baseline = e.baseline.plus(baseline);
            e.candidate = e.candidate.plus(candidate);
        }
        return CompletableFuture.completedFuture(new StepCounts(e.progress, e.baseline, e.candidate));
    }

    @Override
    public synchronized CompletableFuture<Transition> transition(String key, long expectedRev, Progress next) {
        StoredProgress e = entries.computeIfAbsent(key, k -> new StoredProgress());
        if (e.progress == null || e.progress.rev() != expectedRev) {
            return CompletableFuture.completedFuture(new Transition(false, e.progress));
        }
        e.progress = new Progress(next.step(), next.stepStartMillis(), next.pausedAtMillis(), next.phase(),
                next.reason(), expectedRev + 1);
        return CompletableFuture.completedFuture(new Transition(true, e.progress));
    }

    @Override
    public void close() {
    }
}
