package io.inferencegateway.kvevents;

import java.util.List;

/**
 * One message of an engine's KV-event publisher: the events of one engine step.
 *
 * @param timestamp        when the engine published it, in seconds since the epoch
 * @param events           the events it could read, in order
 * @param dataParallelRank the data-parallel rank that published it, or -1 when the batch does not say
 * @param unknown          events of a type it does not know (a newer engine's), skipped
 */
public record KvEventBatch(double timestamp, List<KvEvent> events, int dataParallelRank, int unknown) {
}
