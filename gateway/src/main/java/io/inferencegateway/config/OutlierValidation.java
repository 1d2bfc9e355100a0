package io.inferencegateway.config;

import java.time.Duration;

/** Validates a scheduler's {@code outlierDetection}: when a failing pod is ejected, and for how long. */
final class OutlierValidation {

    private OutlierValidation() {
    }

    /** {@code at} is the section's path, e.g. {@code spec.schedulers[0].outlierDetection}. */
    static OutlierConfig outlierDetection(String at, InferenceGatewayConfig.OutlierDetection o)
            throws InvalidConfigException {
        OutlierConfig d = OutlierConfig.DEFAULT;
        if (o == null) {
            return d;
        }
        int consecutive = ConfigChecks.intIn(o.consecutiveFailures(), d.consecutiveFailures(), 0, 1_000_000,
                at + ".consecutiveFailures");
        double failurePercent = ConfigChecks.percent(o.failurePercent(), d.failurePercent(), at + ".failurePercent");
        int minimumRequests = ConfigChecks.intIn(o.minimumRequests(), d.minimumRequests(), 1, 1_000_000,
                at + ".minimumRequests");
        Duration interval = ConfigChecks.duration(o.interval(), at + ".interval", d.interval());
        Duration base = ConfigChecks.duration(o.baseEjectionTime(), at + ".baseEjectionTime", d.baseEjectionTime());
        Duration max = ConfigChecks.duration(o.maxEjectionTime(), at + ".maxEjectionTime",
                base.compareTo(d.maxEjectionTime()) > 0 ? base : d.maxEjectionTime());
        if (max.compareTo(base) < 0) {
            throw new InvalidConfigException(at + ".maxEjectionTime must be at least baseEjectionTime ("
                    + Durations.format(base) + "), got '" + o.maxEjectionTime() + "'");
        }
        int maxPercent = ConfigChecks.intIn(o.maxEjectionPercent(), d.maxEjectionPercent(), 0, 100,
                at + ".maxEjectionPercent");
        return new OutlierConfig(consecutive, failurePercent, minimumRequests, interval, base, max, maxPercent);
    }
}
