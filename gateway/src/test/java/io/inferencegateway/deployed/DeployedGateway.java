package io.inferencegateway.deployed;

import java.io.IOException;

import io.inferencegateway.testing.ConfigMapVolume;

/**
 * A running gateway as a client and an operator see it: an HTTP port, a mounted config volume that can be edited, and
 * the process's output.
 */
final class DeployedGateway implements AutoCloseable {

    private final ChildJvm jvm;
    private final int port;
    private final ConfigMapVolume config;

    DeployedGateway(ChildJvm jvm, int port, ConfigMapVolume config) {
        this.jvm = jvm;
        this.port = port;
        this.config = config;
    }

    /** The gateway's process, for a test that stops it itself (GracefulDrainIT). */
    Process process() {
        return jvm.process();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** Rewrites the mounted InferenceGatewayConfig the way the kubelet applies an edited ConfigMap. */
    void updateConfig(String yaml) throws IOException {
        config.update(yaml);
    }

    /** Everything the gateway printed so far. */
    String output() throws IOException {
        return jvm.output();
    }

    String tail(int lines) throws IOException {
        return jvm.tail(lines);
    }

    @Override
    public void close() throws InterruptedException {
        jvm.close();
    }
}
