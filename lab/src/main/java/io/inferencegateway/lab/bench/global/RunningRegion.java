package io.inferencegateway.lab.bench.global;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.inferencegateway.lab.bench.fleet.Fleet;
import io.inferencegateway.lab.bench.fleet.FleetLauncher;
import io.inferencegateway.lab.bench.fleet.FleetSpec;
import io.inferencegateway.lab.bench.gateway.GatewayConfigWriter;
import io.inferencegateway.lab.bench.gateway.GatewayProcess;
import io.inferencegateway.lab.regions.DelayProxy;

/**
 * One region while a run lasts: its simulated pods, its cluster gateway (a process, gpu-aware with flow control, as
 * a cluster runs it) and the delayed link the tier reaches it through. The gateway is spawned, not yet ready: the
 * runner waits for every region's and the tier's gateway together.
 */
final class RunningRegion implements AutoCloseable {

    private final RegionProfile spec;
    private final Fleet fleet;
    private final GatewayProcess gateway;
    private final DelayProxy link;

    private RunningRegion(RegionProfile spec, Fleet fleet, GatewayProcess gateway, DelayProxy link) {
        this.spec = spec;
        this.fleet = fleet;
        this.gateway = gateway;
        this.link = link;
    }

    /**
     * Starts the pods, spawns the cluster gateway in front of them with its config and log in {@code workDir}, and
     * opens the link to it.
     *
     * @param routeTimeout    the cluster gateway's limit for a pod's response, simulated time
     * @param metricsInterval its scrape interval, simulated time
     */
    static RunningRegion start(RegionProfile spec, FleetLauncher fleets, FleetSpec fleetSpec, long seed,
                               List<String> command, Duration routeTimeout, Duration metricsInterval, Path workDir)
            throws Exception {
        Files.createDirectories(workDir);
        Fleet fleet = fleets.start(fleetSpec, seed);
        GatewayProcess gateway = null;
        try {
            Path config = workDir.resolve("gateway.yaml");
            Files.writeString(config, GatewayConfigWriter.render(fleetSpec, "gpu-aware", fleet.endpoints(), routeTimeout,
                    metricsInterval, null, false, true));
            int port = GatewayProcess.freePort();
            gateway = GatewayProcess.spawn(command, config, port, workDir.resolve("gateway.log"));
            DelayProxy link = DelayProxy.start(spec.cluster(), new InetSocketAddress("127.0.0.1", 0),
                    gateway.address(), spec.wallDelay(fleetSpec.timeScale()));
            return new RunningRegion(spec, fleet, gateway, link);
        } catch (Exception | Error e) {
            if (gateway != null) {
                gateway.close();
            }
            fleet.close();
            throw e;
        }
    }

    RegionProfile spec() {
        return spec;
    }

    GatewayProcess gateway() {
        return gateway;
    }

    /** Where the tier reaches the cluster: the near end of the link. */
    InetSocketAddress linkAddress() {
        return link.address();
    }

    /** The cluster gateway itself, as its own region's clients reach it (no link). */
    InetSocketAddress gatewayAddress() {
        return gateway.address();
    }

    /** The region is lost to the tier, as {@code how} says. */
    void lose(ClusterLoss how) {
        switch (how) {
            case KILL -> gateway.kill();
            case RESET -> link.cut(DelayProxy.CutMode.RESET);
            case BLACKHOLE -> link.cut(DelayProxy.CutMode.BLACKHOLE);
            default -> throw new IllegalArgumentException("unknown loss " + how);
        }
    }

    @Override
    public void close() {
        try {
            link.close();
        } finally {
            try {
                gateway.close();
            } finally {
                fleet.close();
            }
        }
    }
}
