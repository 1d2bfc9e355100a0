package io.inferencegateway.lab.bench.load;

/** How one request ended. Only {@link #OK} requests enter the latency statistics. */
public enum Outcome {
    /** Status 200 and a complete stream: content, then {@code [DONE]}. */
    OK,
    /** The gateway answered with a status other than 200 and 429 (5xx, 4xx, ...). */
    HTTP_ERROR,
    /**
     * The gateway refused the request with 429 (flow control shed it: see the {@code x-gateway-dropped-reason}
     * header). Counted apart from errors: refusing sheddable work under saturation is the intended behaviour.
     */
    REFUSED,
    /** No connection could be opened, or it broke before the response was complete. */
    CONNECTION_ERROR,
    /** Status 200 but the stream was wrong: no content, an error event, or no {@code [DONE]}. */
    STREAM_ERROR,
    /** No complete response within the request timeout. */
    TIMEOUT,
    /** Still running when the drain timeout after the last send ran out. */
    CANCELLED;

    /** Neither served nor refused. */
    public boolean isError() {
        return this != OK && this != REFUSED;
    }
}
