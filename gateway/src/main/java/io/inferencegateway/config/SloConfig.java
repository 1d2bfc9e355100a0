package io.inferencegateway.config;

import java.util.Map;

import io.inferencegateway.domain.LatencyTargets;

/**
 * A pool's latency targets ({@code schedulers[].slo}): for requests that name none in their headers and whose tenant
 * names none, the targets of the model or adapter they ask for, else the pool's default (docs/slo.md).
 *
 * @param defaults the pool's targets; {@link LatencyTargets#NONE} when it has none
 * @param models   the targets of the pool's model or an adapter, by served name
 */
public record SloConfig(LatencyTargets defaults, Map<String, LatencyTargets> models) {

    public static final SloConfig NONE = new SloConfig(LatencyTargets.NONE, Map.of());

    public SloConfig {
        models = Map.copyOf(models);
    }

    /** The targets of a request for {@code model} (a served model or adapter name), field by field. */
    public LatencyTargets targetsFor(String model) {
        LatencyTargets own = model == null ? null : models.get(model);
        return own == null ? defaults : own.orElse(defaults);
    }
}
