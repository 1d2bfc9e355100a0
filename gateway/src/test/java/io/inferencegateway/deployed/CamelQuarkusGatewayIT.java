package io.inferencegateway.deployed;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The suite against the gateway on Camel K's default runtime: the Camel Quarkus application of
 * {@code src/it/camel-quarkus}, built from this build's jar in pre-integration-test and run as a Camel K pod would run
 * it ({@link CamelKPodLauncher}).
 */
class CamelQuarkusGatewayIT extends DeployedGatewaySuite {

    /** This build's (unshaded) jar, the artifact Camel K pulls; the failsafe configuration in pom.xml names it. */
    static final Path GATEWAY_ARTIFACT = Path.of(System.getProperty("gateway.artifact",
            "target/inference-gateway-0.1.0-SNAPSHOT.jar"));

    @Override
    DeployedGateway deploy(Path workDir, String configYaml, Map<String, String> properties) throws Exception {
        return CamelKPodLauncher.deploy(workDir, configYaml, properties);
    }

    @Override
    String runtime() {
        return "camel-quarkus";
    }

    @Test
    void theApplicationCarriesTheGatewayJarThisBuildPackaged() throws Exception {
        // the app resolves the jar from the local Maven repository, where another build could have put another one
        Path carried = CamelKPodLauncher.APP.resolve("lib/main/io.inferencegateway." + GATEWAY_ARTIFACT.getFileName());
        assertThat(carried).exists();
        assertThat(Files.mismatch(carried, GATEWAY_ARTIFACT)).as("%s differs from %s", carried, GATEWAY_ARTIFACT)
                .isEqualTo(-1);
    }

    @Test
    void runsOnTheCamelQuarkusQuarkusAndCamelOfCamelK211() throws Exception {
        assertThat(gateway().output()).contains("Apache Camel Quarkus 3.33.1 is starting",
                "Apache Camel 4.18.2 (", "(powered by Quarkus 3.33.2)");
        List<String> jars;
        try (Stream<Path> lib = Files.list(CamelKPodLauncher.APP.resolve("lib/main"))) {
            jars = lib.map(p -> p.getFileName().toString()).sorted().toList();
        }
        assertThat(jars).contains("org.apache.camel.quarkus.camel-quarkus-core-3.33.1.jar",
                "io.quarkus.quarkus-core-3.33.2.jar", "org.apache.camel.camel-core-engine-4.18.2.jar");
        System.out.println("camel-quarkus app, lib/main: " + jars.stream()
                .filter(j -> j.matches("(org\\.apache\\.camel\\.quarkus\\.camel-quarkus-core|io\\.quarkus\\.quarkus-core"
                        + "|org\\.apache\\.camel\\.camel-(core-engine|netty-http|kamelet|kubernetes|micrometer|timer))-.*"))
                .toList());
    }
}
