package io.inferencegateway.domain;

/**
 * What the gateway itself saw go wrong at each endpoint lately: the share of its recent requests there that failed
 * (a refused connection, a reset before the response, a 5xx), from the pool's outlier detection. A global tier's
 * error-rate scorer weighs it next to what a cluster's summary says (docs/global.md).
 */
@FunctionalInterface
public interface RecentFailures {

    /** Knows nothing: every ratio unknown. */
    RecentFailures NONE = endpoint -> Double.NaN;

    /** The share 0..1 of recent requests to {@code endpoint} that failed; NaN when there were none lately. */
    double failureRatio(Endpoint endpoint);
}
