package io.inferencegateway.lab.regions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A region's namespace: made with its veth pair, a process inside it reached from the host at the namespace's address
 * only, its output in a log, everything gone after close, and a crashed run's namespace cleaned up. Needs root (CI
 * runs as root); skipped elsewhere.
 */
class RegionNamespaceIT {

    static final Path LOGS = Path.of("target", "regions", "namespace-it");
    static final Duration READY = Duration.ofSeconds(60);

    @BeforeAll
    static void needsRoot() {
        assumeTrue(RegionNamespace.available(), "network namespaces need root");
    }

    @Test
    void aProcessInTheNamespaceIsReachedAtItsVethAddressOnlyAndIsGoneAfterClose() throws Exception {
        RegionProcess pod;
        RegionNamespace ns = RegionNamespace.create("nstest", 231, LOGS);
        try (ns) {
            assertThat(RegionNamespace.namespaces()).contains("igw-nstest");
            assertThat(ns.hostAddress().getHostAddress()).isEqualTo("10.77.231.1");
            assertThat(ns.namespaceAddress().getHostAddress()).isEqualTo("10.77.231.2");

            pod = ns.start("pod", simulate(9100));
            ns.awaitPort(pod, 9100, READY);

            assertThat(connects(new InetSocketAddress(ns.namespaceAddress(), 9100))).isTrue();
            assertThat(connects(new InetSocketAddress("127.0.0.1", 9100)))
                    .as("the host's loopback is not the namespace's").isFalse();
            // the port answers before the process's announcement is flushed whole (CI once read "pod " alone)
            await("the pod's announcement").atMost(READY).until(() -> Files.readString(pod.log())
                    .contains("pod 0 listening on"));
        }
        assertThat(pod.isAlive()).isFalse();
        assertThat(RegionNamespace.namespaces()).doesNotContain("igw-nstest");
        assertThat(linkExists("igw231h")).as("the veth pair goes with the namespace").isFalse();
        ns.close(); // twice is fine
    }

    @Test
    void aNamespaceLeftByADeadOwnerIsDeletedWithWhatRunsInItBeforeTheNextOne() throws Exception {
        ip("netns", "add", "igw-crashed");
        Path owners = Path.of(System.getProperty("java.io.tmpdir"), "igw-regions");
        Files.createDirectories(owners);
        Files.writeString(owners.resolve("igw-crashed.owner"), "999999999"); // no such process
        Process orphan = new ProcessBuilder("ip", "netns", "exec", "igw-crashed", "sleep", "600").start();

        try (RegionNamespace ns = RegionNamespace.create("next", 232, LOGS)) {
            assertThat(RegionNamespace.namespaces()).contains("igw-next").doesNotContain("igw-crashed");
            assertThat(orphan.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)).as("the orphan was killed").isTrue();
        } finally {
            orphan.destroyForcibly();
            new ProcessBuilder("ip", "netns", "delete", "igw-crashed").start().waitFor();
        }
    }

    @Test
    void aNamespaceOfThisRunIsNotTakenTwice() throws Exception {
        try (RegionNamespace ns = RegionNamespace.create("twice", 233, LOGS)) {
            assertThatThrownBy(() -> RegionNamespace.create("twice", 234, LOGS))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("in use");
            assertThatThrownBy(() -> RegionNamespace.create("other", 233, LOGS))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("10.77.233.0/24");
            assertThat(RegionNamespace.namespaces()).contains("igw-twice").doesNotContain("igw-other");
        }
    }

    static List<String> simulate(int port) {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m",
                "-XX:TieredStopAtLevel=1", "-jar", Region.jar().toString(), "simulate", "--pods", "1",
                "--base-port", Integer.toString(port), "--host", "0.0.0.0", "--io-threads", "1");
    }

    static boolean connects(InetSocketAddress address) {
        try (Socket s = new Socket()) {
            s.connect(address, 1_000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    static boolean linkExists(String name) throws Exception {
        return new ProcessBuilder("ip", "link", "show", name).start().waitFor() == 0;
    }

    static void ip(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("ip"));
        command.addAll(List.of(args));
        assertThat(new ProcessBuilder(command).inheritIO().start().waitFor()).as(String.join(" ", command)).isZero();
    }
}
