package io.inferencegateway.bench.fleet;

import java.net.InetSocketAddress;
import java.util.List;

import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;

/** Starts a fleet of simulated vLLM pods (the referee) on ephemeral loopback ports. */
public final class SimulatorFleetLauncher implements FleetLauncher {

    @Override
    public Fleet start(FleetSpec spec, long seed) throws Exception {
        SimulatedFleet fleet = SimulatedFleet.start(FleetOptions.builder()
                .pods(spec.pods().size())
                .basePort(0)
                .adminPort(-1)
                .model(spec.modelName())
                .loras(spec.loraAdapters().size())
                .maxLoras(Math.max(1, spec.maxLoras()))
                .kvBlocks(spec.kvBlocksPerPod())
                .maxNumSeqs(spec.maxNumSeqs())
                .speeds(spec.pods().stream().map(PodSpec::speedFactor).toList())
                .timeScale(spec.timeScale())
                .seed(seed)
                .build());
        if (!fleet.adapterNames().equals(spec.loraAdapters())) {
            fleet.close();
            throw new IllegalStateException("the simulator names its adapters " + fleet.adapterNames()
                    + " but the scenario asks for " + spec.loraAdapters());
        }
        List<InetSocketAddress> endpoints = fleet.ports().stream()
                .map(port -> new InetSocketAddress("127.0.0.1", port)).toList();
        return new Fleet() {
            @Override
            public List<InetSocketAddress> endpoints() {
                return endpoints;
            }

            @Override
            public void close() {
                fleet.close();
            }
        };
    }
}
