package io.inferencegateway.lab.bench.gateway;

import java.net.InetSocketAddress;
import java.util.List;

/** Where the load generator sends requests for one run: normally one address, the gateway. */
public interface LoadTarget extends AutoCloseable {

    List<InetSocketAddress> targets();

    @Override
    void close();
}
