package io.inferencegateway.lab.bench.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.inferencegateway.lab.bench.fleet.FleetSpec;

/** Launching a gateway subprocess, here a fake one from the test classpath. */
class GatewayProcessTest {

    private static final List<String> FAKE = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
            FakeGatewayMain.class.getName());
    private static final FleetSpec FLEET = new FleetSpec("meta-llama/Llama-3.1-8B-Instruct", FleetSpec.pods(2),
            List.of(), 0, 1000, 16, 8192, 1.0);
    private static final List<InetSocketAddress> PODS = List.of(new InetSocketAddress("127.0.0.1", 9001),
            new InetSocketAddress("127.0.0.1", 9002));

    @TempDir
    Path dir;

    @Test
    void writesTheConfigWaitsUntilReadyAndStopsTheProcess() throws Exception {
        GatewayLauncher launcher = GatewayProcess.launcher(FAKE, Duration.ofSeconds(300), Duration.ofMillis(50),
                Duration.ofSeconds(30));
        GatewayProcess gateway = (GatewayProcess) launcher.start(FLEET, "least-request", PODS, dir.resolve("run"));
        try {
            assertThat(gateway.targets()).containsExactly(gateway.address());
            assertThat(Files.readString(dir.resolve("run/gateway.yaml"))).contains("policy: least-request");
            assertThat(status(gateway.address(), "/ready")).as("ready once start returns").isEqualTo(200);
            assertThat(Files.readString(dir.resolve("run/gateway.log"))).contains("fake gateway listening");
        } finally {
            gateway.close();
        }
        assertThat(gateway.isAlive()).isFalse();
    }

    @Test
    void aGatewayThatExitsIsReportedWithItsLog() {
        GatewayLauncher launcher = GatewayProcess.launcher(FAKE, Duration.ofSeconds(300), Duration.ofMillis(50),
                Duration.ofSeconds(30));
        assertThatThrownBy(() -> launcher.start(FLEET, "crash", PODS, dir.resolve("crash")))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("exited with code 2")
                .hasMessageContaining("invalid config: spec.schedulers[0].policy");
    }

    @Test
    void aGatewayThatNeverGetsReadyIsStopped() {
        GatewayLauncher launcher = GatewayProcess.launcher(FAKE, Duration.ofSeconds(300), Duration.ofMillis(50),
                Duration.ofSeconds(3));
        assertThatThrownBy(() -> launcher.start(FLEET, "never-ready", PODS, dir.resolve("stuck")))
                .isInstanceOf(IOException.class).hasMessageContaining("not ready after 3 s");
    }

    private static int status(InetSocketAddress address, String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + address.getPort() + path)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
