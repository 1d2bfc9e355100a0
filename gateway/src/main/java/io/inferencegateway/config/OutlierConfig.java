package io.inferencegateway.config;

import java.time.Duration;

/**
 * When a pod of a pool stops getting requests because it fails them (connect failures, resets before the
 * response, 5xx statuses): after {@code consecutiveFailures} in a row, or when more than {@code failurePercent} of
 * at least {@code minimumRequests} requests in one {@code interval} failed. It is ejected for {@code baseEjectionTime}
 * times the number of times it was ejected, at most {@code maxEjectionTime}, then tried again; never more than
 * {@code maxEjectionPercent} of the pool's pods are out at once.
 *
 * @param consecutiveFailures failures in a row that eject a pod (0: this rule is off)
 * @param failurePercent      failure share over an interval that ejects a pod (0: this rule is off)
 */
public record OutlierConfig(
        int consecutiveFailures,
        double failurePercent,
        int minimumRequests,
        Duration interval,
        Duration baseEjectionTime,
        Duration maxEjectionTime,
        int maxEjectionPercent) {

    public static final OutlierConfig DEFAULT = new OutlierConfig(5, 50, 20, Duration.ofSeconds(10),
            Duration.ofSeconds(30), Duration.ofSeconds(300), 50);

    /** Whether either rule can eject a pod. */
    public boolean enabled() {
        return maxEjectionPercent > 0 && (consecutiveFailures > 0 || failurePercent > 0);
    }
}
