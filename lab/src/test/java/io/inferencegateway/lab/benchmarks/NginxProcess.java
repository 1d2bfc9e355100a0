package io.inferencegateway.lab.benchmarks;

import java.io.File;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * nginx as the plain L7 proxy a user could put in the gateway's place, for the side-by-side runs of
 * {@link ProxyOverheadBenchmark}: a generated config on a free port, a keep-alive upstream to the same
 * model servers, responses relayed unbuffered (as SSE needs) and request bodies held in memory.
 * Present only when {@code nginx} is on the PATH (Debian: {@code apt-get install nginx-light}).
 */
final class NginxProcess implements AutoCloseable {

    final Process process;
    final int port;
    private final Path dir;

    private NginxProcess(Process process, int port, Path dir) {
        this.process = process;
        this.port = port;
        this.dir = dir;
    }

    /** The nginx binary on the PATH (or in /usr/sbin, where Debian puts it), or null. */
    static String binary() {
        for (String d : (System.getenv().getOrDefault("PATH", "") + File.pathSeparator + "/usr/sbin")
                .split(File.pathSeparator)) {
            File f = new File(d, "nginx");
            if (f.canExecute()) {
                return f.getPath();
            }
        }
        return null;
    }

    /**
     * @param upstreams host:port of every model server; nginx balances them by least connections
     * @param workers   worker processes (the gateway gets as many event-loop threads as cores)
     */
    static NginxProcess start(List<String> upstreams, int workers) throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path dir = Files.createTempDirectory("bench-nginx");
        String servers = upstreams.stream().map(u -> "    server " + u + ";").collect(Collectors.joining("\n"));
        Files.writeString(dir.resolve("nginx.conf"), """
                worker_processes %d;
                daemon off;
                pid %s/nginx.pid;
                error_log %s/error.log warn;
                events { worker_connections 16384; }
                http {
                  access_log off;
                  client_body_temp_path %s/body;
                  proxy_temp_path %s/proxy;
                  upstream models {
                    least_conn;
                %s
                    keepalive 256;
                  }
                  server {
                    listen 127.0.0.1:%d backlog=4096;
                    keepalive_requests 1000000;
                    client_max_body_size 16m;
                    client_body_buffer_size 1m;
                    location / {
                      proxy_pass http://models;
                      proxy_http_version 1.1;
                      proxy_set_header Connection "";
                      proxy_buffering off;
                      proxy_read_timeout 300s;
                    }
                  }
                }
                """.formatted(workers, dir, dir, dir, dir, servers, port));
        Process p = new ProcessBuilder(binary(), "-p", dir.toString(), "-c", dir.resolve("nginx.conf").toString(),
                "-e", dir.resolve("error.log").toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("out.log").toFile()).start();
        for (int i = 0; i < 100; i++) {
            try (Socket s = new Socket("127.0.0.1", port)) {
                return new NginxProcess(p, port, dir);
            } catch (java.io.IOException notYet) {
                if (!p.isAlive()) {
                    break;
                }
                Thread.sleep(100);
            }
        }
        p.destroyForcibly();
        throw new IllegalStateException("nginx did not start; see " + dir.resolve("error.log"));
    }

    /** CPU time nginx's master and worker processes have used so far, in nanoseconds. */
    long cpuNanos() {
        long[] sum = {cpu(process.toHandle())};
        process.toHandle().descendants().forEach(h -> sum[0] += cpu(h));
        return sum[0];
    }

    /** Of {@link #cpuNanos}, the time spent in the kernel (system calls), from /proc on Linux; 0 elsewhere. */
    long kernelNanos() {
        long[] sum = {kernel(process.toHandle())};
        process.toHandle().descendants().forEach(h -> sum[0] += kernel(h));
        return sum[0];
    }

    private static long kernel(ProcessHandle h) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(h.pid()), "stat"));
            return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[12]) * 10_000_000L; // USER_HZ 100
        } catch (java.io.IOException | RuntimeException notLinux) {
            return 0;
        }
    }

    private static long cpu(ProcessHandle h) {
        return h.info().totalCpuDuration().map(java.time.Duration::toNanos).orElse(0L);
    }

    @Override
    public void close() {
        stop(process);
    }

    /** Asks a process to stop, gives it 10 s, then kills it; the benchmarks' processes all stop so. */
    static void stop(Process process) {
        process.destroy();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process.destroyForcibly();
    }
}
