package io.inferencegateway.lab.bench.gateway;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;

import com.sun.net.httpserver.HttpServer;

/**
 * Stands in for {@code inference-gateway.jar serve --config FILE --port N} in process tests: reads the
 * config, answers {@code GET /ready} with 503 for a moment, then 200. The policy in the config picks a
 * misbehaviour: {@code crash} exits at once, {@code never-ready} stays at 503.
 */
public final class FakeGatewayMain {

    public static void main(String[] args) throws IOException {
        if (args.length != 5 || !args[0].equals("serve") || !args[1].equals("--config") || !args[3].equals("--port")) {
            System.err.println("usage: serve --config FILE --port N");
            System.exit(2);
        }
        String config = Files.readString(Path.of(args[2]));
        if (config.contains("policy: crash")) {
            System.err.println("invalid config: spec.schedulers[0].policy must be one of gpu-aware, ...");
            System.exit(2);
        }
        boolean neverReady = config.contains("policy: never-ready");
        long readyAt = System.nanoTime() + 300_000_000L;
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                Integer.parseInt(args[4])), 16);
        server.createContext("/ready", exchange -> {
            int status = !neverReady && System.nanoTime() > readyAt ? 200 : 503;
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
        System.out.println("fake gateway listening on " + args[4]);
    }
}
