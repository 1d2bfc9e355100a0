package io.inferencegateway.lab.bench.load;

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
 */
public record RequestResult(int index, String model, String kind, String key, int promptTokens, int maxTokens,
                            long intendedNanos, long sendLagNanos, Outcome outcome, int status, String error,
                            long ttftNanos, long[] itlNanos, long e2eNanos, int outputTokens, int contentEvents,
                            boolean usageReported) {

    public boolean ok() {
        return outcome == Outcome.OK;
    }
}
