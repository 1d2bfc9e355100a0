package io.inferencegateway.scheduling.framework;

/**
 * A plugin that keeps an index of which pod holds which prompt blocks (the prefix scorer). The policy finds it on
 * the profile's scorers by itself and reports the size as the pool's {@code inference_extension_prefix_indexer_size}
 * (docs/observability.md).
 */
@FunctionalInterface
public interface PrefixIndexed {

    /** Prompt blocks the index holds now, over all pods. Called when metrics are read, not per request. */
    long indexEntries();
}
