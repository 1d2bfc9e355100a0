package io.inferencegateway.lab.bench.load;

/** How one request ended. Only {@link #OK} requests enter the latency statistics. */
public enum Outcome {
    /** Status 200 and a complete stream: content, then {@code [DONE]}. */
    OK,
    /** The gateway answered with a status other than 200 (429 when it sheds load, 5xx, ...). */
    HTTP_ERROR,
    /** No connection could be opened, or it broke before the response was complete. */
    CONNECTION_ERROR,
    /** Status 200 but the stream was wrong: no content, an error event, or no {@code [DONE]}. */
    STREAM_ERROR,
    /** No complete response within the request timeout. */
    TIMEOUT,
    /** Still running when the drain timeout after the last send ran out. */
    CANCELLED;

    public boolean isError() {
        return this != OK;
    }
}
