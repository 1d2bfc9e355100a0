package io.inferencegateway.e2e;

import java.util.Map;

import org.junit.jupiter.api.BeforeAll;

import io.netty.channel.nio.NioEventLoopGroup;

/**
 * {@link StreamingProxyTest} on the JDK's NIO transport: what {@code gateway.nativeTransport=false} chooses, and what
 * Camel K's runtime, which brings no native Netty library, runs on.
 */
class StreamingProxyNioTest extends StreamingProxyTest {

    @BeforeAll
    static void start() throws Exception {
        start(Map.of("gateway.nativeTransport", "false"), NioEventLoopGroup.class);
    }
}
