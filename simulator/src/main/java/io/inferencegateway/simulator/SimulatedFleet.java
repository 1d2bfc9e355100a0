package io.inferencegateway.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * A fleet of simulated vLLM pods in one process, each on its own port, all driven by a few shared
 * Netty event loops (no thread per pod, request or stream). Start with {@link #start}, close to stop.
 *
 * <pre>{@code
 * try (SimulatedFleet fleet = SimulatedFleet.start(FleetOptions.builder().pods(4).timeScale(10).build())) {
 *     int port = fleet.pod(0).port();
 *     fleet.pod(1).kill();
 * }
 * }</pre>
 */
public final class SimulatedFleet implements AutoCloseable {

    private final FleetOptions options;
    private final EventLoopGroup group;
    private final List<SimulatedPod> pods = new ArrayList<>();
    private FleetAdminServer admin;

    private SimulatedFleet(FleetOptions options) {
        this.options = options;
        boolean epoll = Epoll.isAvailable();
        DefaultThreadFactory threads = new DefaultThreadFactory("sim-pod", true);
        this.group = epoll ? new EpollEventLoopGroup(options.ioThreads(), threads)
                : new NioEventLoopGroup(options.ioThreads(), threads);
        Class<? extends ServerChannel> serverType = epoll ? EpollServerSocketChannel.class
                : NioServerSocketChannel.class;
        for (int i = 0; i < options.pods(); i++) {
            int port = options.basePort() == 0 ? 0 : options.basePort() + i;
            pods.add(new SimulatedPod(i, options.engineConfig(i), options.engine(), options.timeScale(), group,
                    group.next(), serverType, options.host(), port));
        }
    }

    /** Starts every pod (and the admin API when {@code adminPort >= 0}); fails if a port is taken. */
    public static SimulatedFleet start(FleetOptions options) {
        SimulatedFleet fleet = new SimulatedFleet(options);
        try {
            for (SimulatedPod p : fleet.pods) {
                p.revive();
            }
            if (options.adminPort() >= 0) {
                fleet.admin = FleetAdminServer.start(fleet, options.host(), options.adminPort());
            }
            return fleet;
        } catch (RuntimeException e) {
            fleet.close();
            throw e;
        }
    }

    public FleetOptions options() {
        return options;
    }

    public int size() {
        return pods.size();
    }

    public SimulatedPod pod(int i) {
        return pods.get(i);
    }

    public List<SimulatedPod> pods() {
        return List.copyOf(pods);
    }

    /** Ports of the pods, in order. */
    public List<Integer> ports() {
        List<Integer> ports = new ArrayList<>();
        for (SimulatedPod p : pods) {
            ports.add(p.port());
        }
        return ports;
    }

    /** "host:port" of every pod, in order (the gateway's static endpoints). */
    public List<String> endpoints() {
        List<String> out = new ArrayList<>();
        for (SimulatedPod p : pods) {
            out.add(p.host() + ":" + p.port());
        }
        return out;
    }

    /** Port of the admin API, or -1 when there is none. */
    public int adminPort() {
        return admin == null ? -1 : admin.port();
    }

    public List<String> adapterNames() {
        return options.adapterNames();
    }

    /** Total generation requests aborted by client disconnects, over all pods. */
    public long abortedRequests() {
        return pods.stream().mapToLong(SimulatedPod::abortedRequests).sum();
    }

    /** Total generation requests served to completion, over all pods. */
    public long requestsServed() {
        return pods.stream().mapToLong(SimulatedPod::requestsServed).sum();
    }

    @Override
    public void close() {
        if (admin != null) {
            admin.close();
        }
        for (SimulatedPod p : pods) {
            try {
                p.kill();
            } catch (RuntimeException ignored) {
                // best effort while shutting down
            }
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
