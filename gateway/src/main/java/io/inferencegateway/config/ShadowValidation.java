package io.inferencegateway.config;

import java.util.List;

/**
 * Checks a scheduler entry's {@code shadow} section: its own fields first ({@link #shadow}), then, once every pool is
 * known, that a pool of pods serves its candidate ({@link #candidates}).
 */
final class ShadowValidation {

    /** More copies in flight than this at once is not a shadow any more, it is a second fleet's load. */
    static final int MAX_IN_FLIGHT = 10_000;

    private ShadowValidation() {
    }

    /** {@code at} is the section's path, e.g. {@code spec.schedulers[0].shadow}. */
    static ShadowConfig shadow(String at, InferenceGatewayConfig.Shadow s) throws InvalidConfigException {
        if (s == null) {
            return ShadowConfig.OFF;
        }
        String model = ConfigChecks.required(s.model(), at + ".model");
        if (s.percent() == null) {
            throw new InvalidConfigException(at + ".percent is required (the share of the pool's requests copied, "
                    + "e.g. 5)");
        }
        double percent = s.percent();
        if (!(percent > 0 && percent <= 100)) {
            throw new InvalidConfigException(at + ".percent must be more than 0 and at most 100, got " + s.percent());
        }
        int maxInFlight = ConfigChecks.intIn(s.maxInFlight(), ShadowConfig.DEFAULT_MAX_IN_FLIGHT, 1, MAX_IN_FLIGHT,
                at + ".maxInFlight");
        return new ShadowConfig(model, percent, maxInFlight);
    }

    /**
     * Every pool's candidate is served by a pool of pods, and is not the very model the pool serves (its copy would be
     * the request again). A candidate on a pool of clusters and providers is refused: a copy there would cost another
     * cluster's capacity or a provider's money.
     */
    static void candidates(List<PoolConfig> pools) throws InvalidConfigException {
        for (int i = 0; i < pools.size(); i++) {
            PoolConfig pool = pools.get(i);
            ShadowConfig s = pool.shadow();
            if (!s.enabled()) {
                continue;
            }
            String at = "spec.schedulers[" + i + "].shadow.model";
            if (s.model().equals(pool.modelName())) {
                throw new InvalidConfigException(at + " '" + s.model() + "' is the model this pool serves; a shadow "
                        + "copies requests to another model or adapter");
            }
            PoolConfig serving = null;
            for (PoolConfig p : pools) {
                if (p.modelName().equals(s.model()) || p.loraAdapters().contains(s.model())) {
                    serving = p;
                }
            }
            if (serving == null) {
                throw new InvalidConfigException(at + " '" + s.model() + "' is served by no pool (no scheduler's "
                        + "modelName or loraAdapters names it)");
            }
            if (serving.global()) {
                throw new InvalidConfigException(at + " '" + s.model() + "' is served by pool '" + serving.name()
                        + "' of clusters and providers; shadow copies go to pods only");
            }
        }
    }
}
