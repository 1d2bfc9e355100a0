package io.inferencegateway.lab.regions;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * A Linux network namespace for one region, {@code igw-<region>}, joined to the host by a veth pair: the host side is
 * {@code 10.77.<k>.1/24} ({@code igw<k>h}), the namespace side {@code 10.77.<k>.2/24} ({@code igw<k>n}), with
 * {@code lo} up and no other route. Processes started here ({@code ip netns exec}) have ports of their own, reach
 * nothing outside but the host at {@link #hostAddress()} (so another region only through a link listening there,
 * whatever the host's forwarding), and are reached from the host at {@link #namespaceAddress()}; each one's output
 * goes to {@code <logDir>/<label>.log}. {@link #close()} stops them (SIGTERM, then SIGKILL), kills whatever else runs
 * in the namespace, and deletes it with its veth pair.
 *
 * <p>Needs root ({@link #available()}; CI runs as root). A crashed run can leave namespaces behind: each one records
 * its owner's pid in {@code /tmp/igw-regions/<name>.owner}, and {@link #create} deletes every {@code igw-} namespace
 * whose owner is gone (killing what still runs in it) before it makes its own. A namespace whose owner is alive is
 * never touched; creating one of the same name or index then fails.
 */
public final class RegionNamespace implements AutoCloseable {

    /** Every namespace of these fixtures is named with this prefix. */
    public static final String PREFIX = "igw-";

    private static final Pattern REGION_NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,30}");
    private static final Path OWNERS = Path.of(System.getProperty("java.io.tmpdir"), "igw-regions");
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(20);
    private static final long SELF = ProcessHandle.current().pid();
    private static volatile Boolean available;

    private final String name;
    private final int index;
    private final Path logDir;
    private final List<RegionProcess> processes = new CopyOnWriteArrayList<>();
    private final Thread deleteOnExit;
    private volatile boolean closed;

    private RegionNamespace(String name, int index, Path logDir) {
        this.name = name;
        this.index = index;
        this.logDir = logDir;
        this.deleteOnExit = new Thread(this::close, "delete-" + name);
    }

    /**
     * True when this process can make namespaces: root, and {@code ip netns add} works. Tests that need regions
     * {@code assumeTrue} it; on CI (root) it holds.
     */
    public static boolean available() {
        if (available == null) {
            available = probe();
        }
        return available;
    }

    /**
     * Makes {@code igw-<region>} with the subnet {@code 10.77.<index>.0/24}, after deleting stale namespaces of a
     * crashed run.
     *
     * @param region lower-case letters, digits and dashes
     * @param index  1..254, the subnet's third byte; distinct for the regions of one run
     * @param logDir where the processes' logs go (made if missing)
     */
    public static RegionNamespace create(String region, int index, Path logDir) throws IOException {
        if (!REGION_NAME.matcher(region).matches()) {
            throw new IllegalArgumentException("region name must be lower-case letters, digits, dashes: " + region);
        }
        if (index < 1 || index > 254) {
            throw new IllegalArgumentException("region index must be 1..254: " + index);
        }
        deleteStale();
        RegionNamespace ns = new RegionNamespace(PREFIX + region, index, logDir);
        if (namespaces().contains(ns.name)) {
            throw new IllegalStateException("namespace " + ns.name + " is in use by live process " + owner(ns.name));
        }
        if (run(List.of("ip", "link", "show", ns.hostLink())).exitCode() == 0) {
            throw new IllegalStateException("link " + ns.hostLink() + " (10.77." + index + ".0/24) is in use: "
                    + "another run has a region with index " + index);
        }
        Files.createDirectories(logDir);
        Files.createDirectories(OWNERS);
        Files.writeString(ownerFile(ns.name), Long.toString(SELF)); // before the namespace: never one without owner
        Runtime.getRuntime().addShutdownHook(ns.deleteOnExit);
        try {
            ns.build();
        } catch (IOException | RuntimeException e) {
            ns.close();
            throw e;
        }
        return ns;
    }

    /** {@code igw-<region>}. */
    public String name() {
        return name;
    }

    /** The host's end of the veth pair, {@code 10.77.<k>.1}: what processes in the namespace reach the host at. */
    public InetAddress hostAddress() {
        return address(1);
    }

    /** The namespace's end of the veth pair, {@code 10.77.<k>.2}: where the host reaches its processes. */
    public InetAddress namespaceAddress() {
        return address(2);
    }

    /** Where the processes' logs are. */
    public Path logDir() {
        return logDir;
    }

    /**
     * Starts {@code command} inside the namespace, its output to {@code <logDir>/<label>.log} (appended, so a restart
     * keeps what came before). Returns at once; wait for it with {@link #awaitPort}.
     */
    public RegionProcess start(String label, List<String> command) throws IOException {
        if (closed) {
            throw new IllegalStateException(name + " is closed");
        }
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", name));
        full.addAll(command);
        Path log = logDir.resolve(label + ".log");
        Files.writeString(log, "### " + String.join(" ", full) + "\n", StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        Process process = new ProcessBuilder(full).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        RegionProcess started = new RegionProcess(label, process, log);
        processes.add(started);
        return started;
    }

    /**
     * Waits until {@code port} in the namespace accepts a TCP connection from the host; fails early, with the end of
     * its log, if {@code process} exits first.
     */
    public void awaitPort(RegionProcess process, int port, Duration timeout) throws IOException {
        InetSocketAddress address = new InetSocketAddress(namespaceAddress(), port);
        process.awaitWhileAlive(address + " in " + name + " answering", timeout, () -> {
            try (Socket s = new Socket()) {
                s.connect(address, 500);
                return true;
            } catch (IOException notYet) {
                return false;
            }
        });
    }

    /** The processes started here, the stopped ones too. */
    public List<RegionProcess> processes() {
        return List.copyOf(processes);
    }

    /**
     * Stops every process (SIGTERM to all, then SIGKILL to those still there after the grace period), kills
     * anything else still in the namespace, and deletes it. Safe to call twice.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        processes.forEach(p -> p.process().destroy());
        long deadline = System.nanoTime() + RegionProcess.STOP_GRACE.toNanos();
        for (RegionProcess p : processes) {
            if (!p.waitForExit(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) {
                p.kill();
            }
        }
        try {
            delete(name);
        } catch (IOException e) {
            System.err.println("could not delete namespace " + name + ": " + e.getMessage());
        }
        if (Thread.currentThread() != deleteOnExit) {
            try {
                Runtime.getRuntime().removeShutdownHook(deleteOnExit);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs, or has run, already
            }
        }
    }

    @Override
    public String toString() {
        return name + " (" + namespaceAddress().getHostAddress() + ")";
    }

    private void build() throws IOException {
        String subnet = "10.77." + index + ".";
        ip("netns", "add", name);
        ip("link", "add", hostLink(), "type", "veth", "peer", "name", namespaceLink(), "netns", name);
        ip("addr", "add", subnet + "1/24", "dev", hostLink());
        ip("link", "set", hostLink(), "up");
        ip("-n", name, "addr", "add", subnet + "2/24", "dev", namespaceLink());
        ip("-n", name, "link", "set", namespaceLink(), "up");
        ip("-n", name, "link", "set", "lo", "up");
    }

    private String hostLink() {
        return "igw" + index + "h";
    }

    private String namespaceLink() {
        return "igw" + index + "n";
    }

    private InetAddress address(int host) {
        try {
            return InetAddress.getByAddress(new byte[] {10, 77, (byte) index, (byte) host});
        } catch (UnknownHostException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    /** Deletes the {@code igw-} namespaces whose owner has exited, and whatever still runs in them. */
    static void deleteStale() throws IOException {
        for (String ns : namespaces()) {
            long owner = owner(ns);
            boolean ownerAlive = owner > 0 && ProcessHandle.of(owner).map(ProcessHandle::isAlive).orElse(false);
            if (!ownerAlive) {
                System.err.println("deleting namespace " + ns + " left behind by process " + owner);
                delete(ns);
            }
        }
    }

    /** Kills what runs in {@code ns}, deletes it (and so its veth pair) and its owner file. */
    private static void delete(String ns) throws IOException {
        CommandOutput pids = run(List.of("ip", "netns", "pids", ns));
        if (pids.exitCode() == 0) {
            List<ProcessHandle> killed = new ArrayList<>();
            for (String pid : pids.output().split("\\s+")) {
                if (!pid.isBlank()) {
                    ProcessHandle.of(Long.parseLong(pid)).ifPresent(h -> {
                        h.destroyForcibly();
                        killed.add(h);
                    });
                }
            }
            for (ProcessHandle h : killed) { // a process still in the namespace would keep it, and its veth, alive
                try {
                    h.onExit().get(RegionProcess.STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
                } catch (ExecutionException | TimeoutException e) {
                    throw new IOException("process " + h.pid() + " in " + ns + " did not die", e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while deleting " + ns, e);
                }
            }
        }
        // the kernel removes a deleted namespace's links later, on its own time; deleted here, the pair is gone at once
        // and a run that follows can take its index straight away
        for (String line : run(List.of("ip", "-n", ns, "-o", "link", "show", "type", "veth")).output().split("\n")) {
            String[] fields = line.split(":\\s+");
            if (fields.length > 1) {
                run(List.of("ip", "-n", ns, "link", "delete", fields[1].split("@")[0]));
            }
        }
        CommandOutput deleted = run(List.of("ip", "netns", "delete", ns));
        if (deleted.exitCode() != 0 && namespaces().contains(ns)) {
            throw new IOException("ip netns delete " + ns + ": " + deleted.output());
        }
        Files.deleteIfExists(ownerFile(ns));
    }

    /** The names of the {@code igw-} namespaces on this host. */
    static List<String> namespaces() throws IOException {
        List<String> names = new ArrayList<>();
        for (String line : run(List.of("ip", "netns", "list")).output().split("\n")) {
            String ns = line.split("\\s+")[0];
            if (ns.startsWith(PREFIX)) {
                names.add(ns);
            }
        }
        return names;
    }

    /** The pid that made {@code ns}, or -1 when unknown (no owner file). */
    private static long owner(String ns) {
        try {
            return Long.parseLong(Files.readString(ownerFile(ns)).trim());
        } catch (IOException | NumberFormatException unknown) {
            return -1;
        }
    }

    private static Path ownerFile(String ns) {
        return OWNERS.resolve(ns + ".owner");
    }

    private static boolean probe() {
        String ns = PREFIX + "probe-" + SELF;
        try {
            boolean root = run(List.of("id", "-u")).output().trim().equals("0");
            if (root && run(List.of("ip", "netns", "add", ns)).exitCode() == 0) {
                run(List.of("ip", "netns", "delete", ns));
                return true;
            }
        } catch (IOException e) {
            // no ip command, or no way to run it
        }
        return false;
    }

    private static void ip(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(args));
        CommandOutput r = run(command);
        if (r.exitCode() != 0) {
            throw new IOException(String.join(" ", command) + " failed (" + r.exitCode() + "): " + r.output().trim());
        }
    }

    private record CommandOutput(int exitCode, String output) {
    }

    private static CommandOutput run(List<String> command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(COMMAND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not finish in " + COMMAND_TIMEOUT);
            }
            return new CommandOutput(p.exitValue(), output);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " interrupted", e);
        }
    }
}
