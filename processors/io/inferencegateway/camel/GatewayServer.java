package io.inferencegateway.camel;

import java.nio.file.Path;
import java.util.Map;

import io.inferencegateway.edge.GatewayEventLoops;
import io.inferencegateway.runtime.Gateway;
import org.apache.camel.CamelContext;
import org.apache.camel.main.Main;

/**
 * Runs the gateway: Camel Main with the YAML routes of {@code routes/} and the Kamelets of {@code kamelets/}, both
 * from the jar. Camel K runs the same routes on its own runtime (camel-k/integration.yaml) and does not use this.
 */
public final class GatewayServer implements AutoCloseable {

    private final Main main;

    private GatewayServer(Main main) {
        this.main = main;
    }

    /** Builds the Camel Main that serves {@code config} on {@code port}; not started yet. */
    public static Main newMain(Path config, int port) {
        Main main = new Main();
        main.addInitialProperty("gateway.config", config.toAbsolutePath().toString());
        main.addInitialProperty("gateway.port", Integer.toString(port));
        main.addInitialProperty("camel.main.name", "inference-gateway");
        main.addInitialProperty("camel.main.routesIncludePattern", "classpath:routes/*.camel.yaml");
        main.addInitialProperty("camel.component.kamelet.location", "classpath:kamelets");
        // bodies are Netty buffers relayed as they are; nothing to cache
        main.addInitialProperty("camel.main.streamCachingEnabled", "false");
        // the client's HTTP headers stay Netty's (StreamingHttpBinding); Camel's own, set and read by constant, need
        // no case-insensitive map, which every header access and each copy between steps would pay for
        main.addInitialProperty("camel.main.caseInsensitiveHeaders", "false");
        // Netty's epoll transport wherever it loads (GatewayEventLoops); -Dgateway.nativeTransport=false overrides
        main.addInitialProperty("gateway.nativeTransport", Boolean.toString(GatewayEventLoops.nativeTransportAvailable()));
        return main;
    }

    /** Starts the gateway and returns once it listens. */
    public static GatewayServer start(Path config, int port) throws Exception {
        return start(config, port, Map.of());
    }

    /** Starts the gateway with extra Camel properties (e.g. {@code gateway.ioThreads}). */
    public static GatewayServer start(Path config, int port, Map<String, String> properties) throws Exception {
        Main main = newMain(config, port);
        properties.forEach(main::addInitialProperty);
        main.start();
        return new GatewayServer(main);
    }

    public CamelContext camelContext() {
        return main.getCamelContext();
    }

    public Gateway gateway() {
        return camelContext().getRegistry().lookupByNameAndType("gateway", Gateway.class);
    }

    @Override
    public void close() {
        main.stop();
    }
}
