package io.inferencegateway.config;

import java.time.Duration;
import java.util.Map;

import io.inferencegateway.domain.Priority;

/**
 * A pool's flow control: while every pod of the pool is saturated, requests wait in the gateway, highest priority
 * first and fair across fairness keys, and are bound to a pod only when one has room (pool/FlowControl.java).
 *
 * @param enabled         false (the default without a {@code flowControl} section): requests go to the least bad
 *                        pod at once, as if no pod were ever saturated
 * @param maxQueued       requests that may wait at once; beyond that a newcomer of higher priority displaces the
 *                        newest of the lowest, anyone else is refused
 * @param queueTimeout    longest wait; past it the request is refused
 * @param retryAfter      what the {@code Retry-After} of a refusal says
 * @param defaultPriority the priority of the pool's requests that carry none
 * @param priorities      the priority of a model or LoRA adapter of the pool, by name
 * @param priorityHeader  whether a client's {@code x-gateway-priority} header counts
 */
public record FlowControlConfig(boolean enabled, int maxQueued, Duration queueTimeout, Duration retryAfter,
        int defaultPriority, Map<String, Integer> priorities, boolean priorityHeader) {

    /**
     * Off unless the pool has a {@code flowControl} section: late binding sends a request to whichever pod frees
     * first, which on prefix-heavy traffic at saturation costs cache hits (docs/configuration.md, "Flow control").
     */
    public static final FlowControlConfig DEFAULT = new FlowControlConfig(false, 1024, Duration.ofSeconds(30),
            Duration.ofSeconds(1), Priority.STANDARD, Map.of(), true);

    public FlowControlConfig {
        priorities = Map.copyOf(priorities);
    }

    /** The priority of a request for {@code model} that asked for none. */
    public int priorityOf(String model) {
        Integer p = model == null ? null : priorities.get(model);
        return p == null ? defaultPriority : p;
    }
}
