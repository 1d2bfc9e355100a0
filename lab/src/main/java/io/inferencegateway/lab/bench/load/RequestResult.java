package io.inferencegateway.lab.bench.load;

import io.inferencegateway.lab.bench.workload.SloClass;

/**
 * What one request measured. All durations are in simulated nanoseconds (wall-clock × time scale)
 * and start at the request's intended send time, not the moment it was actually sent, so a late
 * send counts against the latency instead of hiding it (no coordinated omission).
 *
 * @param intendedNanos  intended send time after the run start (simulated)
 * @param sendLagNanos   how late the request was written to the socket (generator health)
 * @param ttftNanos      time to the first event with non-empty content; -1 when there was none
 * @param itlNanos       gaps between successive content events
 * @param e2eNanos       time to the end of the response; -1 when it never ended
 * @param outputTokens   from the usage chunk when the server sent one, else the content events counted
 * @param status         HTTP status; 0 when no response head arrived
 * @param error          short description when the outcome is not OK, else empty
 * @param priority       the priority class the request was sent with; empty when none
 * @param droppedReason  the {@code x-gateway-dropped-reason} header of a refusal; empty when absent
 * @param retryAfter     the {@code Retry-After} header of a refusal; empty when absent
 * @param slo            the latency class the request was sent with and the targets it is judged by;
 *                       {@link SloClass#NONE} when it had none
 */
public record RequestResult(int index, String model, String kind, String key, int promptTokens, int maxTokens,
                            long intendedNanos, long sendLagNanos, Outcome outcome, int status, String error,
                            long ttftNanos, long[] itlNanos, long e2eNanos, int outputTokens, int contentEvents,
                            boolean usageReported, String priority, String droppedReason, String retryAfter,
                            SloClass slo) {

    public RequestResult {
        priority = priority == null ? "" : priority;
        droppedReason = droppedReason == null ? "" : droppedReason;
        retryAfter = retryAfter == null ? "" : retryAfter;
        slo = slo == null ? SloClass.NONE : slo;
    }

    /** A request sent without latency targets. */
    public RequestResult(int index, String model, String kind, String key, int promptTokens, int maxTokens,
                         long intendedNanos, long sendLagNanos, Outcome outcome, int status, String error,
                         long ttftNanos, long[] itlNanos, long e2eNanos, int outputTokens, int contentEvents,
                         boolean usageReported, String priority, String droppedReason, String retryAfter) {
        this(index, model, kind, key, promptTokens, maxTokens, intendedNanos, sendLagNanos, outcome, status, error,
                ttftNanos, itlNanos, e2eNanos, outputTokens, contentEvents, usageReported, priority, droppedReason,
                retryAfter, SloClass.NONE);
    }

    /** A request sent without a priority and not refused. */
    public RequestResult(int index, String model, String kind, String key, int promptTokens, int maxTokens,
                         long intendedNanos, long sendLagNanos, Outcome outcome, int status, String error,
                         long ttftNanos, long[] itlNanos, long e2eNanos, int outputTokens, int contentEvents,
                         boolean usageReported) {
        this(index, model, kind, key, promptTokens, maxTokens, intendedNanos, sendLagNanos, outcome, status, error,
                ttftNanos, itlNanos, e2eNanos, outputTokens, contentEvents, usageReported, "", "", "");
    }

    /** The X-Request-Id the bench sends for the request at {@code index} (the simulator names cut streams by it). */
    public static String requestId(int index) {
        return "bench-" + index;
    }

    /**
     * Time per output token after the first: (end of response − first token) / (output tokens − 1), simulated
     * nanoseconds; -1 unless the request succeeded with at least two output tokens. The end of the response is the
     * end of the stream (after the usage chunk and {@code [DONE]}), as a client waiting for the whole answer sees it.
     */
    public long tpotNanos() {
        if (!ok() || outputTokens < 2 || ttftNanos < 0 || e2eNanos < ttftNanos) {
            return -1;
        }
        return (e2eNanos - ttftNanos) / (outputTokens - 1);
    }

    public boolean refused() {
        return outcome == Outcome.REFUSED;
    }

    public boolean ok() {
        return outcome == Outcome.OK;
    }
}
