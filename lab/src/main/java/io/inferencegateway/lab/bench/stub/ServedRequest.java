package io.inferencegateway.lab.bench.stub;

/**
 * What a stub server saw and did for one request, in its own wall-clock nanoseconds (same clock as
 * the load generator when both run in one JVM).
 *
 * @param requestId       the {@code X-Request-Id} header
 * @param receivedNanos   when the whole request had arrived
 * @param scheduledFirst  when the first content event was due
 * @param eventNanos      when each content event was written
 */
public record ServedRequest(String requestId, String model, int maxTokens, int promptChars, int promptTokens,
                            long receivedNanos, long scheduledFirst, long[] eventNanos) {
}
