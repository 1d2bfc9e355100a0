package io.inferencegateway.lab.regions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.inferencegateway.lab.regions.DelayProxy.CutMode;

/**
 * The delay proxy against an echo server on loopback: the delay it adds (lower bounds only, the box is shared), both
 * kinds of cut and the restore, and a clean close.
 */
class DelayProxyIT {

    static final Duration DELAY = Duration.ofMillis(40);
    static final InetSocketAddress ANY_LOOPBACK_PORT = new InetSocketAddress("127.0.0.1", 0);

    EchoServer echo;
    DelayProxy proxy;

    @BeforeEach
    void start() throws IOException {
        echo = new EchoServer();
        proxy = DelayProxy.start("test", ANY_LOOPBACK_PORT, echo.address(), DELAY);
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        echo.close();
    }

    @Test
    void aRoundTripCostsTwoDelaysAndAFreshConnectionTwoMoreForItsHandshake() throws IOException {
        try (Socket s = connect()) {
            long fresh = timedEcho(s, "first");
            long keptAlive = timedEcho(s, "second");

            assertThat(fresh).as("ms, handshake and round trip").isGreaterThanOrEqualTo(4 * DELAY.toMillis());
            assertThat(keptAlive).as("ms, round trip").isGreaterThanOrEqualTo(2 * DELAY.toMillis());
        }
        assertThat(proxy.bytesToTarget()).isEqualTo("first\nsecond\n".length());
        assertThat(proxy.bytesToClient()).isEqualTo("first\nsecond\n".length());
        assertThat(proxy.connectionsAccepted()).isEqualTo(1);
        await().until(() -> proxy.connectionsOpen() == 0);
    }

    @Test
    void aChangedDelayAppliesToOpenConnectionsAndKeepsTheByteOrder() throws IOException {
        try (Socket s = connect()) {
            timedEcho(s, "warm-up");
            proxy.delay(Duration.ofMillis(150));
            assertThat(timedEcho(s, "slower")).isGreaterThanOrEqualTo(300);

            OutputStream out = s.getOutputStream();
            StringBuilder sent = new StringBuilder();
            for (int i = 0; i < 20; i++) { // the delay drops while chunks are on their way: none overtakes another
                String line = "chunk-" + i + "\n";
                out.write(line.getBytes(StandardCharsets.US_ASCII));
                out.flush();
                sent.append(line);
                proxy.delay(Duration.ofMillis(i % 2 == 0 ? 0 : 60));
            }
            assertThat(readExactly(s, sent.length())).isEqualTo(sent.toString());
        }
    }

    @Test
    void aResetCutResetsOpenConnectionsAndRefusesNewOnesAtOnce() throws IOException {
        try (Socket open = connect()) {
            timedEcho(open, "before");

            proxy.cut(CutMode.RESET);

            assertThat(proxy.cutMode()).hasValue(CutMode.RESET);
            open.setSoTimeout(5_000);
            assertThat(readOrReset(open)).as("the open connection is reset, not left hanging").isNotEqualTo("timeout");
            long start = System.nanoTime();
            assertThatThrownBy(this::connect).isInstanceOf(ConnectException.class);
            assertThat(millisSince(start)).as("refused, not timed out").isLessThan(5_000);
            assertThat(proxy.connectionsOpen()).isZero();
        }
    }

