package io.inferencegateway.simulator;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code redis-server} (Debian's package {@code redis-server}; tools/provision.sh installs it for the
 * tests) on a free loopback port, with no persistence: what {@code bench --replica-modes shared} and the tests share
 * their state through. {@link #stop()} kills it and {@link #restart()} brings it back on the same port, empty, as a crashed
 * and restarted Redis would come back.
 */
public final class RedisServer implements AutoCloseable {

    private final String program;
    private final int port;
    private final Path dir;
    private Process process;

    private RedisServer(String program, int port, Path dir) {
        this.program = program;
        this.port = port;
        this.dir = dir;
    }

    /** Starts a Redis on a free loopback port and waits until it answers PING. */
    public static RedisServer start() throws IOException, InterruptedException {
        String program = onPath("redis-server");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        RedisServer redis = new RedisServer(program, port, Files.createTempDirectory("redis"));
        redis.restart();
        return redis;
    }

    private static String onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path p = Path.of(dir, program);
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        throw new IllegalStateException(program + " not found on PATH: apt-get install redis-server");
    }

    public int port() {
        return port;
    }

    /** {@code redis://127.0.0.1:<port>}. */
    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    /**
     * Starts it again after {@link #stop()}, on the same port (an instance method cannot also be called
     * {@code start()} beside the static one).
     */
    public synchronized void restart() throws IOException, InterruptedException {
        if (process != null && process.isAlive()) {
            return;
        }
        process = new ProcessBuilder(List.of(program, "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.toString()))
                .redirectErrorStream(true).redirectOutput(new File(dir.toFile(), "redis.log")).start();
        for (int i = 0; i < 200; i++) {
            if ("+PONG".equals(command("PING"))) {
                return;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("redis-server did not answer on port " + port + "; see " + dir + "/redis.log");
    }

    /** Kills it (SIGKILL), as a crash would. */
    public synchronized void stop() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** Sends one inline command and returns the first line of the reply, or null when Redis does not answer. */
    public String command(String line) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 500);
            s.setSoTimeout(2000);
            OutputStream out = s.getOutputStream();
            out.write((line + "\r\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = s.getInputStream();
            StringBuilder sb = new StringBuilder();
            for (int c = in.read(); c >= 0 && c != '\r'; c = in.read()) {
                sb.append((char) c);
            }
            return sb.toString();
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
