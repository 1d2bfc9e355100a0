package io.inferencegateway.config;

import java.net.URI;

/** Validates a scheduler's {@code replicas}: how many gateway replicas share the pool, and how they agree on pods. */
final class ReplicaValidation {

    private ReplicaValidation() {
    }

    /** {@code at} is the section's path, e.g. {@code spec.schedulers[0].replicas}. */
    static ReplicaConfig replicas(String at, InferenceGatewayConfig.Replicas r) throws InvalidConfigException {
        if (r == null) {
            return ReplicaConfig.SINGLE;
        }
        int count = ConfigChecks.intIn(r.count(), 1, 1, 1024, at + ".count");
        ReplicaConfig.Coordination placement = count > 1 ? ReplicaConfig.Coordination.RENDEZVOUS
                : ReplicaConfig.Coordination.INDEPENDENT;
        if (r.placement() != null) {
            placement = ReplicaConfig.Coordination.fromConfigName(r.placement());
            if (placement == null) {
                throw new InvalidConfigException(at + ".placement must be one of rendezvous, shared, independent; got '"
                        + r.placement() + "'");
            }
        }
        double loadBound = r.loadBound() == null ? ReplicaConfig.DEFAULT_LOAD_BOUND : r.loadBound();
        if (!(loadBound >= 1 && loadBound <= 100)) {
            throw new InvalidConfigException(at + ".loadBound must be between 1 and 100, got " + r.loadBound());
        }
        int keyBlocks = ConfigChecks.intIn(r.keyBlocks(), ReplicaConfig.DEFAULT_KEY_BLOCKS, 1, 256, at + ".keyBlocks");
        boolean spread = r.spreadScrapes() == null ? count > 1 : r.spreadScrapes();
        URI redisUrl = null;
        if (placement == ReplicaConfig.Coordination.SHARED) {
            if (r.redisUrl() == null || r.redisUrl().isBlank()) {
                throw new InvalidConfigException(at + ".redisUrl is required with placement: shared "
                        + "(e.g. redis://redis:6379)");
            }
            redisUrl = ConfigChecks.redisUri(r.redisUrl(), at + ".redisUrl");
        } else if (r.redisUrl() != null) {
            throw new InvalidConfigException(at + ".redisUrl is only used with placement: shared");
        }
        return new ReplicaConfig(count, placement, loadBound, keyBlocks, spread, redisUrl);
    }
}
