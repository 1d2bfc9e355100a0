package io.inferencegateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

import org.junit.jupiter.api.Test;

/**
 * The jar Camel K pulls into every gateway pod holds the gateway, its routes and Kamelets, and runs its own serve
 * command. (The lab, a module of its own, cannot be in it; lab/.../RunnableJarIT checks the runnable jar.)
 */
class GatewayArtifactIT {

    @Test
    void theCamelKArtifactHoldsTheGatewayAndRunsServe() throws Exception {
        try (JarFile jar = new JarFile(Path.of(System.getProperty("gateway.artifact")).toFile())) {
            assertThat(jar.stream().map(ZipEntry::getName).toList())
                    .noneMatch(e -> e.startsWith("io/inferencegateway/lab/"))
                    .contains("io/inferencegateway/camel/UpstreamComponent.class", "META-INF/beans.xml",
                            "META-INF/services/org/apache/camel/component/upstream", "routes/inference.camel.yaml",
                            "kamelets/model-server-pods-source.kamelet.yaml");
            assertThat(jar.getManifest().getMainAttributes().getValue("Main-Class"))
                    .isEqualTo("io.inferencegateway.camel.ServeCommand");
        }
    }
}
