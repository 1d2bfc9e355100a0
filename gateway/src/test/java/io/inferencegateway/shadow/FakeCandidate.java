package io.inferencegateway.shadow;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpServer;

import io.inferencegateway.domain.Endpoint;

/**
 * A candidate model server over real HTTP: records what each request carried and answers a chat completion with its
 * usage, at once or when the test lets it ({@link #hold}).
 */
final class FakeCandidate implements AutoCloseable {

    record Received(String body, String shadowHeader, String requestId, String authorization) {
    }

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    final List<Received> received = new CopyOnWriteArrayList<>();
    private volatile CountDownLatch gate = new CountDownLatch(0);

    FakeCandidate() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(threads);
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            received.add(new Received(body, exchange.getRequestHeaders().getFirst("x-gateway-shadow"),
                    exchange.getRequestHeaders().getFirst("x-request-id"),
                    exchange.getRequestHeaders().getFirst("authorization")));
            try {
                gate.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] answer = ("{\"id\":\"c1\",\"object\":\"chat.completion\",\"model\":\"llama-v2\",\"choices\":[{\"index\":0,"
                    + "\"message\":{\"role\":\"assistant\",\"content\":\"hi\"},\"finish_reason\":\"stop\"}],"
                    + "\"usage\":{\"prompt_tokens\":7,\"completion_tokens\":3,\"total_tokens\":10}}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("content-type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        });
        server.start();
    }

    /** Requests wait unanswered until {@link #release}. */
    void hold() {
        gate = new CountDownLatch(1);
    }

    void release() {
        gate.countDown();
    }

    Endpoint endpoint() {
        return new Endpoint("127.0.0.1", server.getAddress().getPort());
    }

    @Override
    public void close() {
        release();
        server.stop(0);
        threads.shutdownNow();
    }
}
