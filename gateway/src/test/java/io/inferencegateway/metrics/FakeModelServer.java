package io.inferencegateway.metrics;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;

import io.inferencegateway.domain.Endpoint;

/**
 * A loopback HTTP server standing in for a model server's metrics endpoint. Tests change what it answers while it
 * runs: the body, the status, or holding every answer until released.
 */
final class FakeModelServer implements AutoCloseable {

    private final HttpServer server;
    private final AtomicInteger requests = new AtomicInteger();
    private volatile byte[] body = new byte[0];
    private volatile int status = 200;
    /** Answers for particular paths, ahead of {@link #body} and {@link #status}. */
    private final ConcurrentHashMap<String, Answer> byPath = new ConcurrentHashMap<>();
    private volatile CountDownLatch gate = new CountDownLatch(0);
    private volatile String lastPath;
    private volatile String lastQuery;
    private volatile String lastAuthorization;
    private volatile boolean closingConnections;
    private final Set<Integer> clientPorts = ConcurrentHashMap.newKeySet();

    FakeModelServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.createContext("/", exchange -> {
            requests.incrementAndGet();
            clientPorts.add(exchange.getRemoteAddress().getPort());
            lastPath = exchange.getRequestURI().getPath();
            lastQuery = exchange.getRequestURI().getRawQuery();
            lastAuthorization = exchange.getRequestHeaders().getFirst("Authorization");
            try {
                // bounded so that a forgotten release cannot hang the JVM at shutdown
                gate.await(30, TimeUnit.SECONDS);
                Answer own = byPath.get(lastPath);
                byte[] answer = own == null ? body : own.body();
                exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
                if (closingConnections) {
                    exchange.getResponseHeaders().set("Connection", "close");
                }
                exchange.sendResponseHeaders(own == null ? status : own.status(),
                        answer.length == 0 ? -1 : answer.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(answer);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException clientWentAway) {
                // the scraper cancelled: nothing to do
            } finally {
                exchange.close();
            }
        });
        server.setExecutor(Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "fake-model-server");
            t.setDaemon(true);
            return t;
        }));
        server.start();
    }

    Endpoint endpoint() {
        return new Endpoint("127.0.0.1", server.getAddress().getPort());
    }

    FakeModelServer serving(byte[] text) {
        this.body = text;
        return this;
    }

    /** Answers GETs of {@code path} with {@code httpStatus} and {@code text}, whatever the others get. */
    FakeModelServer at(String path, int httpStatus, byte[] text) {
        byPath.put(path, new Answer(httpStatus, text));
        return this;
    }

    private record Answer(int status, byte[] body) {
    }

    FakeModelServer answering(int httpStatus) {
        this.status = httpStatus;
        return this;
    }

    /** Holds every answer until {@link #release()}. */
    FakeModelServer holding() {
        this.gate = new CountDownLatch(1);
        return this;
    }

    /** Answers with {@code Connection: close} and closes each connection after one answer. */
    FakeModelServer closingConnections() {
        this.closingConnections = true;
        return this;
    }

    void release() {
        gate.countDown();
    }

    int requests() {
        return requests.get();
    }

    /** How many connections requests came over (told apart by the client's port). */
    int connections() {
        return clientPorts.size();
    }

    String lastPath() {
        return lastPath;
    }

    /** The last request's query, still URL-encoded; null without one. */
    String lastQuery() {
        return lastQuery;
    }

    /** The last request's Authorization header, or null. */
    String lastAuthorization() {
        return lastAuthorization;
    }

    @Override
    public void close() {
        release();
        server.stop(0);
    }
}
