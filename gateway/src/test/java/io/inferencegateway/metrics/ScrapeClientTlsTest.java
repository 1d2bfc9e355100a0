package io.inferencegateway.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.proxy.UpstreamTls;
import io.inferencegateway.testing.TestPki;
import io.inferencegateway.testing.TestUpstream;

/**
 * A scrape over HTTPS (the global tier polls remote gateways' capacity over TLS): answered by a server the CA vouches
 * for, on one kept-alive connection; refused, with the TLS reason, by one it does not.
 */
class ScrapeClientTlsTest {

    @TempDir
    static Path dir;
    static TestPki pki;
    static TestUpstream server;
    static ScrapeClient client;

    @BeforeAll
    static void start() throws Exception {
        pki = TestPki.create(dir);
        server = new TestUpstream(pki.serverContext(pki.server(), false));
        client = new ScrapeClient(1, Duration.ofSeconds(2), 1 << 20);
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    @Test
    void aScrapeOverTlsIsAnsweredAndItsConnectionKeptForTheNext() throws Exception {
        Endpoint target = new Endpoint("localhost", server.port());
        UpstreamTls tls = UpstreamTls.client(pki.caFile(), null, null);
        int before = server.connectionsAccepted();
        for (int i = 0; i < 3; i++) {
            String body = get(target, tls).get(5, TimeUnit.SECONDS);
            assertThat(body).startsWith("200 ").contains("vllm:num_requests_waiting");
        }
        assertThat(server.connectionsAccepted() - before).as("one connection for the three").isEqualTo(1);
        assertThat(server.tlsConnections()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void aScrapeOfAServerTheCaDoesNotVouchForFailsWithTheTlsReason() throws Exception {
        try (TestUpstream stranger = new TestUpstream(pki.serverContext(pki.untrustedServer(), false))) {
            CompletableFuture<String> answer = get(new Endpoint("127.0.0.1", stranger.port()),
                    UpstreamTls.client(pki.caFile(), null, null));
            assertThat(answer.get(5, TimeUnit.SECONDS)).startsWith("failed").containsIgnoringCase("SSL");
            assertThat(stranger.received()).isEmpty();
        }
    }

    /** {@code "<status> <body>"}, or {@code "failed <cause>"}, or {@code "timed out"}. */
    private static CompletableFuture<String> get(Endpoint target, UpstreamTls tls) {
        CompletableFuture<String> done = new CompletableFuture<>();
        client.get(target, "/metrics", null, tls, new ScrapeClient.Answer() {
            @Override
            public void answered(int status, byte[] body, int offset, int length) {
                done.complete(status + " " + new String(body, offset, length, StandardCharsets.UTF_8));
            }

            @Override
            public void failed(Throwable cause) {
                done.complete("failed " + cause);
            }

            @Override
            public void timedOut() {
                done.complete("timed out");
            }
        });
        return done;
    }
}
