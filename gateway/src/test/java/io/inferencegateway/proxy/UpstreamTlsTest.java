package io.inferencegateway.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.testing.TestPki;
import io.inferencegateway.testing.TestUpstream;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.handler.codec.http.HttpResponse;

/**
 * Calls to model servers over HTTPS: the server's certificate is checked against the CA file and the target's name
 * (DNS or IP), a client certificate is presented when the server asks, and a server that cannot be verified fails the
 * call at once as a refused connection would, leaving no connection behind. TLS connections are kept alive and pooled
 * apart from plain ones to the same endpoint.
 */
class UpstreamTlsTest {

    @TempDir
    static Path dir;
    static TestPki pki;
    static EventLoopGroup loops;
    static UpstreamClient client;
    static TestUpstream trusted;
    static TestUpstream untrusted;
    static TestUpstream mismatched;
    static TestUpstream mutual;

    @BeforeAll
    static void start() throws Exception {
        pki = TestPki.create(dir.resolve("pki"));
        loops = new NioEventLoopGroup(1);
        var defaults = UpstreamClient.Options.defaults();
        client = new UpstreamClient(new UpstreamClient.Options(1, Duration.ofMillis(500),
                defaults.idleConnectionTimeout(), defaults.maxIdleConnectionsPerEndpoint()));
        trusted = new TestUpstream(pki.serverContext(pki.server(), false)).behave(new TestUpstream.Json(200, "{}"));
        untrusted = new TestUpstream(pki.serverContext(pki.untrustedServer(), false));
        mismatched = new TestUpstream(pki.serverContext(pki.mismatchedServer(), false))
                .behave(new TestUpstream.Json(200, "{}"));
        mutual = new TestUpstream(pki.serverContext(pki.server(), true)).behave(new TestUpstream.Json(200, "{}"));
    }

