package io.inferencegateway.lab.bench;

import io.inferencegateway.lab.bench.fleet.FleetSpec;
import io.inferencegateway.lab.bench.gateway.RolloutConfigWriter;

/** The standard rollout scenario's parts, for tests in other packages. */
public final class RolloutScenarioAccess {

    private RolloutScenarioAccess() {
    }

    public static FleetSpec standardBaseline() {
        return RolloutScenario.standard().baseline();
    }

    public static RolloutConfigWriter.Plan standardPlan() {
        return RolloutScenario.standard().plan();
    }
}
