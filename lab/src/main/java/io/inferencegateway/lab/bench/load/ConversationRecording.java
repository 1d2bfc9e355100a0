package io.inferencegateway.lab.bench.load;

import java.util.List;

import io.inferencegateway.lab.bench.workload.ConversationPlan;

/**
 * What one conversations run measured; every array is indexed like the plan's turns.
 *
 * @param results      one per turn
 * @param servedBy     which pod answered each turn (an opaque name, equal for equal pods); null when unknown
 * @param cachedTokens prompt tokens the pod found in its prefix cache; -1 when it did not report them
 * @param targetOf     the gateway replica each turn was sent to
 * @param wallNanos    wall-clock time from the first due turn to the last result
 */
public record ConversationRecording(ConversationPlan plan, List<RequestResult> results, String[] servedBy,
                                    int[] cachedTokens, int[] targetOf, double timeScale, long wallNanos,
                                    int maxInFlight) {

    public ConversationRecording {
        results = List.copyOf(results);
    }
}