    @AfterAll
    static void stop() {
        client.close();
        for (TestUpstream u : List.of(trusted, untrusted, mismatched, mutual)) {
            u.close();
        }
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @ParameterizedTest(name = "by {0}")
    @ValueSource(strings = {"127.0.0.1", "localhost"})
    void aServerSignedByTheConfiguredCaAnswersWhetherReachedByAddressOrByName(String host) throws Exception {
        Endpoint target = new Endpoint(host, trusted.port());
        int before = trusted.tlsConnections();
        Outcome outcome = call(target, UpstreamTls.client(pki.caFile(), null, null));
        assertThat(outcome.status()).isEqualTo(200);
        assertThat(trusted.tlsConnections()).as("it went over TLS").isEqualTo(before + 1);
    }

    @Test
    void aServerSignedByAnotherCaFailsTheCallAtOnceAsARefusedConnection() throws Exception {
        Endpoint target = new Endpoint("127.0.0.1", untrusted.port());
        long start = System.nanoTime();
        Outcome outcome = call(target, UpstreamTls.client(pki.caFile(), null, null));
        assertThat(outcome.failure().kind()).isEqualTo(UpstreamFailure.Stage.CONNECT);
        assertThat(outcome.failure().detail()).startsWith("TLS handshake with " + target + " failed");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
        assertThat(untrusted.received()).as("nothing was sent").isEmpty();
        assertThat(client.idleConnections(target)).as("the connection was closed, not pooled").isZero();
    }

    @Test
    void aServerWhoseCertificateNamesAnotherHostFailsTheCallUnlessThatNameIsExpected() throws Exception {
        Endpoint target = new Endpoint("127.0.0.1", mismatched.port());
        UpstreamTls tls = UpstreamTls.client(pki.caFile(), null, null);
        Outcome outcome = call(target, tls);
        assertThat(outcome.failure().kind()).isEqualTo(UpstreamFailure.Stage.CONNECT);
        assertThat(outcome.failure().detail()).contains("TLS handshake").contains("127.0.0.1");
        assertThat(mismatched.received()).isEmpty();

        assertThat(call(target, tls.withServerName("other.example")).status())
                .as("verified against the name the certificate carries").isEqualTo(200);
    }

    @Test
    void theJdksTrustStoreIsUsedWithoutACaFileAndDoesNotTrustATestCa() throws Exception {
        Outcome outcome = call(new Endpoint("localhost", trusted.port()), UpstreamTls.systemDefault());
        assertThat(outcome.failure().kind()).isEqualTo(UpstreamFailure.Stage.CONNECT);
    }

    @Test
    void aServerThatRequiresAClientCertificateAnswersTheClientThatPresentsOne() throws Exception {
        Endpoint target = new Endpoint("127.0.0.1", mutual.port());
        Outcome with = call(target, UpstreamTls.client(pki.caFile(), pki.client().cert(), pki.client().key()));
        assertThat(with.status()).isEqualTo(200);

        int received = mutual.received().size();
        Outcome without = call(target, UpstreamTls.client(pki.caFile(), null, null));
        assertThat(without.failure()).as("refused").isNotNull();
        assertThat(without.failure().kind()).as("another endpoint may be tried").isEqualTo(UpstreamFailure.Stage.CONNECT);
        assertThat(without.failure().detail()).contains("TLS handshake");
        assertThat(mutual.received()).as("the server's HTTP layer saw nothing").hasSize(received);
    }

    @Test
    void aServerThatNeverFinishesTheHandshakeFailsTheCallWithinTheConnectTimeout() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 10, java.net.InetAddress.getLoopbackAddress())) {
            List<Socket> accepted = new ArrayList<>();
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        accepted.add(silent.accept()); // and never answers the ClientHello
                    }
                } catch (Exception closed) {
                    // the test is over
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            long start = System.nanoTime();
            Outcome outcome = call(new Endpoint("127.0.0.1", silent.getLocalPort()),
                    UpstreamTls.client(pki.caFile(), null, null));
            assertThat(outcome.failure().kind()).isEqualTo(UpstreamFailure.Stage.CONNECT);
            assertThat(outcome.failure().detail()).contains("TLS handshake");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("the 500 ms connect timeout bounds it")
                    .isLessThan(Duration.ofSeconds(3));
            for (Socket s : accepted) {
                s.close();
            }
        }
    }

    @Test
    void tlsAndPlainConnectionsToOneEndpointArePooledApartAndEachIsReused() throws Exception {
        try (TestUpstream both = new TestUpstream(pki.serverContext(pki.server(), false))
                .behave(new TestUpstream.Json(200, "{}"))) {
            Endpoint target = new Endpoint("127.0.0.1", both.port());
            UpstreamTls tls = UpstreamTls.client(pki.caFile(), null, null);
            for (int i = 0; i < 3; i++) {
                assertThat(call(target, tls).status()).isEqualTo(200);
                assertThat(call(target, null).status()).isEqualTo(200);
            }
            assertThat(both.received()).hasSize(6);
            assertThat(both.connectionsAccepted()).as("one TLS and one plain connection, each kept alive").isEqualTo(2);
            assertThat(both.tlsConnections()).isEqualTo(1);
            assertThat(client.idleConnections(target, tls)).isEqualTo(1);
            assertThat(client.idleConnections(target, null)).isEqualTo(1);
        }
    }

    @Test
    void aMissingOrNonPemFileIsNamedInTheError() throws Exception {
        Path missing = dir.resolve("nope.pem");
        Path notPem = Files.writeString(dir.resolve("not-pem.txt"), "hello");
        assertThatThrownBy(() -> UpstreamTls.client(missing, null, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("CA file " + missing);
        assertThatThrownBy(() -> UpstreamTls.client(notPem, null, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(notPem + " is not PEM");
        assertThatThrownBy(() -> UpstreamTls.client(null, pki.client().cert(), notPem))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("client key file " + notPem);
        assertThatThrownBy(() -> UpstreamTls.client(null, pki.client().cert(), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("without a client key file");
        assertThatThrownBy(() -> UpstreamTls.client(null, pki.client().key(), pki.client().key()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("client certificate file " + pki.client().key());
    }

    /** How one call ended: a status, or a failure. */
    record Outcome(int status, UpstreamFailure failure) {
    }

    private static Outcome call(Endpoint target, UpstreamTls tls) throws Exception {
        EventLoop loop = loops.next();
        CompletableFuture<Outcome> done = new CompletableFuture<>();
        loop.execute(() -> client.send(target, UpstreamRequests.forward("POST", "/v1/completions", null,
                Unpooled.copiedBuffer("{\"model\":\"m\"}", StandardCharsets.UTF_8), target, null),
                Duration.ofSeconds(5), new UpstreamListener() {
                    @Override
                    public void onResponse(HttpResponse head, StreamingBody body) {
                        done.complete(new Outcome(head.status().code(), null));
                        drainLater(loop, body);
                    }

                    @Override
                    public void onFailure(UpstreamFailure failure) {
                        done.complete(new Outcome(0, failure));
                    }
                }, loop, tls));
        Outcome outcome = done.get(10, TimeUnit.SECONDS);
        if (outcome.failure() == null) {
            // the connection goes back to the pool once its body is read
            await().atMost(Duration.ofSeconds(5)).until(() -> client.idleConnections(target, tls) >= 1);
        }
        return outcome;
    }

    /** Reads and drops the body, as a client connection's writer would. */
    private static void drainLater(EventLoop loop, StreamingBody body) {
        loop.execute(() -> {
            try {
                var chunk = body.readChunk(io.netty.buffer.ByteBufAllocator.DEFAULT);
                while (chunk != null) {
                    chunk.release();
                    chunk = body.readChunk(io.netty.buffer.ByteBufAllocator.DEFAULT);
                }
                if (body.isEndOfInput()) {
                    body.close();
                } else {
                    loop.schedule(() -> drainLater(loop, body), 10, TimeUnit.MILLISECONDS);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }
}
