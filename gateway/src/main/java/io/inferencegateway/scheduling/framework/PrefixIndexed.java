package io.inferencegateway.scheduling.framework;

import java.util.List;

/**
 * A plugin that keeps an index of which pod holds which prompt blocks (the prefix scorer). The policy finds it on
 * the profile's scorers by itself and reports the size as the pool's {@code inference_extension_prefix_indexer_size}
 * (docs/observability.md).
 */
public interface PrefixIndexed {

    /** Prompt blocks the index holds now, over all pods. Called when metrics are read, not per request. */
    long indexEntries();

    /**
     * Adds to each state's {@link EndpointState#cachedTokens} the prompt tokens the index says its pod holds, where
     * that is more than already counted: for the latency prediction, before the filters run.
     */
    default void countCachedTokens(SchedulingCycle cycle, List<EndpointState> states) {
    }
}
