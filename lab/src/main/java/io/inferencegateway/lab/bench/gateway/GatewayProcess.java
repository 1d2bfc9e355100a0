package io.inferencegateway.lab.bench.gateway;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.inferencegateway.lab.bench.fleet.FleetSpec;
import io.inferencegateway.simulator.RedisServer;

/**
 * The gateway as a child process: {@code <command> serve --config FILE --port N}, talked to over
 * HTTP only. Start returns once {@code GET /ready} answers 200; close stops it with SIGTERM, then
 * SIGKILL if it lingers. A shutdown hook kills it if the bench itself is interrupted.
 */
public final class GatewayProcess implements LoadTarget {

    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final Process process;
    private final InetSocketAddress address;
    private final Path log;
    private final Thread killOnExit;

    private GatewayProcess(Process process, InetSocketAddress address, Path log) {
        this.process = process;
        this.address = address;
        this.log = log;
        this.killOnExit = new Thread(process::destroyForcibly, "gateway-kill-on-exit");
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    /** {@code java -jar <jar>}, with the running JVM's java binary. */
    public static List<String> javaJarCommand(Path jar, List<String> jvmOptions) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-jar");
        command.add(jar.toString());
        return command;
    }

    /**
     * A launcher that writes {@code gateway.yaml} into the run directory (durations in simulated time,
     * see {@link GatewayConfigWriter#render}), starts
     * {@code command serve --config gateway.yaml --port N} on a free port and waits for readiness.
     */
    public static GatewayLauncher launcher(List<String> command, Duration routeTimeout, Duration metricsInterval,
                                           Duration readyTimeout) {
        return launcher(command, routeTimeout, metricsInterval, readyTimeout, false, false);
    }

    /**
     * As above; {@code accessLog} has the gateway log one JSON line per request into the run's gateway.log, and
     * {@code flowControl} turns the pool's flow control on.
     */
    public static GatewayLauncher launcher(List<String> command, Duration routeTimeout, Duration metricsInterval,
                                           Duration readyTimeout, boolean accessLog, boolean flowControl) {
        return new GatewayLauncher() {
            @Override
            public LoadTarget start(FleetSpec fleet, String policy, List<InetSocketAddress> pods, Path workDir)
                    throws Exception {
                Files.createDirectories(workDir);
                Path config = workDir.resolve("gateway.yaml");
                Files.writeString(config, GatewayConfigWriter.render(fleet, policy, pods, routeTimeout, metricsInterval,
                        null, accessLog, flowControl));
                return GatewayProcess.start(command, config, freePort(), workDir.resolve("gateway.log"), readyTimeout);
            }

            @Override
            public LoadTarget start(FleetSpec fleet, String policy, int replicas, ReplicaMode mode,
                                    List<InetSocketAddress> pods, Path workDir) throws Exception {
                if (replicas == 1 && mode == ReplicaMode.NAIVE) {
                    return start(fleet, policy, pods, workDir);
                }
                Files.createDirectories(workDir);
                RedisServer redis = mode == ReplicaMode.SHARED ? RedisServer.start() : null;
                Path config = workDir.resolve("gateway.yaml");
                Files.writeString(config, GatewayConfigWriter.render(fleet, policy, pods, routeTimeout, metricsInterval,
                        mode.section(replicas, redis == null ? null : redis.url()), accessLog, flowControl));
                List<GatewayProcess> started = new ArrayList<>();
                try {
                    for (int i = 0; i < replicas; i++) { // spawn all first: the JVMs start side by side
                        started.add(spawn(command, config, freePort(), workDir.resolve("gateway-" + i + ".log")));
                    }
                    for (GatewayProcess g : started) {
                        g.awaitReady(readyTimeout);
                    }
                } catch (IOException | InterruptedException | RuntimeException e) {
                    started.forEach(GatewayProcess::close);
                    if (redis != null) {
                        redis.close();
                    }
                    throw e;
                }
                return new GatewayReplicas(started, redis);
            }
        };
    }

    public static GatewayProcess start(List<String> command, Path config, int port, Path log, Duration readyTimeout)
            throws IOException, InterruptedException {
        GatewayProcess gateway = spawn(command, config, port, log);
        try {
            gateway.awaitReady(readyTimeout);
        } catch (IOException | InterruptedException | RuntimeException e) {
            gateway.close();
            throw e;
        }
        return gateway;
    }

    /** Starts the process without waiting for it to be ready ({@link #awaitReady}). */
    public static GatewayProcess spawn(List<String> command, Path config, int port, Path log) throws IOException {
        List<String> full = new ArrayList<>(command);
        full.addAll(List.of("serve", "--config", config.toString(), "--port", Integer.toString(port)));
        Process process = new ProcessBuilder(full).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log.toFile())).start();
        return new GatewayProcess(process, new InetSocketAddress("127.0.0.1", port), log);
    }

    /** SIGKILL: the gateway dies at once, as on a node failure, with its connections reset. */
    public void kill() {
        process.destroyForcibly();
    }

    @Override
    public List<InetSocketAddress> targets() {
        return List.of(address);
    }

    public InetSocketAddress address() {
        return address;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The process id, for what only /proc tells (open files, threads). */
    public long pid() {
        return process.pid();
    }

    /** Waits until the process is gone, after {@link #kill} (at most the stop grace). */
    public void awaitExit() throws InterruptedException {
        process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Returns once {@code GET /ready} answers 200; fails with the end of its log if it exits or the time runs out. */
    public void awaitReady(Duration timeout) throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest ready = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + address.getPort() + "/ready"))
                .timeout(Duration.ofSeconds(2)).GET().build();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new IOException("gateway exited with code " + process.exitValue() + " before it was ready; "
                        + "its log " + log + " ends with:\n" + tail(log));
            }
            try {
                if (client.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notListeningYet) {
                // keep polling until the deadline
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("gateway not ready after " + timeout.toSeconds() + " s; its log " + log
                        + " ends with:\n" + tail(log));
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    /** Stops the gateway: SIGTERM first so it can close cleanly, SIGKILL after a grace period. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running already
        }
    }

    /** A loopback port free now. */
    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static String tail(Path file) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }
}
