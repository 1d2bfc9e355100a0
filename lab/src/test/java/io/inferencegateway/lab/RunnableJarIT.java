package io.inferencegateway.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

import org.junit.jupiter.api.Test;

/** The runnable jar the README's commands run holds the gateway, the simulator and the lab's commands. */
class RunnableJarIT {

    @Test
    void theRunnableJarHasEveryCommand() throws Exception {
        try (JarFile jar = new JarFile(Path.of(System.getProperty("gateway.jar")).toFile())) {
            assertThat(jar.stream().map(ZipEntry::getName).toList()).contains(
                    "io/inferencegateway/lab/cli/InferenceGatewayCli.class",
                    "io/inferencegateway/simulator/SimulatedFleet.class",
                    "io/inferencegateway/camel/ServeCommand.class",
                    "io/inferencegateway/camel/UpstreamComponent.class",
                    "routes/inference.camel.yaml");
            assertThat(jar.getManifest().getMainAttributes().getValue("Main-Class"))
                    .isEqualTo("io.inferencegateway.lab.cli.InferenceGatewayCli");
        }
    }
}
