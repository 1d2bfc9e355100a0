package io.inferencegateway.lab.soak;

import java.util.Locale;

/**
 * What the client saw of one planned request: exactly one per request sent.
 *
 * @param replica          the replica it was sent to; {@code incarnation} counts that replica's restarts
 * @param sentAtMillis     when it was sent, and {@code endedAtMillis} when its outcome was known, from the load start
 * @param status           the HTTP status the client read, 0 when no response arrived
 * @param code             the OpenAI error's {@code code} (or {@code type} when it has no code), null otherwise
 * @param shaped           whether an error was in OpenAI's shape ({@code {"error":{"message","type",...}}})
 * @param chunks           stream chunks read
 * @param promptTokens     {@code usage.prompt_tokens} the client saw; -1 when it saw no usage
 * @param rateWindow       the rate-limit window the gateway counted it in (from {@code x-ratelimit-reset-*}); -1 none
 */
record CallOutcome(PlannedCall call, int replica, int incarnation, long sentAtMillis, long endedAtMillis, Kind kind,
                   int status, String code, boolean shaped, int chunks, long promptTokens, long completionTokens,
                   long rateWindow, String detail) {

    enum Kind {
        /** an answer, or a stream that ended with [DONE] */
        COMPLETED,
        /** the client hung up on the stream, as planned */
        HUNG_UP,
        /** an error response (4xx/5xx) before any content */
        ERROR_RESPONSE,
        /** a stream that ended with an SSE error event */
        ERROR_EVENT,
        /** a stream or response cut without an error: the connection broke */
        BROKEN,
        /** no response at all: the connection failed before one */
        NO_RESPONSE,
        /** the client's timeout passed */
        TIMED_OUT
    }

    long usageTokens() {
        return promptTokens < 0 ? -1 : promptTokens + completionTokens;
    }

    /** The gateway refused it by a promise it makes: a tenant's budget, or shedding a sheddable request. */
    boolean refusedByPolicy() {
        if (kind != Kind.ERROR_RESPONSE || status != 429) {
            return false;
        }
        return "rate_limit_exceeded".equals(code) || call.sheddable();
    }

    /** Not what a client wants: anything but an answer, a planned hang-up or a refusal the gateway promises. */
    boolean failed() {
        return kind != Kind.COMPLETED && kind != Kind.HUNG_UP && !refusedByPolicy();
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "request %d (%s, %s%s, replica %d#%d) sent %.3fs ended %.3fs: %s status %d%s"
                        + " chunks %d%s", call.id(), call.tenant().id, call.stream() ? "stream" : "plain",
                call.priority() == null ? "" : ", priority " + call.priority(), replica, incarnation,
                sentAtMillis / 1000.0, endedAtMillis / 1000.0, kind, status, code == null ? "" : " code " + code,
                chunks, detail == null ? "" : " (" + detail + ")");
    }
}