    @Test
    void aBlackholeKeepsConnectionsButForwardsNothingUntilRestored() throws IOException {
        try (Socket before = connect()) {
            timedEcho(before, "before");

            proxy.cut(CutMode.BLACKHOLE);

            before.getOutputStream().write("held\n".getBytes(StandardCharsets.US_ASCII));
            before.setSoTimeout(500);
            assertThatThrownBy(() -> before.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
            try (Socket during = connect()) { // a new connection is accepted, and then nothing
                during.getOutputStream().write("late\n".getBytes(StandardCharsets.US_ASCII));
                during.setSoTimeout(500);
                assertThatThrownBy(() -> during.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
                assertThat(proxy.connectionsOpen()).isEqualTo(2);
                assertThat(echo.connections()).as("the target never heard of it").hasSize(1);

                proxy.restore();

                before.setSoTimeout(5_000);
                during.setSoTimeout(5_000);
                assertThat(readExactly(before, 5)).as("what was held goes through").isEqualTo("held\n");
                assertThat(readExactly(during, 5)).isEqualTo("late\n");
            }
        }
    }

    @Test
    void aRestoredResetListensOnTheSamePortAgain() throws IOException {
        InetSocketAddress address = proxy.address();
        proxy.cut(CutMode.RESET);
        proxy.restore();

        assertThat(proxy.address()).isEqualTo(address);
        assertThat(proxy.cutMode()).isEmpty();
        try (Socket s = connect()) {
            assertThat(timedEcho(s, "again")).isGreaterThanOrEqualTo(2 * DELAY.toMillis());
        }
    }

    @Test
    void aTargetThatIsDownResetsTheClientOneDelayLater() throws IOException {
        echo.close();
        try (Socket s = connect()) {
            s.setSoTimeout(5_000);
            s.getOutputStream().write("anyone?\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(readOrReset(s)).isIn("reset", "end");
        }
        assertThat(proxy.targetConnectFailures()).isEqualTo(1);
        await().until(() -> proxy.connectionsOpen() == 0);
    }

    @Test
    void connectionsShareTheProxysOneThreadAndCloseLeavesNothingBehind() throws IOException {
        List<Socket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < 50; i++) {
                sockets.add(connect());
            }
            await().until(() -> proxy.connectionsOpen() == 50);
            assertThat(proxyThreads()).hasSize(1);
            InetSocketAddress address = proxy.address();

            proxy.close();

            assertThat(proxyThreads()).isEmpty();
            assertThat(proxy.connectionsOpen()).isZero();
            assertThatThrownBy(() -> new Socket(address.getAddress(), address.getPort()).close())
                    .isInstanceOf(ConnectException.class);
            await().until(() -> echo.connections().stream().allMatch(Socket::isClosed));
        } finally {
            for (Socket s : sockets) {
                s.close();
            }
        }
    }

    Socket connect() throws IOException {
        Socket s = new Socket();
        s.setTcpNoDelay(true);
        s.connect(proxy.address(), 5_000);
        return s;
    }

    /** Sends one line and waits for its echo; the milliseconds it took. */
    static long timedEcho(Socket s, String text) throws IOException {
        String line = text + "\n";
        long start = System.nanoTime();
        s.getOutputStream().write(line.getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        assertThat(readExactly(s, line.length())).isEqualTo(line);
        return millisSince(start);
    }

    static String readExactly(Socket s, int length) throws IOException {
        byte[] bytes = s.getInputStream().readNBytes(length);
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    /** What a read meets: "reset", "end" (an orderly close), "timeout" or "data". */
    static String readOrReset(Socket s) throws IOException {
        try {
            return s.getInputStream().read() < 0 ? "end" : "data";
        } catch (SocketTimeoutException e) {
            return "timeout";
        } catch (SocketException e) {
            return "reset";
        }
    }

    static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    static List<Thread> proxyThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("delay-proxy-test") && t.isAlive()).toList();
    }

    /** A blocking echo server on loopback, a thread per connection: the test's target, not the thing under test. */
    static final class EchoServer implements AutoCloseable {

        private final ServerSocket server = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        private final List<Socket> connections = new CopyOnWriteArrayList<>();

        EchoServer() throws IOException {
            Thread acceptor = new Thread(this::acceptAll, "echo-accept");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        InetSocketAddress address() {
            return (InetSocketAddress) server.getLocalSocketAddress();
        }

        List<Socket> connections() {
            return connections;
        }

        private void acceptAll() {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    connections.add(s);
                    Thread echo = new Thread(() -> echo(s), "echo");
                    echo.setDaemon(true);
                    echo.start();
                } catch (IOException closed) {
                    return;
                }
            }
        }

        private static void echo(Socket s) {
            try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                byte[] buffer = new byte[8192];
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException gone) {
                // the proxy closed or reset the connection
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
            for (Socket s : connections) {
                s.close();
            }
        }
    }
}
