package io.inferencegateway.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.testing.TestUpstream;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;

/**
 * An upstream call runs on the event loop of the client connection it serves, on either of the gateway's transports;
 * kept-alive connections are reused, and closed once idle for the pool's timeout.
 */
class UpstreamClientTest {

    static TestUpstream upstream;
    /** the client connection's loop, as the gateway's NIO transport has it */
    static EventLoopGroup nio;

    @BeforeAll
    static void start() throws Exception {
        upstream = new TestUpstream().behave(new TestUpstream.Json(200, "{}"));
        nio = new NioEventLoopGroup(1);
    }

    @AfterAll
    static void stop() throws Exception {
        upstream.close();
        nio.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll"})
    void theCallAndItsAnswerStayOnTheClientsLoop(String transport) throws Exception {
        assumeTrue(transport.equals("nio") || Epoll.isAvailable(), "Netty's epoll transport does not load here");
        EventLoopGroup group = transport.equals("nio") ? nio : new EpollEventLoopGroup(1);
        Endpoint target = new Endpoint("127.0.0.1", upstream.port());
        try (UpstreamClient client = new UpstreamClient(UpstreamClient.Options.defaults())) {
            EventLoop loop = group.next();
            CompletableFuture<Boolean> onLoop = new CompletableFuture<>();
            send(client, target, loop, Duration.ofSeconds(5), new UpstreamListener() {
                @Override
                public void onResponse(HttpResponse head, StreamingBody body) {
                    body.abandon();
                    onLoop.complete(head.status().code() == 200 && loop.inEventLoop());
                }

                @Override
                public void onFailure(UpstreamFailure failure) {
                    onLoop.completeExceptionally(new AssertionError(failure.toString()));
                }
            });
            assertThat(onLoop.get(10, TimeUnit.SECONDS)).as("answered, on the client's loop").isTrue();
        } finally {
            if (group != nio) {
                group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            }
        }
    }

    @Test
    void anIdleConnectionIsReusedUntilTheTimeoutThenClosed() throws Exception {
        Endpoint target = new Endpoint("127.0.0.1", upstream.port());
        var options = UpstreamClient.Options.defaults();
        Duration timeout = Duration.ofMillis(300);
        try (UpstreamClient client = new UpstreamClient(new UpstreamClient.Options(1, options.connectTimeout(), timeout,
                options.maxIdleConnectionsPerEndpoint()))) {
            EventLoop loop = nio.next();
            int before = upstream.connectionsAccepted();
            call(client, target, loop);
            call(client, target, loop);
            assertThat(upstream.connectionsAccepted()).as("the second call reused the first's connection")
                    .isEqualTo(before + 1);

            await().atMost(Duration.ofSeconds(5)).until(() -> client.idleConnections(target) == 0);
            assertThat(upstream.connectionsAccepted()).isEqualTo(before + 1);
            call(client, target, loop);
            assertThat(upstream.connectionsAccepted()).as("a call after the timeout opened a new connection")
                    .isEqualTo(before + 2);
        }
    }

    @Test
    void aCallWhosePooledConnectionBreaksIsSentWholeOnAFreshOne() throws Exception {
        try (TestUpstream server = new TestUpstream().behave(new TestUpstream.Json(200, "{}"));
                UpstreamClient client = new UpstreamClient(UpstreamClient.Options.defaults())) {
            Endpoint target = new Endpoint("127.0.0.1", server.port());
            EventLoop loop = nio.next();
            call(client, target, loop);
            // the pooled connection breaks as the next call arrives, as when the server's keep-alive ran out then
            server.behave(new TestUpstream.ResetThen(new TestUpstream.Json(200, "{}")));
            call(client, target, loop);
            assertThat(server.connectionsAccepted()).as("the retry opened a connection of its own").isEqualTo(2);
            assertThat(server.received()).hasSize(3);
            for (TestUpstream.Received sent : server.received().subList(1, 3)) {
                assertThat(sent.bodyText()).as("each send carries the whole body").isEqualTo("{\"model\":\"m\"}");
                assertThat(sent.headers().get("Host")).isEqualTo(target.toString());
                assertThat(sent.headers().getInt("Content-Length")).isEqualTo(13);
            }
        }
    }

    @Test
    void aCallOnAReusedConnectionTimesOutByItsOwnDeadline() throws Exception {
        try (TestUpstream server = new TestUpstream().behave(new TestUpstream.Json(200, "{}"));
                UpstreamClient client = new UpstreamClient(UpstreamClient.Options.defaults())) {
            Endpoint target = new Endpoint("127.0.0.1", server.port());
            EventLoop loop = nio.next();
            call(client, target, loop, Duration.ofSeconds(60));
            server.behave(new TestUpstream.Hang());
            CompletableFuture<UpstreamFailure> failed = new CompletableFuture<>();
            send(client, target, loop, Duration.ofMillis(200), new UpstreamListener() {
                @Override
                public void onResponse(HttpResponse head, StreamingBody body) {
                    body.abandon();
                    failed.completeExceptionally(new AssertionError("answered " + head.status()));
                }

                @Override
                public void onFailure(UpstreamFailure failure) {
                    failed.complete(failure);
                }
            });
            // the first call's 60 s deadline is not the second's
            assertThat(failed.get(20, TimeUnit.SECONDS).kind()).isEqualTo(UpstreamFailure.Stage.TIMEOUT);
            assertThat(server.connectionsAccepted()).as("both calls on one connection").isEqualTo(1);
        }
    }

    @Test
    void aStreamThatPausesLongerThanTheTimeoutEndsWithATimeoutEvent() throws Exception {
        try (TestUpstream server = new TestUpstream().behave(new TestUpstream.Sse(3, 3_000));
                UpstreamClient client = new UpstreamClient(UpstreamClient.Options.defaults())) {
            Endpoint target = new Endpoint("127.0.0.1", server.port());
            EventLoop loop = nio.next();
            CompletableFuture<String> relayed = new CompletableFuture<>();
            send(client, target, loop, Duration.ofMillis(300), new UpstreamListener() {
                @Override
                public void onResponse(HttpResponse head, StreamingBody body) {
                    drain(loop, body, new StringBuilder(), relayed);
                }

                @Override
                public void onFailure(UpstreamFailure failure) {
                    relayed.completeExceptionally(new AssertionError(failure.toString()));
                }
            });
            String text = relayed.get(20, TimeUnit.SECONDS);
            assertThat(text).as("the first event, then the gateway's error event")
                    .contains(TestUpstream.sseEvent(0)).contains("upstream_timeout")
                    .doesNotContain(TestUpstream.sseEvent(1));
        }
    }

    /** Reads {@code body} on {@code loop} as a client connection's writer would, every 20 ms, to its end. */
    private static void drain(EventLoop loop, StreamingBody body, StringBuilder text, CompletableFuture<String> done) {
        try {
            HttpContent chunk;
            while ((chunk = body.readChunk(ByteBufAllocator.DEFAULT)) != null) {
                text.append(chunk.content().toString(StandardCharsets.UTF_8));
                chunk.release();
            }
            if (body.isEndOfInput()) {
                body.close();
                done.complete(text.toString());
            } else {
                loop.schedule(() -> drain(loop, body, text, done), 20, TimeUnit.MILLISECONDS);
            }
        } catch (Exception e) {
            done.completeExceptionally(e);
        }
    }

    /** One call from {@code loop}, answered 200; returns once its connection is back in the pool. */
    private static void call(UpstreamClient client, Endpoint target, EventLoop loop) throws Exception {
        call(client, target, loop, Duration.ofSeconds(5));
    }

    private static void send(UpstreamClient client, Endpoint target, EventLoop loop, Duration timeout,
            UpstreamListener listener) {
        loop.execute(() -> client.send(target, UpstreamRequests.forward("POST", "/v1/completions", null,
                Unpooled.copiedBuffer("{\"model\":\"m\"}", StandardCharsets.UTF_8), target, null), timeout, listener,
                loop));
    }

    private static void call(UpstreamClient client, Endpoint target, EventLoop loop, Duration timeout)
            throws Exception {
        CompletableFuture<StreamingBody> answered = new CompletableFuture<>();
        send(client, target, loop, timeout, new UpstreamListener() {
                @Override
                public void onResponse(HttpResponse head, StreamingBody body) {
                    if (head.status().code() == 200) {
                        answered.complete(body);
                    } else {
                        answered.completeExceptionally(new AssertionError(head.status().toString()));
                    }
                }

                @Override
                public void onFailure(UpstreamFailure failure) {
                    answered.completeExceptionally(new AssertionError(failure.toString()));
                }
            });
        StreamingBody body = answered.get(10, TimeUnit.SECONDS);
        // while the call holds the connection the pool is empty; once the body is read it is back
        await().atMost(Duration.ofSeconds(5)).until(() -> client.idleConnections(target) == 1);
        body.abandon(); // no client reads it here: releases what was read, the call is over
    }
}
