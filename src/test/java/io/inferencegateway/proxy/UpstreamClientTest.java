package io.inferencegateway.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.testing.TestUpstream;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.handler.codec.http.HttpResponse;

/** An upstream call runs on the event loop of the client connection it serves, on either of the gateway's transports. */
class UpstreamClientTest {

    static TestUpstream upstream;

    @BeforeAll
    static void start() throws Exception {
        upstream = new TestUpstream().behave(new TestUpstream.Json(200, "{}"));
    }

    @AfterAll
    static void stop() throws Exception {
        upstream.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "epoll"})
    void theCallAndItsAnswerStayOnTheClientsLoop(String transport) throws Exception {
        assumeTrue(transport.equals("nio") || Epoll.isAvailable(), "Netty's epoll transport does not load here");
        EventLoopGroup group = transport.equals("nio") ? new NioEventLoopGroup(1) : new EpollEventLoopGroup(1);
        Endpoint target = new Endpoint("127.0.0.1", upstream.port());
        try (UpstreamClient client = new UpstreamClient(UpstreamClient.Options.defaults())) {
            EventLoop loop = group.next();
            CompletableFuture<Boolean> onLoop = new CompletableFuture<>();
            loop.execute(() -> client.send(target, UpstreamRequests.forward("POST", "/v1/completions", null,
                            Unpooled.copiedBuffer("{\"model\":\"m\"}", StandardCharsets.UTF_8), target),
                    Duration.ofSeconds(5), new UpstreamListener() {
                        @Override
                        public void onResponse(HttpResponse head, StreamingBody body) {
                            body.abandon();
                            onLoop.complete(head.status().code() == 200 && loop.inEventLoop());
                        }

                        @Override
                        public void onFailure(UpstreamFailure failure) {
                            onLoop.completeExceptionally(new AssertionError(failure.toString()));
                        }
                    }, loop));
            assertThat(onLoop.get(10, TimeUnit.SECONDS)).as("answered, on the client's loop").isTrue();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
