package io.inferencegateway.lab.soak;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;

import io.inferencegateway.lab.bench.gateway.GatewayProcess;

/**
 * The two gateway replicas, processes of the runnable jar on fixed ports, as a Service's endpoints: the client sends
 * only to replicas that are {@link #up}. {@link #kill} takes one out of rotation and SIGKILLs it; {@link #restart}
 * starts a new process (the next incarnation, with its own log) on the same port and puts it back once ready.
 */
final class SoakReplicas implements AutoCloseable {

    private static final Duration READY = Duration.ofSeconds(90);

    private final List<String> command;
    private final Path config;
    private final Path logDir;
    private final int[] ports;
    private final GatewayProcess[] processes;
    private final AtomicIntegerArray incarnation;
    private final AtomicIntegerArray up;
    private final List<Path> logs = new ArrayList<>();

    SoakReplicas(List<String> command, Path config, Path logDir, int replicas) throws IOException, InterruptedException {
        this.command = command;
        this.config = config;
        this.logDir = logDir;
        this.ports = new int[replicas];
        this.processes = new GatewayProcess[replicas];
        this.incarnation = new AtomicIntegerArray(replicas);
        this.up = new AtomicIntegerArray(replicas);
        Files.createDirectories(logDir);
        try {
            for (int i = 0; i < replicas; i++) {
                ports[i] = GatewayProcess.freePort();
                processes[i] = spawn(i);
            }
            for (int i = 0; i < replicas; i++) {
                processes[i].awaitReady(READY);
                up.set(i, 1);
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            close();
            throw e;
        }
    }

    private synchronized GatewayProcess spawn(int i) throws IOException {
        Path log = logDir.resolve("gateway-" + i + "-" + incarnation.get(i) + ".log");
        logs.add(log);
        return GatewayProcess.spawn(command, config, ports[i], log);
    }

    int size() {
        return ports.length;
    }

    String baseUrl(int i) {
        return "http://127.0.0.1:" + ports[i];
    }

    List<String> baseUrls() {
        List<String> urls = new ArrayList<>();
        for (int i = 0; i < ports.length; i++) {
            urls.add(baseUrl(i));
        }
        return urls;
    }

    boolean up(int i) {
        return up.get(i) == 1;
    }

    int incarnation(int i) {
        return incarnation.get(i);
    }

    synchronized long pid(int i) {
        return processes[i].pid();
    }

    /** Out of rotation, then SIGKILL: requests in flight to it break. */
    void kill(int i) {
        up.set(i, 0);
        GatewayProcess p;
        synchronized (this) {
            p = processes[i];
        }
        p.kill();
    }

    /**
     * A new process on the same port; back in rotation once {@code GET /ready} answers. A process that exits before
     * it is ready (it read the config file while a bad reload was in it, which a gateway refuses at start) is started
     * again a second later, as the kubelet restarts a crashing container.
     */
    void restart(int i) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + READY.toNanos();
        while (true) {
            GatewayProcess p;
            synchronized (this) {
                processes[i].awaitExit();
                incarnation.incrementAndGet(i);
                p = spawn(i);
                processes[i] = p;
            }
            try {
                p.awaitReady(READY);
                up.set(i, 1);
                return;
            } catch (IOException exited) {
                if (p.isAlive() || System.nanoTime() > deadline) {
                    throw exited;
                }
                Thread.sleep(1_000);
            }
        }
    }

    synchronized List<Path> logs() {
        return List.copyOf(logs);
    }

    @Override
    public synchronized void close() {
        for (GatewayProcess p : processes) {
            if (p != null) {
                p.close();
            }
        }
    }
}
