package io.inferencegateway.lab.bench.fleet;

import java.net.InetSocketAddress;
import java.util.List;

/** Model servers up and answering on loopback, one per pod of a {@link FleetSpec}, in the same order. */
public interface Fleet extends AutoCloseable {

    List<InetSocketAddress> endpoints();

    /** Each pod's state now, in pod order, read from the pods themselves; empty when the fleet cannot tell. */
    default List<PodSample> sample() {
        return List.of();
    }

    /** GET /metrics requests the pods have answered since they started, summed; -1 when the fleet cannot tell. */
    default long metricsScrapes() {
        return -1;
    }

    /** Stops every pod; the bench starts a fresh fleet for each policy so no cache state carries over. */
    @Override
    void close();
}
