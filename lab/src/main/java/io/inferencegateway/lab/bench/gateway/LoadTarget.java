package io.inferencegateway.lab.bench.gateway;

import java.net.InetSocketAddress;
import java.util.List;

/** Where the load generator sends requests for one run: normally one address, the gateway. */
public interface LoadTarget extends AutoCloseable {

    List<InetSocketAddress> targets();

    /** Whether target {@code i} takes new requests now (a replica killed mid-run does not). */
    default boolean live(int target) {
        return true;
    }

    /** Takes target {@code i} out of rotation and kills it; only gateway replicas can. */
    default void kill(int target) {
        throw new UnsupportedOperationException("this target cannot be killed");
    }

    @Override
    void close();
}
