package io.inferencegateway.lab.bench.gateway;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;

import io.inferencegateway.lab.bench.fleet.FleetSpec;

/** Puts a router with the given policy in front of the pods for one run. */
@FunctionalInterface
public interface GatewayLauncher {

    /**
     * @param policy  the bench policy label: the gateway's gpu-aware, round-robin, least-request, random, or a
     *                variant such as gpu-aware-no-slo ({@link BenchPolicy})
     * @param pods    the fleet's endpoints
     * @param workDir a directory for this run's config and log files
     */
    LoadTarget start(FleetSpec fleet, String policy, List<InetSocketAddress> pods, Path workDir) throws Exception;

    /**
     * {@code replicas} routers with the same policy in front of the same pods, configured as {@code mode} says.
     * Only a launcher of real gateway processes can; others serve one naive replica.
     */
    default LoadTarget start(FleetSpec fleet, String policy, int replicas, ReplicaMode mode,
                             List<InetSocketAddress> pods, Path workDir) throws Exception {
        if (replicas != 1 || mode != ReplicaMode.NAIVE) {
            throw new IllegalArgumentException("gateway replicas need --gateway process");
        }
        return start(fleet, policy, pods, workDir);
    }

    /**
     * No gateway: the load generator spreads requests over the pods itself, round-robin. For checking
     * the instrument and measuring what the gateway hop costs; every policy name gives the same result.
     */
    static GatewayLauncher direct() {
        return (fleet, policy, pods, workDir) -> new LoadTarget() {
            @Override
            public List<InetSocketAddress> targets() {
                return List.copyOf(pods);
            }

            @Override
            public void close() {
            }
        };
    }
}
