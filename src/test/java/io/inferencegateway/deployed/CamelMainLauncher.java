package io.inferencegateway.deployed;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.inferencegateway.testing.ConfigMapVolume;
import io.inferencegateway.testing.GatewayHarness;

/**
 * Runs the gateway the way the README runs it without Camel K: {@code java -jar target/inference-gateway.jar serve},
 * camel-main with the routes and Kamelets the shaded jar carries. Extra Camel properties go in as system properties,
 * which the routes' property placeholders read.
 */
final class CamelMainLauncher {

    /** The shaded jar of this build; the failsafe configuration in pom.xml names it. */
    static final Path JAR = Path.of(System.getProperty("gateway.jar", "target/inference-gateway.jar"));

    private CamelMainLauncher() {
    }

    static DeployedGateway deploy(Path workDir, String configYaml, Map<String, String> properties) throws Exception {
        if (!Files.isRegularFile(JAR)) {
            throw new AssertionError(JAR + " is missing: it is built by `mvn package`");
        }
        Path mount = Files.createDirectories(workDir.resolve("config"));
        ConfigMapVolume config = ConfigMapVolume.create(mount, "config.yaml", configYaml);
        int port = GatewayHarness.freePort();

        List<String> command = new ArrayList<>(List.of(ChildJvm.java(), "-Xmx512m"));
        properties.forEach((k, v) -> command.add("-D" + k + "=" + v));
        command.addAll(List.of("-jar", JAR.toAbsolutePath().toString(), "serve",
                "--config", config.file().toString(), "--port", Integer.toString(port)));
        ChildJvm jvm = ChildJvm.start(command, workDir, Map.of(), workDir.resolve("gateway.log"),
                "http://127.0.0.1:" + port + "/health");
        return new DeployedGateway(jvm, port, config);
    }
}
