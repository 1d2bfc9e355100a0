package io.inferencegateway.rollout;

import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.RequestRecord;

/**
 * How one request of a rollout's version ended, as the analysis counts it (docs/rollouts.md, "What is counted").
 * A version is judged on what it did: a request refused for the caller's own sake (bad body, credentials, the
 * tenant's rate limit) says nothing about it and is not counted at all.
 */
enum VersionOutcome {
    /** Answered 2xx and relayed to its end: a TTFT sample, and a TPOT sample for a stream of two tokens or more. */
    SERVED,
    /** Counted as a request only: a 4xx of the model server other than 429, or a client that hung up. */
    OTHER,
    /** The version failed: a 5xx other than 503 (the model server's or the gateway's), or a response that broke off. */
    ERROR,
    /**
     * The version could not take the request: 429 or 503 from its model server, or the gateway's 429/503 because its
     * pods were saturated or there were none.
     */
    REFUSAL,
    /** Not the version's doing: not counted. */
    IGNORED;

    static VersionOutcome of(RequestRecord r) {
        GatewayError.Reason reason = r.error();
        if (reason != null) {
            return switch (reason) {
                case OVERLOADED, NO_ENDPOINT, UPSTREAM_REFUSED -> REFUSAL;
                case UPSTREAM_UNAVAILABLE, UPSTREAM_BROKEN, UPSTREAM_TIMEOUT, INTERNAL -> ERROR;
                case CLIENT_CLOSED -> OTHER;
                default -> IGNORED; // the caller's request, credentials, tenant or limits; the gateway's drain
            };
        }
        RequestRecord.Ending ending = r.ending();
        if (ending == RequestRecord.Ending.UPSTREAM_FAILED) {
            return ERROR;
        }
        int status = r.status();
        if (status == 429 || status == 503) {
            return REFUSAL;
        }
        if (status >= 500) {
            return ERROR;
        }
        if (ending == RequestRecord.Ending.CLIENT_GONE || status < 200 || status >= 300) {
            return OTHER;
        }
        return ending == RequestRecord.Ending.COMPLETED ? SERVED : OTHER;
    }
}
