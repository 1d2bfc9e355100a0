package io.inferencegateway.config;

/**
 * A pool's retries on another pod when the first answer came before any byte reached the client: a refused
 * connection, a connection reset before the response headers, or a {@code 502}/{@code 503} status.
 *
 * @param maxAttempts        tries per request, the first one included (1 turns failover off)
 * @param retryBudgetPercent retries that were sent to a pod (resets and 502/503, not refused connections) may not
 *                           exceed this share of the pool's requests over the last {@link #BUDGET_WINDOW_SECONDS}
 *                           seconds, so that a failing fleet does not see its load doubled
 * @param minRetries         retries always allowed in that window, however few requests there were
 */
public record FailoverConfig(int maxAttempts, double retryBudgetPercent, int minRetries) {

    public static final int BUDGET_WINDOW_SECONDS = 10;
    public static final FailoverConfig DEFAULT = new FailoverConfig(3, 20, 10);
}
