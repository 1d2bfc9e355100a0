package io.inferencegateway.rollout;

import java.util.concurrent.CompletableFuture;

/**
 * Where rollouts keep their progress and each step's counts: this process's memory, or a Redis every replica shares
 * (so every replica decides on the fleet's numbers and a restarted gateway resumes). Asynchronous: nothing waits.
 */
interface ProgressStore extends AutoCloseable {

    /** A rollout's progress and the counts of its current step, each side summed over every replica. */
    record StepCounts(Progress progress, Tally baseline, Tally candidate) {
    }

    /** Whether a transition was made, and the progress after it (another replica's, when it lost). */
    record Transition(boolean made, Progress progress) {
    }

    /**
     * Adds this replica's counts of {@code step} and answers the progress (begun at {@code nowMillis} if there was
     * none) with its step's counts.
     */
    CompletableFuture<StepCounts> exchange(String key, int step, Tally baseline, Tally candidate, long nowMillis);

    /** Makes {@code next} the progress if it is still at revision {@code expectedRev}. */
    CompletableFuture<Transition> transition(String key, long expectedRev, Progress next);

    @Override
    void close();
}
