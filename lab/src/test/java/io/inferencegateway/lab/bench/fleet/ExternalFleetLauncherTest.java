package io.inferencegateway.lab.bench.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

/** A user's servers as the bench's fleet: nothing started, samples from their metrics, no faults. */
class ExternalFleetLauncherTest {

    private static String metrics(int running, int computed, int cached) {
        return "llamacpp:requests_processing " + running + "\nllamacpp:requests_deferred 0\n"
                + "llamacpp:prompt_tokens_total " + computed + "\nllamacpp:prompt_tokens_cached_total " + cached + "\n";
    }

    private final PrintStream log = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    @Test
    void everyScenarioRunsOnTheServersAsTheyAreInRealTime() throws Exception {
        try (FakeModelServer server = new FakeModelServer()) {
            ExternalServers servers = new ExternalServers(ServerEngine.LLAMACPP, List.of(server.address()));
            FleetSpec scenario = new FleetSpec("qwen", FleetSpec.pods(4, 1.0, 0.5), List.of("qwen-lora-0"), 4, 6144,
                    64, 8192, 3.0);

            FleetSpec fleet = new ExternalFleetLauncher(servers, Duration.ofSeconds(1), log).fleetFor(scenario);

            assertThat(fleet.isExternal()).isTrue();
            assertThat(fleet.external()).isEqualTo(servers);
            assertThat(fleet.pods()).containsExactly(new PodSpec(ExternalServers.name(server.address()), 1.0));
            assertThat(fleet.modelName()).isEqualTo("qwen");
            assertThat(fleet.loraAdapters()).isEmpty();
            assertThat(fleet.timeScale()).isEqualTo(1.0);
            assertThat(fleet.withModelName("other").external()).isEqualTo(servers);
            assertThatThrownBy(() -> fleet.withTimeScale(2)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void samplesCountFromTheStartOfTheRunAndTheServersOutliveTheFleet() throws Exception {
        try (FakeModelServer server = new FakeModelServer().answer("/metrics", 200, metrics(0, 1000, 500))) {
            ExternalServers servers = new ExternalServers(ServerEngine.LLAMACPP, List.of(server.address()));
            ExternalFleetLauncher launcher = new ExternalFleetLauncher(servers, Duration.ofSeconds(1), log);
            FleetSpec spec = launcher.fleetFor(new FleetSpec("m", FleetSpec.pods(1), List.of(), 0, 100, 8, 8192, 1.0));

            try (Fleet fleet = launcher.start(spec, 42)) {
                server.answer("/metrics", 200, metrics(2, 1300, 800));
                assertThat(fleet.endpoints()).containsExactly(server.address());
                PodSample sample = fleet.sample().get(0);
                assertThat(sample.running()).isEqualTo(2);
                assertThat(sample.prefixQueries()).as("600 prompt tokens since the start").isEqualTo(600);
                assertThat(sample.prefixHits()).isEqualTo(300);
                assertThat(sample.served()).as("llama.cpp counts no requests").isEqualTo(-1);
                assertThat(fleet.metricsScrapes()).isEqualTo(-1);
                assertThatThrownBy(() -> fleet.inject(new PodFault(0, 0, PodFault.Kind.KILL, 0)))
                        .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("--endpoints");
            }
            server.answer("/metrics", 200, metrics(0, 1300, 800));
            try (Fleet again = launcher.start(spec, 42)) {
                assertThat(again.sample().get(0).prefixQueries()).as("the next run counts from its own start")
                        .isZero();
            }
        }
    }

    @Test
    void theNextRunWaitsNoLongerThanItsBoundForServersStillBusy() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (FakeModelServer server = new FakeModelServer().answer("/metrics", 200, metrics(3, 0, 0))) {
            ExternalServers servers = new ExternalServers(ServerEngine.LLAMACPP, List.of(server.address()));
            ExternalFleetLauncher launcher = new ExternalFleetLauncher(servers, Duration.ofMillis(600),
                    new PrintStream(out, true, StandardCharsets.UTF_8));
            FleetSpec spec = launcher.fleetFor(new FleetSpec("m", FleetSpec.pods(1), List.of(), 0, 100, 8, 8192, 1.0));
            launcher.start(spec, 1).close(); // the first run does not wait

            launcher.start(spec, 1).close();

            assertThat(out.toString(StandardCharsets.UTF_8))
                    .contains("waiting for the servers to finish 3 requests left from the last run")
                    .contains("warning: the servers still hold 3 requests after 0.6 s; starting the next run anyway");
        }
    }
}
