package io.inferencegateway.ratelimit;

/**
 * What the store answered to a reservation.
 *
 * @param admitted    whether the request fits every scope (then it is counted in each)
 * @param window      the window it was counted in (commits go to the same one)
 * @param resetMillis how long until the window ends
 * @param refused     which limit refused it, or null
 * @param counts      per scope, in the order asked: requests then tokens counted in the window (after this request,
 *                    when admitted)
 */
public record Verdict(boolean admitted, long window, long resetMillis, Limit refused, long[] counts) {

    public enum Limit {
        REQUESTS, TOKENS
    }

    public long requests(int scope) {
        return counts[2 * scope];
    }

    public long tokens(int scope) {
        return counts[2 * scope + 1];
    }
}
