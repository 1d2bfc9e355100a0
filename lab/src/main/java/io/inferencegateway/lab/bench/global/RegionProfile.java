package io.inferencegateway.lab.bench.global;

import java.time.Duration;

/**
 * One simulated region of the {@code global} scenario: a cluster (its pods and its gateway) behind a delayed link.
 *
 * @param cluster     the cluster's name in the tier's {@code spec.global.clusters} (and in its access log's
 *                    {@code target})
 * @param region      its region
 * @param oneWayDelay what the link between the tier and the cluster adds each way, simulated time
 * @param inputPrice  currency per million prompt tokens served there
 * @param outputPrice currency per million completion tokens served there
 */
public record RegionProfile(String cluster, String region, Duration oneWayDelay, double inputPrice, double outputPrice) {

    public RegionProfile {
        if (oneWayDelay.isNegative() || inputPrice < 0 || outputPrice < 0) {
            throw new IllegalArgumentException("delays and prices cannot be negative");
        }
    }

    /** The link's delay in wall time, as the proxy holds bytes: the simulated delay over the time scale. */
    public Duration wallDelay(double timeScale) {
        return Duration.ofNanos(Math.round(oneWayDelay.toNanos() / timeScale));
    }
}
