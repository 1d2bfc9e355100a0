package io.inferencegateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

import org.junit.jupiter.api.Test;

/**
 * The jar Camel K pulls into every gateway pod holds the gateway and nothing of the lab, while the runnable jar built
 * beside it still has every command.
 */
class GatewayArtifactIT {

    static List<String> entries(String property) throws Exception {
        try (JarFile jar = new JarFile(Path.of(System.getProperty(property)).toFile())) {
            return jar.stream().map(ZipEntry::getName).toList();
        }
    }

    @Test
    void theCamelKArtifactHoldsTheGatewayAndNoLabClass() throws Exception {
        List<String> entries = entries("gateway.artifact");

        assertThat(entries).noneMatch(e -> e.startsWith("io/inferencegateway/lab/"))
                .noneMatch(e -> e.contains("simulator") || e.contains("bench"))
                .contains("io/inferencegateway/camel/UpstreamComponent.class", "META-INF/beans.xml",
                        "META-INF/services/org/apache/camel/component/upstream", "routes/inference.camel.yaml");
    }

    @Test
    void theRunnableJarHasTheLabToo() throws Exception {
        assertThat(entries("gateway.jar")).contains("io/inferencegateway/lab/cli/InferenceGatewayCli.class",
                "io/inferencegateway/lab/simulator/SimulatedFleet.class", "io/inferencegateway/camel/UpstreamComponent.class");
    }
}
