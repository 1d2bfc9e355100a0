package io.inferencegateway.scheduling.framework;

/**
 * Extension point: attaches facts of this request to the candidates of its snapshot, once, before admission and the
 * profiles read them: the prompt tokens each pod probably still caches (the prefix index), the latency predicted on
 * each (the latency predictor), what a global tier's target is. Producers run by stage ({@link #FACTS} before
 * {@link #PREDICTIONS}, which read the facts), then in the order they were registered; a producer writes only its own
 * facts ({@link EndpointState}'s setters) and never removes a candidate.
 */
@FunctionalInterface
public interface DataProducer {

    /** The stage of producers that read only the snapshot: cached prefixes, a target's facts. */
    int FACTS = 0;
    /** The stage of producers that read what the first stage produced: predicted latency. */
    int PREDICTIONS = 1;

    /** Attaches this producer's facts to every candidate of {@code cycle} ({@link SchedulingCycle#states()}). */
    void produce(SchedulingCycle cycle);

    /**
     * Attaches what only the chosen endpoint needs, once the pick is made (the latency predicted there, which the
     * request's ending teaches the predictor). Nothing by default.
     */
    default void produceChosen(SchedulingCycle cycle, EndpointState chosen) {
    }
}
