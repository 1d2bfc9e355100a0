package io.inferencegateway.lab.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/**
 * The chaos soak's CI variant: 80 s of load at 60 % of the fleet's capacity with about 30 overlapping faults and
 * reloads every few seconds, two replicas from the runnable jar with Netty's paranoid leak detector, every invariant
 * checked (docs/benchmarks/soak.md). A failure prints the table and the history: seed, fault timeline, the offending
 * requests. {@code -Dsoak.seed=N} replays another seed.
 */
class SoakIT {

    @Test
    void everyInvariantHoldsUnderOverlappingFaults() throws Exception {
        Path jar = Path.of(System.getProperty("gateway.jar", "../target/inference-gateway.jar"));
        assertThat(jar).exists();
        long seed = Long.getLong("soak.seed", 42);
        Path dir = Files.createDirectories(Path.of("target", "soak-it-" + seed)).toAbsolutePath();
        SoakReport report = new Soak(SoakSettings.ci(jar.toAbsolutePath(), dir, seed), System.out).run();
        System.out.println(report.summary());
        assertThat(report.passed()).as("%s", report.history()).isTrue();
    }
}
