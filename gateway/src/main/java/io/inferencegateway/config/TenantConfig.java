package io.inferencegateway.config;

import java.util.List;
import java.util.Set;

import io.inferencegateway.domain.LatencyTargets;
import io.inferencegateway.domain.Residency;

/**
 * One tenant ({@code spec.tenants[]}): what it may use and how much. See docs/auth.md.
 *
 * @param name        the tenant, as an API key's line or a JWT's tenant claim names it; also a metric label
 * @param models      the base models it may use; null: all
 * @param adapters    the LoRA adapters it may use (of models it may use); null: all
 * @param priority    its default priority (io.inferencegateway.domain.Priority: critical 1, standard 0, sheddable -1,
 *                    or another integer) for flow control
 * @param limits      its limits over all models
 * @param modelLimits its limits for one model each (a served model or adapter name)
 * @param slo         the latency targets of its requests that name none ({@link LatencyTargets#NONE}: the pool's)
 * @param residency   where a global tier may serve it: its regions, and whether external providers may
 */
public record TenantConfig(String name, Set<String> models, Set<String> adapters, int priority, Limits limits,
        List<ModelLimits> modelLimits, LatencyTargets slo, Residency residency) {

    /** Per-window budgets; 0 means unlimited. */
    public record Limits(long requestsPerMinute, long tokensPerMinute) {
        public static final Limits NONE = new Limits(0, 0);

        public boolean any() {
            return requestsPerMinute > 0 || tokensPerMinute > 0;
        }
    }

    public record ModelLimits(String model, Limits limits) {
    }

    public TenantConfig {
        models = models == null ? null : Set.copyOf(models);
        adapters = adapters == null ? null : Set.copyOf(adapters);
        modelLimits = List.copyOf(modelLimits);
        slo = slo == null ? LatencyTargets.NONE : slo;
        residency = residency == null ? Residency.ANY : residency;
    }

    public TenantConfig(String name, Set<String> models, Set<String> adapters, int priority, Limits limits,
            List<ModelLimits> modelLimits, LatencyTargets slo) {
        this(name, models, adapters, priority, limits, modelLimits, slo, Residency.ANY);
    }

    /**
     * Whether it may use {@code baseModel}, or {@code adapter} of it when that is not null: an adapter listed in
     * {@code adapters} (or in {@code models}), or any adapter of an allowed model while {@code adapters} is unset.
     */
    public boolean allows(String baseModel, String adapter) {
        if (adapter == null) {
            return models == null || models.contains(baseModel);
        }
        if (adapters != null) {
            return adapters.contains(adapter) || (models != null && models.contains(adapter));
        }
        return models == null || models.contains(baseModel) || models.contains(adapter);
    }

    /** Its limits for requests of the model or adapter named {@code model}; {@link Limits#NONE} when none. */
    public Limits limitsFor(String model) {
        for (ModelLimits m : modelLimits) {
            if (m.model().equals(model)) {
                return m.limits();
            }
        }
        return Limits.NONE;
    }

    /** True when no request of this tenant is ever counted (no store round trip). */
    public boolean unlimited() {
        if (limits.any()) {
            return false;
        }
        for (ModelLimits m : modelLimits) {
            if (m.limits().any()) {
                return false;
            }
        }
        return true;
    }
}
