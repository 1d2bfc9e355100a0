package io.inferencegateway.config;

/** Validates a scheduler's {@code failover}: how often a request may try another pod, and the retry budget. */
final class FailoverValidation {

    private FailoverValidation() {
    }

    /** {@code at} is the section's path, e.g. {@code spec.schedulers[0].failover}. */
    static FailoverConfig failover(String at, InferenceGatewayConfig.Failover f) throws InvalidConfigException {
        FailoverConfig d = FailoverConfig.DEFAULT;
        if (f == null) {
            return d;
        }
        int maxAttempts = ConfigChecks.intIn(f.maxAttempts(), d.maxAttempts(), 1, 10, at + ".maxAttempts");
        double budget = ConfigChecks.percent(f.retryBudgetPercent(), d.retryBudgetPercent(),
                at + ".retryBudgetPercent");
        int minRetries = ConfigChecks.intIn(f.minRetries(), d.minRetries(), 0, 1_000_000, at + ".minRetries");
        return new FailoverConfig(maxAttempts, budget, minRetries);
    }
}
