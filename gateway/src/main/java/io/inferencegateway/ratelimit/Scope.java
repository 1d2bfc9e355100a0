package io.inferencegateway.ratelimit;

/**
 * One budget a request counts against: a tenant's over all models, or a tenant's for one model.
 *
 * @param key the store's key for it (names from the config only)
 * @param rpm requests per window, 0: unlimited
 * @param tpm tokens per window, 0: unlimited
 */
public record Scope(String key, long rpm, long tpm) {
}
