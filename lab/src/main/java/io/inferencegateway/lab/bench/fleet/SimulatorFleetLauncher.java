package io.inferencegateway.lab.bench.fleet;

import java.net.InetSocketAddress;
import java.util.List;

import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.simulator.SimulatedPod;

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
            public List<PodSample> sample() {
                return fleet.pods().stream().map(SimulatorFleetLauncher::sample).toList();
            }

            @Override
            public long metricsScrapes() {
                return fleet.pods().stream().mapToLong(SimulatedPod::metricsScrapes).sum();
            }

            @Override
            public int inject(PodFault fault) {
                SimulatedPod pod = fleet.pod(fault.pod());
                int held = pod.isKilled() ? 0 : pod.running() + pod.waiting();
                switch (fault.kind()) {
                    case KILL -> pod.kill();
                    case SLOW -> pod.speed(fault.value());
                    case UNAVAILABLE -> pod.inferenceUnavailable(true);
                    case BROKEN_METRICS -> pod.garbleMetrics();
                    case ERRORS -> pod.inferenceErrors(fault.value());
                    default -> throw new IllegalArgumentException("unknown fault " + fault.kind());
                }
                return held;
            }

            @Override
            public List<String> cutByKill(int pod) {
                return fleet.pod(pod).requestsCutByKill();
            }

            @Override
            public void close() {
                fleet.close();
            }
        };
    }

    /** The pod's queue from its engine; its counters from its own /metrics text (vLLM names). */
    static PodSample sample(SimulatedPod pod) {
        if (pod.isKilled()) {
            return new PodSample(0, 0, 0, pod.requestsServed(), 0, 0, 0);
        }
        String text = pod.metricsText();
        return new PodSample(pod.waiting(), pod.running(), pod.kvUsage(), pod.requestsServed(),
                (long) counter(text, "vllm:prefix_cache_queries_total"), (long) counter(text, "vllm:prefix_cache_hits_total"),
                (long) counter(text, "vllm:num_preemptions_total"));
    }

    /** The value of the first sample of a metric in Prometheus text, 0 when absent. */
    static double counter(String text, String name) {
        int at = 0;
        while ((at = text.indexOf(name, at)) >= 0) {
            boolean lineStart = at == 0 || text.charAt(at - 1) == '\n';
            int after = at + name.length();
            if (lineStart && after < text.length() && (text.charAt(after) == '{' || text.charAt(after) == ' ')) {
                int eol = text.indexOf('\n', after);
                String line = text.substring(after, eol < 0 ? text.length() : eol);
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
            at = after;
        }
        return 0;
    }
}
