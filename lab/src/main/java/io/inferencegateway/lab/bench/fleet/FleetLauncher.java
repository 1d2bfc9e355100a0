package io.inferencegateway.lab.bench.fleet;

/**
 * Starts a fleet for one run. The seam for the simulator: an implementation builds the simulated
 * pods from the spec (speed factors, adapters, max_loras, KV blocks, engine limits, time scale),
 * starts them on free loopback ports and returns when every pod answers.
 */
@FunctionalInterface
public interface FleetLauncher {

    /**
     * @param seed the run seed, for any randomness inside the fleet
     */
    Fleet start(FleetSpec spec, long seed) throws Exception;

    /**
     * The fleet a scenario actually runs on, given the one it asks for: the same for the fleets the bench starts;
     * a user's own servers for {@link ExternalFleetLauncher}, whatever the scenario would have simulated.
     */
    default FleetSpec fleetFor(FleetSpec scenarioFleet) {
        return scenarioFleet;
    }
}
