package io.inferencegateway.lab.bench.fleet;

/**
 * One pod's state at one moment, read from the simulator (not through the gateway), for per-pod
 * breakdowns in the reports. Counters count since the pod started.
 *
 * @param served          requests that ran to completion
 * @param prefixQueries   prompt tokens looked up in the prefix cache
 * @param prefixHits      of those, tokens found cached
 * @param preemptions     running requests evicted for lack of KV blocks
 */
public record PodSample(int waiting, int running, double kvUsage, long served, long prefixQueries, long prefixHits,
                        long preemptions) {
}
