package io.inferencegateway.lab.bench.fleet;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.sun.net.httpserver.HttpServer;

/** A loopback server answering GETs with set statuses and bodies per path (404 for others), for the probes. */
final class FakeModelServer implements AutoCloseable {

    private final HttpServer server;
    private final Map<String, Integer> statuses = new ConcurrentHashMap<>();
    private final Map<String, String> bodies = new ConcurrentHashMap<>();

    FakeModelServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            byte[] body = bodies.getOrDefault(path, "").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(statuses.getOrDefault(path, 404), body.length == 0 ? -1 : body.length);
            if (body.length > 0) {
                exchange.getResponseBody().write(body);
            }
            exchange.close();
        });
        server.start();
    }

    FakeModelServer answer(String path, int status, String body) {
        statuses.put(path, status);
        bodies.put(path, body);
        return this;
    }

    InetSocketAddress address() {
        return new InetSocketAddress("127.0.0.1", server.getAddress().getPort());
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
