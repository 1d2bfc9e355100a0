package io.inferencegateway.lab.bench.gateway;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;

import io.inferencegateway.simulator.RedisServer;

/**
 * N gateway processes with the same config in front of one fleet, as a Kubernetes Service sees its
 * ready replicas: the load generator spreads requests over the {@link #live} ones. {@link #kill} takes
 * one out of rotation first (the Service dropping a pod that stopped being ready) and then kills its
 * process with SIGKILL, so requests in flight to it fail and no later request is sent to it.
 */
public final class GatewayReplicas implements LoadTarget {

    private final List<GatewayProcess> gateways;
    private final List<InetSocketAddress> addresses;
    private final AtomicIntegerArray down;
    private final RedisServer redis;

    /** @param redis what the replicas share their decisions through, stopped with them; null for none */
    public GatewayReplicas(List<GatewayProcess> gateways, RedisServer redis) {
        this.gateways = List.copyOf(gateways);
        this.redis = redis;
        this.addresses = this.gateways.stream().map(GatewayProcess::address).toList();
        this.down = new AtomicIntegerArray(gateways.size());
    }

    @Override
    public List<InetSocketAddress> targets() {
        return addresses;
    }

    @Override
    public boolean live(int target) {
        return down.get(target) == 0;
    }

    /** Takes replica {@code i} out of rotation, then kills it without a chance to drain. */
    @Override
    public void kill(int i) {
        down.set(i, 1);
        gateways.get(i).kill();
    }

    @Override
    public void close() {
        for (GatewayProcess g : gateways) {
            g.close();
        }
        if (redis != null) {
            try {
                redis.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
