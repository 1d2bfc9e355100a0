package io.inferencegateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

import org.apache.camel.CamelContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.testing.GatewayHarness;
import io.inferencegateway.testing.TestUpstream;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;

/**
 * The proxy relays streams as they are produced, on few threads, and cleans up when either side leaves; on Netty's
 * epoll transport, the gateway's default wherever it loads ({@link StreamingProxyNioTest}: the same on NIO).
 */
class StreamingProxyTest {

    static TestUpstream upstream;
    static GatewayHarness gateway;
    static Class<?> transport;
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        start(Map.of(), Epoll.isAvailable() ? EpollEventLoopGroup.class : NioEventLoopGroup.class);
    }

    static void start(Map<String, String> properties, Class<?> expectedTransport) throws Exception {
        upstream = new TestUpstream();
        // one I/O thread each way: a design that blocked a thread per stream could not serve two streams
        Map<String, String> all = new HashMap<>(properties);
        all.putAll(Map.of("gateway.ioThreads", "1", "camel.component.upstream.ioThreads", "1"));
        gateway = GatewayHarness.start(GatewayHarness.config("m", "round-robin", upstream.address()), all);
        transport = expectedTransport;
    }

    @AfterAll
    static void stop() throws Exception {
        gateway.close();
        upstream.close();
    }

    @Test
    void theIngressAndTheUpstreamCallsRunOnTheChosenTransport() throws Exception {
        CamelContext camel = gateway.server().camelContext();
        assertThat(camel.getRegistry().lookupByName("gatewayEventLoops")).isInstanceOf(transport);
        upstream.behave(new TestUpstream.Json(200, "{\"id\":\"cmpl-t\"}"));
        HttpResponse<String> r = HTTP.send(post("{\"model\":\"m\",\"user\":\"transport\"}"),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.body()).isEqualTo("{\"id\":\"cmpl-t\"}");
        // the upstream connection is on a gateway loop: no upstream client loops of its own were started
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().startsWith("upstream-io"));
    }

    @Test
    void nonStreamingBodyGoesUpstreamByteForByteAndTheAnswerComesBack() throws Exception {
        upstream.behave(new TestUpstream.Json(201, "{\"id\":\"cmpl-1\"}"));
        String odd = "{ \"model\" : \"m\",\n  \"prompt\":\"h\u00e9llo\",\"extra\":[1, 2.50, {\"k\":null}] }";
        byte[] body = odd.getBytes(StandardCharsets.UTF_8);
        String response;
        try (Socket s = new Socket("127.0.0.1", gateway.port())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(("POST /v1/completions?trace=1 HTTP/1.1\r\nHost: gw\r\n"
                    + "Content-Type: application/json\r\nAuthorization: Bearer sk-test\r\n"
                    + "X-Hop: drop-me\r\nConnection: keep-alive, X-Hop\r\n"
                    + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().write(body);
            response = readResponse(s.getInputStream());
        }

        assertThat(response).startsWith("HTTP/1.1 201").endsWith("\r\n\r\n{\"id\":\"cmpl-1\"}");
        TestUpstream.Received got = upstream.received().get(upstream.received().size() - 1);
        assertThat(got.body()).isEqualTo(body);
        assertThat(got.uri()).isEqualTo("/v1/completions?trace=1");
        assertThat(got.headers().get("Authorization")).isEqualTo("Bearer sk-test");
        assertThat(got.headers().contains("X-Hop")).as("a header named by Connection is hop-by-hop").isFalse();
        assertThat(got.headers().get("Host")).isEqualTo(upstream.address());
    }

    @Test
    void aPathTheModelServerDoesNotServeGetsTheModelServersOwnAnswer() throws Exception {
        String notFound = "{\"detail\":\"Not Found\"}"; // what a server without /v1/rerank answers
        upstream.behave(new TestUpstream.Json(404, notFound));
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/v1/rerank"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"query\":\"q\",\"documents\":[\"d\"]}"))
                .build(), HttpResponse.BodyHandlers.ofString());

        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(r.body()).isEqualTo(notFound);
        assertThat(upstream.received().get(upstream.received().size() - 1).uri()).isEqualTo("/v1/rerank");
    }

    @Test
    void clientHoldsTheFirstEventBeforeTheUpstreamSendsTheSecond() throws Exception {
        upstream.behave(new TestUpstream.Sse(3, 400));
        HttpResponse<InputStream> r = HTTP.send(post("{\"model\":\"m\",\"stream\":true,\"user\":\"first-event\"}"),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(r.headers().firstValue("content-type")).hasValue("text/event-stream");
        try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            assertThat(in.readLine()).isEqualTo("data: {\"i\":0}");
            long firstSeen = System.nanoTime();
            List<String> rest = in.lines().toList();
            assertThat(rest).contains("data: {\"i\":1}", "data: {\"i\":2}");
            assertThat(request("first-event").eventNanos().get(1)).isGreaterThan(firstSeen);
        }
    }

    @Test
    void twoHundredConcurrentStreamsEachGetTheirFirstEventBeforeTheirSecondIsSent() throws Exception {
        upstream.behave(new TestUpstream.Sse(3, 1500));
        int streams = 200;
        List<FirstLine> firsts = new ArrayList<>();
        List<CompletableFuture<HttpResponse<Void>>> done = new ArrayList<>();
        for (int i = 0; i < streams; i++) {
            FirstLine first = new FirstLine();
            firsts.add(first);
            done.add(HTTP.sendAsync(post("{\"model\":\"m\",\"stream\":true,\"user\":\"c" + i + "\"}"),
                    HttpResponse.BodyHandlers.fromLineSubscriber(first)));
        }
        CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        for (int i = 0; i < streams; i++) {
            FirstLine first = firsts.get(i);
            assertThat(first.line).as("stream %d", i).isEqualTo("data: {\"i\":0}");
            assertThat(first.lines).as("stream %d complete", i).isEqualTo(6);
            assertThat(first.nanos).as("stream %d first event before its second was sent", i)
                    .isLessThan(request("c" + i).eventNanos().get(1));
        }
    }

    @Test
    void clientThatLeavesMidStreamCancelsTheUpstreamRequest() throws Exception {
        upstream.behave(new TestUpstream.Sse(50, 200));
        int gone = upstream.clientsGoneMidResponse();
        try (Socket s = rawStreamRequest(gateway.port(), "leaver")) {
            readUntil(s.getInputStream(), "data: {\"i\":0}");
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> upstream.clientsGoneMidResponse() == gone + 1);
        Endpoint e = Endpoint.parse(upstream.address());
        await().atMost(Duration.ofSeconds(10)).until(() -> gateway.server().gateway().inFlight().inFlight(e) == 0);
    }

    @Test
    void upstreamDyingMidStreamEndsTheClientStreamWithAnErrorEvent() throws Exception {
        upstream.behave(new TestUpstream.DieMidStream(2, 100));
        HttpResponse<String> r = HTTP.send(post("{\"model\":\"m\",\"stream\":true}"), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).startsWith("data: {\"i\":0}\n\ndata: {\"i\":1}\n\n")
                .endsWith("\n\n")
                .contains("data: {\"error\":{", "\"code\":\"upstream_broken\"");
    }

    @Test
    void aClientThatStopsReadingHoldsTheModelServerBackAndThenGetsEveryEventInOrder() throws Exception {
        int events = 64 * 1024; // 64 MiB: far more than the gateway queues (StreamingBody.HIGH_WATER_BYTES) and the sockets buffer
        upstream.behave(new TestUpstream.Flood(events));
        try (Socket s = new Socket()) {
            s.setReceiveBufferSize(16 * 1024); // before connecting, so that the window stays small
            s.connect(new java.net.InetSocketAddress("127.0.0.1", gateway.port()));
            s.setSoTimeout(30_000);
            String body = "{\"model\":\"m\",\"stream\":true}";
            s.getOutputStream().write(("POST /v1/completions HTTP/1.1\r\nHost: gw\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII));
            InputStream in = new java.io.BufferedInputStream(s.getInputStream(), 1024);
            String head = readHead(in);
            assertThat(head).startsWith("HTTP/1.1 200").containsIgnoringCase("transfer-encoding: chunked");

            // the client reads nothing more: the model server must come to a stop well short of the end
            int[] last = {-1};
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500)).until(() -> {
                int now = upstream.floodEventsSent();
                boolean still = now == last[0];
                last[0] = now;
                return still;
            });
            assertThat(last[0]).as("events the model server got out while the client read nothing")
                    .isPositive().isLessThan(events / 2);

            ChunkedBody chunks = new ChunkedBody(in);
            for (int i = 0; i < events; i++) {
                String expected = TestUpstream.floodEvent(i);
                String got = new String(chunks.readNBytes(expected.length()), StandardCharsets.US_ASCII);
                if (!got.equals(expected)) {
                    assertThat(got).as("event " + i).isEqualTo(expected);
                }
            }
            assertThat(chunks.read()).as("the body ends after the last event").isEqualTo(-1);
        }
    }

    @Test
    void aStreamedResponseIsExactlyFramedChunkByChunkAndTheConnectionCarriesTheNextRequest() throws Exception {
        upstream.behave(new TestUpstream.Sse(6, 20));
        try (Socket s = rawStreamRequest(gateway.port(), "framing")) {
            InputStream in = new java.io.BufferedInputStream(s.getInputStream());
            assertThat(readHead(in)).startsWith("HTTP/1.1 200").containsIgnoringCase("transfer-encoding: chunked");
            java.io.ByteArrayOutputStream payload = new java.io.ByteArrayOutputStream();
            int chunks = 0;
            while (true) {
                String size = crlfLine(in);
                assertThat(size).as("chunk %d: its size in hex, no leading zeros, no extensions", chunks)
                        .matches("0|[1-9a-fA-F][0-9a-fA-F]*");
                int n = Integer.parseInt(size, 16);
                if (n == 0) {
                    assertThat(crlfLine(in)).as("no trailers: the body ends with an empty line").isEmpty();
                    break;
                }
                byte[] data = in.readNBytes(n);
                assertThat(data).as("chunk %d's data", chunks).hasSize(n);
                assertThat(new String(in.readNBytes(2), StandardCharsets.US_ASCII)).as("CRLF after chunk %d", chunks)
                        .isEqualTo("\r\n");
                payload.write(data);
                chunks++;
            }
            StringBuilder events = new StringBuilder();
            for (int i = 0; i < 6; i++) {
                events.append(TestUpstream.sseEvent(i));
            }
            assertThat(payload.toString(StandardCharsets.UTF_8)).isEqualTo(events.toString());

            // nothing after the last chunk: the next response on this connection starts where it should
            upstream.behave(new TestUpstream.Json(200, "{\"n\":2}"));
            String body = "{\"model\":\"m\"}";
            s.getOutputStream().write(("POST /v1/completions HTTP/1.1\r\nHost: gw\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII));
            assertThat(readResponse(in)).startsWith("HTTP/1.1 200").endsWith("\r\n\r\n{\"n\":2}");
        }
    }

    /** One line ended by CRLF exactly (a bare LF or CR fails), without its end. */
    private static String crlfLine(InputStream in) throws Exception {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); ; c = in.read()) {
            assertThat(c).as("the connection ended inside a line: " + line).isNotEqualTo(-1);
            if (c == '\r') {
                assertThat(in.read()).as("LF after CR in: " + line).isEqualTo('\n');
                return line.toString();
            }
            assertThat(c).as("a bare LF in a chunk's framing: " + line).isNotEqualTo('\n');
            line.append((char) c);
        }
    }

    private static String readHead(InputStream in) throws Exception {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            head.append((char) in.read());
        }
        return head.toString();
    }

    /** The payload of a chunked body, read off the wire: -1 after the last chunk. */
    static final class ChunkedBody extends InputStream {
        private final InputStream in;
        private int left;
        private boolean done;

        ChunkedBody(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws java.io.IOException {
            while (left == 0 && !done) {
                StringBuilder line = new StringBuilder();
                for (int c = in.read(); c != '\n'; c = in.read()) {
                    if (c < 0) {
                        throw new java.io.EOFException("the connection ended inside the body");
                    }
                    line.append((char) c);
                }
                String size = line.toString().trim();
                if (size.isEmpty()) {
                    continue; // the CRLF after a chunk's data
                }
                left = Integer.parseInt(size, 16);
                done = left == 0;
            }
            if (done) {
                return -1;
            }
            left--;
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws java.io.IOException {
            if (len == 0) {
                return 0;
            }
            int c = read();
            if (c < 0) {
                return -1;
            }
            b[off] = (byte) c;
            int n = in.read(b, off + 1, Math.min(len - 1, left));
            if (n > 0) {
                left -= n;
                return n + 1;
            }
            return 1;
        }
    }

    @Test
    void connectionsAreKeptAliveOnBothSides() throws Exception {
        upstream.behave(new TestUpstream.Json(200, "{\"n\":1}"));
        try (Socket s = new Socket("127.0.0.1", gateway.port())) {
            s.setSoTimeout(10_000);
            // warm the upstream pool, then count new upstream connections over sequential requests
            exchange(s);
            int before = upstream.connectionsAccepted();
            for (int i = 0; i < 5; i++) {
                assertThat(exchange(s)).startsWith("HTTP/1.1 200").endsWith("{\"n\":1}");
            }
            assertThat(upstream.connectionsAccepted()).isEqualTo(before);
        }
    }

    private static String exchange(Socket s) throws Exception {
        String body = "{\"model\":\"m\"}";
        s.getOutputStream().write(("POST /v1/completions HTTP/1.1\r\nHost: gw\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII));
        return readResponse(s.getInputStream());
    }

    /** Reads one Content-Length response. */
    private static String readResponse(InputStream in) throws Exception {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            head.append((char) in.read());
        }
        int length = 0;
        for (String line : head.toString().split("\r\n")) {
            if (line.toLowerCase().startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        return head + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    /** A streamed chat request for model {@code m} over a raw socket, so that a test can leave mid-response. */
    static Socket rawStreamRequest(int port, String user) throws Exception {
        Socket s = new Socket("127.0.0.1", port);
        s.setSoTimeout(10_000);
        String body = "{\"model\":\"m\",\"stream\":true,\"user\":\"" + user + "\"}";
        OutputStream out = s.getOutputStream();
        out.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: gw\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return s;
    }

    static void readUntil(InputStream in, String marker) throws Exception {
        StringBuilder seen = new StringBuilder();
        while (seen.indexOf(marker) < 0) {
            int c = in.read();
            assertThat(c).as("stream ended before " + marker).isNotEqualTo(-1);
            seen.append((char) c);
        }
    }

    private static TestUpstream.Received request(String user) {
        return upstream.received().stream().filter(r -> r.bodyText().contains("\"" + user + "\"")).findFirst().orElseThrow();
    }

    private static HttpRequest post(String json) {
        return HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/v1/chat/completions"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build();
    }

    /** Notes the first line of a body and when it arrived, and counts lines. */
    static final class FirstLine implements Flow.Subscriber<String> {
        volatile String line;
        volatile long nanos;
        volatile int lines;

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(String item) {
            if (line == null) {
                nanos = System.nanoTime();
                line = item;
            }
            lines++;
        }

        @Override
        public void onError(Throwable throwable) {
        }

        @Override
        public void onComplete() {
        }
    }
}
