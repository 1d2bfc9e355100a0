package io.inferencegateway.lab.bench.fleet;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.inferencegateway.lab.bench.stub.StubBehaviour;
import io.inferencegateway.lab.bench.stub.StubModelServer;
import io.netty.channel.nio.NioEventLoopGroup;

/**
 * A stand-in fleet of {@link StubModelServer}s until the simulator is wired: each pod serves
 * {@code maxNumSeqs} requests at once (FIFO beyond), with a prefill cost per prompt token and a fixed
 * time per output token, both divided by the pod's speed factor. No KV cache and no adapters, so only
 * queueing and speed differences show; good for checking the instrument end to end, not for claims.
 */
public final class StubFleetLauncher implements FleetLauncher {

    /** Reference-pod costs in simulated time, from the decode/prefill costs the simulator is calibrated to (simulator/StepCostModel). */
    static final Duration FIRST_TOKEN = Duration.ofMillis(7);
    static final Duration PER_PROMPT_TOKEN = Duration.ofNanos(31_000);
    static final Duration INTER_TOKEN = Duration.ofMillis(10);

    @Override
    public Fleet start(FleetSpec spec, long seed) throws InterruptedException {
        NioEventLoopGroup group = new NioEventLoopGroup(1);
        List<StubModelServer> servers = new ArrayList<>();
        try {
            for (PodSpec pod : spec.pods()) {
                StubBehaviour behaviour = new StubBehaviour(FIRST_TOKEN, PER_PROMPT_TOKEN, INTER_TOKEN, spec.maxNumSeqs(),
                        pod.speedFactor(), spec.timeScale());
                servers.add(new StubModelServer(group, 0, behaviour, false));
            }
        } catch (InterruptedException | RuntimeException e) {
            servers.forEach(StubModelServer::close);
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
        return new Fleet() {
            @Override
            public List<InetSocketAddress> endpoints() {
                return servers.stream().map(StubModelServer::address).toList();
            }

            @Override
            public void close() {
                servers.forEach(StubModelServer::close);
                group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            }
        };
    }
}
