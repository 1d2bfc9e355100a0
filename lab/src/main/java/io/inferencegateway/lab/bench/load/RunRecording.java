package io.inferencegateway.lab.bench.load;

import java.util.List;

/**
 * Everything one load run measured.
 *
 * @param results           one per planned request, in plan order
 * @param timeScale         simulated seconds per wall second during the run
 * @param wallNanos         wall-clock time from the first intended send to the end of the drain
 * @param maxInFlight       most requests in flight at once
 * @param connectionsOpened TCP connections opened (keep-alive reuse keeps this near max in flight)
 * @param targetOf          for each request (plan order), the index of the target it was sent to
 */
public record RunRecording(List<RequestResult> results, double timeScale, long wallNanos, int maxInFlight,
                           int connectionsOpened, int[] targetOf) {

    public RunRecording {
        results = List.copyOf(results);
    }

    /** A recording of requests that all went to one target. */
    public RunRecording(List<RequestResult> results, double timeScale, long wallNanos, int maxInFlight,
                        int connectionsOpened) {
        this(results, timeScale, wallNanos, maxInFlight, connectionsOpened, new int[results.size()]);
    }
}
