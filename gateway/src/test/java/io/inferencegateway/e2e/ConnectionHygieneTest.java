package io.inferencegateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.inferencegateway.edge.ClientConnections;
import io.inferencegateway.testing.GatewayHarness;
import io.inferencegateway.testing.TestUpstream;

/**
 * Connection hygiene on real loopback sockets: clients that stall in a header, a body or between requests
 * are closed after the gateway.http timeouts; a slow stream is not; connections past the cap are closed
 * at once; HTTP that does not decode gets an OpenAI error and a closed connection; and thousands of
 * abusive connections leave no file descriptors or heap behind.
 *
 * <p>Timeouts are one second here. Assertions never bound how fast the gateway closes beyond
 * "within the timeout plus a generous slack" ({@link #SLACK_MILLIS}), so a busy machine cannot fail them.
 */
class ConnectionHygieneTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final long TIMEOUT_MILLIS = 1000;
    static final long SLACK_MILLIS = 15_000;
    static TestUpstream upstream;
    static GatewayHarness gateway;

    @BeforeAll
    static void start() throws Exception {
        upstream = new TestUpstream();
        gateway = GatewayHarness.start(config(upstream), Map.of(
                "gateway.http.headerTimeout", TIMEOUT_MILLIS + "ms",
                "gateway.http.bodyTimeout", TIMEOUT_MILLIS + "ms",
                "gateway.http.idleTimeout", TIMEOUT_MILLIS + "ms",
                "gateway.http.maxConnections", "5000"));
    }

    @AfterAll
    static void stop() throws Exception {
        gateway.close();
        upstream.close();
    }

    static String config(TestUpstream upstream) {
        return """
                kind: InferenceGatewayConfig
                spec:
                  schedulers:
                    - {modelName: m, endpoints: ["%s"], policy: round-robin, routeTimeout: 10s}
                """.formatted(upstream.address());
    }

    @Test
    void threeHundredHalfHeadersAreAllClosedAfterTheHeaderTimeout() throws Exception {
        double timedOutBefore = metric(gateway, "inference_gateway_connections_timed_out_total{phase=\"header\"}");
        List<Socket> sockets = open(gateway, 300, "POST /v1/chat/completions HTTP/1.1\r\nHost: gw\r\nContent-Ty");

        long deadline = System.currentTimeMillis() + TIMEOUT_MILLIS + SLACK_MILLIS;
        for (Socket s : sockets) {
            assertThat(readUntilClosed(s, deadline)).as("nothing is answered to half a header").isEmpty();
        }
        closeAll(sockets);

        assertThat(metric(gateway, "inference_gateway_connections_timed_out_total{phase=\"header\"}") - timedOutBefore)
                .isEqualTo(300);
    }

    @Test
    void aBodyCutShortGets408AndTheConnectionIsClosed() throws Exception {
        try (Socket s = new Socket("127.0.0.1", gateway.port())) {
            String part = "{\"model\":\"m\",\"prompt\":\"" + "x".repeat(60);
            write(s, "POST /v1/completions HTTP/1.1\r\nHost: gw\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 1000\r\n\r\n" + part);

            String response = readUntilClosed(s, System.currentTimeMillis() + TIMEOUT_MILLIS + SLACK_MILLIS);

            assertThat(response).startsWith("HTTP/1.1 408 ").containsIgnoringCase("connection: close");
            assertOpenAiError(response, "request_timeout");
        }
        assertThat(upstream.received()).as("the cut-short request never went upstream")
                .noneMatch(r -> r.bodyText().contains("xxxxxxxxxx"));
    }

    @Test
    void anIdleKeptAliveConnectionIsClosedAfterTheIdleTimeout() throws Exception {
        try (Socket s = new Socket("127.0.0.1", gateway.port())) {
            write(s, "GET /health HTTP/1.1\r\nHost: gw\r\n\r\n");

            String response = readUntilClosed(s, System.currentTimeMillis() + TIMEOUT_MILLIS + SLACK_MILLIS);

            assertThat(response).startsWith("HTTP/1.1 200 ").doesNotContainIgnoringCase("connection: close");
        }
    }

    @Test
    void aSlowStreamWithGapsLongerThanEveryClientTimeoutIsNotCut() throws Exception {
        // 3 events 1.5 s apart: each gap is longer than the idle, header and body timeouts, shorter than routeTimeout
        upstream.behave(new TestUpstream.Sse(3, 1500));
        try (Socket s = new Socket("127.0.0.1", gateway.port())) {
            String body = "{\"model\":\"m\",\"stream\":true}";
            write(s, "POST /v1/chat/completions HTTP/1.1\r\nHost: gw\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.length() + "\r\n\r\n" + body);

            String response = readUntilClosed(s, System.currentTimeMillis() + 3 * 1500 + TIMEOUT_MILLIS + SLACK_MILLIS);

            assertThat(response).startsWith("HTTP/1.1 200 ")
                    .contains("data: {\"i\":0}", "data: {\"i\":1}", "data: {\"i\":2}")
                    .as("the chunked stream ended properly before the idle timeout closed the connection")
                    .endsWith("\r\n0\r\n\r\n");
        }
    }

    static Stream<Arguments> undecodableRequests() {
        String post = "POST /v1/completions HTTP/1.1\r\nHost: gw\r\nContent-Type: application/json\r\n";
        String body = "{\"model\":\"m\"}";
        return Stream.of(
                Arguments.of("Content-Length not a number", post + "Content-Length: 1x\r\n\r\n" + body, 400, "invalid_http_request"),
                Arguments.of("two different Content-Lengths", post + "Content-Length: 13\r\nContent-Length: 5\r\n\r\n" + body, 400, "invalid_http_request"),
                Arguments.of("negative Content-Length", post + "Content-Length: -1\r\n\r\n" + body, 400, "invalid_http_request"),
                Arguments.of("Content-Length with chunked (smuggling)", post + "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "0\r\n\r\nGET /health HTTP/1.1\r\nHost: gw\r\n\r\n", 400, "invalid_http_request"),
                Arguments.of("Content-Length with another transfer coding", post + "Content-Length: 13\r\nTransfer-Encoding: identity\r\n\r\n" + body, 400, "invalid_http_request"),
                Arguments.of("chunked not the last transfer coding", post + "Transfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n", 400, "invalid_http_request"),
                Arguments.of("a bad chunk size", post + "Transfer-Encoding: chunked\r\n\r\nzz\r\n" + body + "\r\n0\r\n\r\n", 400, "invalid_http_request"),
                Arguments.of("no Host header", "GET /health HTTP/1.1\r\n\r\n", 400, "invalid_http_request"),
                Arguments.of("an invalid HTTP version", "GET /health HTTP/9.x\r\nHost: gw\r\n\r\n", 400, "invalid_http_request"),
                Arguments.of("a header name with a space", "GET /health HTTP/1.1\r\nHost: gw\r\nBad Header: 1\r\n\r\n", 400, "invalid_http_request"),
                Arguments.of("headers over 8 KiB", "GET /health HTTP/1.1\r\nHost: gw\r\nX-Big: " + "a".repeat(9000) + "\r\n\r\n", 431, "request_headers_too_large"),
                Arguments.of("a request line over 4 KiB", "GET /" + "a".repeat(5000) + " HTTP/1.1\r\nHost: gw\r\n\r\n", 414, "request_line_too_long"));
    }

    @ParameterizedTest(name = "{0} -> {2}")
    @MethodSource("undecodableRequests")
    void httpThatDoesNotDecodeGetsAnOpenAiErrorAndTheConnectionIsClosed(String scenario, String request, int status,
            String code) throws Exception {
        int received = upstream.received().size();
        try (Socket s = new Socket("127.0.0.1", gateway.port())) {
            write(s, request);

            // closed by the gateway right after the answer: long before any timeout, but never asserted so
            String response = readUntilClosed(s, System.currentTimeMillis() + SLACK_MILLIS);

            assertThat(response).as(scenario).startsWith("HTTP/1.1 " + status + " ").containsIgnoringCase("connection: close");
            assertThat(response.split("HTTP/1.1 ", -1)).as("one response only, nothing smuggled behind it").hasSize(2);
            assertOpenAiError(response, code);
        }
        assertThat(upstream.received()).as("nothing went upstream").hasSize(received);
    }

    @Test
    void connectionsPastTheCapAreClosedAtOnceAndTheGatewayStillServes() throws Exception {
        int cap = 20;
        int extra = 5;
        try (GatewayHarness capped = GatewayHarness.start(config(upstream), Map.of(
                "gateway.http.maxConnections", Integer.toString(cap),
                "gateway.http.headerTimeout", "60s", "gateway.http.idleTimeout", "60s"))) {
            double refusedBefore = metric(capped, "inference_gateway_connections_refused_total");
            // the scrape's connection is closed by the gateway a moment after the answer: let it go before filling up
            awaitTrue("the scrape's connection closed", () -> openConnections(capped) == 0);
            List<Socket> held = open(capped, cap, "");
            awaitTrue("the gateway holds " + cap + " connections", () -> openConnections(capped) == cap);
            List<Socket> over = open(capped, extra, "GET /health HTTP/1.1\r\nHost: gw\r\n\r\n");

            long deadline = System.currentTimeMillis() + SLACK_MILLIS;
            for (Socket s : over) {
                assertThat(readUntilClosed(s, deadline)).as("closed at once, unanswered").isEmpty();
            }
            // a held connection is still served while the gateway is at the cap
            Socket first = held.get(0);
            write(first, "GET /health HTTP/1.1\r\nHost: gw\r\nConnection: close\r\n\r\n");
            assertThat(readUntilClosed(first, System.currentTimeMillis() + SLACK_MILLIS)).startsWith("HTTP/1.1 200 ");
            closeAll(held);

            awaitTrue("connections below the cap again", () -> openConnections(capped) == 0);
            assertThat(metric(capped, "inference_gateway_connections_refused_total") - refusedBefore).isEqualTo(extra);
            awaitTrue("the scrape's connection closed", () -> openConnections(capped) == 0);
            assertThat(metric(capped, "inference_gateway_connections_open")).as("the scrape's own").isEqualTo(1);
        }
    }

    @Test
    void twoThousandAbusiveConnectionsLeaveFileDescriptorsAndHeapAsTheyWere() throws Exception {
        abuse(200); // warm up: classes, buffer pools and timers exist before the baseline
        awaitTrue("warm-up connections closed", () -> openConnections(gateway) == 0);
        long fdsBefore = openFileDescriptors();
        long heapBefore = usedHeapAfterGc();

        abuse(2000);

        awaitTrue("every abusive connection closed on the gateway",
                () -> openConnections(gateway) == 0);
        awaitTrue("file descriptors back near " + fdsBefore, () -> openFileDescriptors() <= fdsBefore + 30);
        long heapAfter = usedHeapAfterGc();
        System.out.printf("abusive connections: fds %d -> %d, heap after GC %d KiB -> %d KiB%n",
                fdsBefore, openFileDescriptors(), heapBefore / 1024, heapAfter / 1024);
        assertThat(heapAfter).as("heap after GC, bytes").isLessThan(heapBefore + 16L * 1024 * 1024);
    }

    /**
     * Opens {@code n} connections at once, a quarter each: half a header, a body cut short, a complete request
     * left idle after its answer, and HTTP that does not decode; reads each until the gateway closes it.
     */
    private static void abuse(int n) throws Exception {
        String[] kinds = {
            "POST /v1/completions HTTP/1.1\r\nHost: gw\r\nContent-Le",
            "POST /v1/completions HTTP/1.1\r\nHost: gw\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"mo",
            "GET /health HTTP/1.1\r\nHost: gw\r\n\r\n",
            "POST /v1/completions HTTP/1.1\r\nHost: gw\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"};
        List<Socket> sockets = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Socket s = new Socket("127.0.0.1", gateway.port());
            write(s, kinds[i % kinds.length]);
            sockets.add(s);
        }
        long deadline = System.currentTimeMillis() + TIMEOUT_MILLIS + SLACK_MILLIS;
        for (Socket s : sockets) {
            readUntilClosed(s, deadline);
        }
        closeAll(sockets);
    }

    private static List<Socket> open(GatewayHarness gw, int n, String send) throws IOException {
        List<Socket> sockets = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Socket s = new Socket("127.0.0.1", gw.port());
            if (!send.isEmpty()) {
                write(s, send);
            }
            sockets.add(s);
        }
        return sockets;
    }

    private static void write(Socket s, String text) throws IOException {
        s.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
        s.getOutputStream().flush();
    }

    /** Everything the gateway sends until it closes the connection; fails if it is still open at {@code deadline}. */
    private static String readUntilClosed(Socket s, long deadlineMillis) throws IOException {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        InputStream in = s.getInputStream();
        byte[] buf = new byte[8192];
        while (true) {
            long left = deadlineMillis - System.currentTimeMillis();
            assertThat(left).as("connection still open at the deadline; got so far: " + got).isPositive();
            s.setSoTimeout((int) left);
            int n;
            try {
                n = in.read(buf);
            } catch (SocketTimeoutException e) {
                continue;
            } catch (IOException reset) {
                return got.toString(StandardCharsets.ISO_8859_1);
            }
            if (n < 0) {
                return got.toString(StandardCharsets.ISO_8859_1);
            }
            got.write(buf, 0, n);
        }
    }

    private static void closeAll(List<Socket> sockets) throws IOException {
        for (Socket s : sockets) {
            s.close();
        }
    }

    private static void assertOpenAiError(String response, String code) throws IOException {
        assertThat(response).containsIgnoringCase("content-type: application/json");
        JsonNode error = JSON.readTree(response.substring(response.indexOf("\r\n\r\n") + 4)).get("error");
        assertThat(error).as("OpenAI error body: " + response).isNotNull();
        assertThat(error.fieldNames()).toIterable().containsExactlyInAnyOrder("message", "type", "param", "code");
        assertThat(error.get("type").asText()).isEqualTo("invalid_request_error");
        assertThat(error.get("code").asText()).isEqualTo(code);
        assertThat(error.get("message").asText()).isNotBlank().doesNotContain("Exception", "\tat ");
    }

    /** A sample of GET /metrics, fetched on a connection of its own that the gateway closes after the answer. */
    private static double metric(GatewayHarness gw, String series) throws IOException {
        double v = metricOrNaN(gw, series);
        assertThat(v).as(series).isNotNaN();
        return v;
    }

    private static double metricOrNaN(GatewayHarness gw, String series) {
        try (Socket s = new Socket("127.0.0.1", gw.port())) {
            write(s, "GET /metrics HTTP/1.1\r\nHost: gw\r\nConnection: close\r\n\r\n");
            String text = readUntilClosed(s, System.currentTimeMillis() + SLACK_MILLIS);
            for (String line : text.split("\n")) {
                if (line.startsWith(series + " ")) {
                    return Double.parseDouble(line.substring(series.length() + 1).trim());
                }
            }
            return Double.NaN;
        } catch (IOException e) {
            return Double.NaN;
        }
    }

    private static int openConnections(GatewayHarness gw) {
        return gw.server().camelContext().getRegistry()
                .lookupByNameAndType("clientConnections", ClientConnections.class).open();
    }

    private static void awaitTrue(String what, BooleanSupplier condition) {
        await(what).atMost(Duration.ofMillis(SLACK_MILLIS)).pollInterval(Duration.ofMillis(50))
                .until(condition::getAsBoolean);
    }

    private static long openFileDescriptors() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long usedHeapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
