package io.inferencegateway.deployed;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.inferencegateway.testing.ConfigMapVolume;
import io.inferencegateway.testing.GatewayHarness;
import io.inferencegateway.testing.ServeCommandLine;

/**
 * Runs the gateway by itself, without Camel K: its own serve command on its runtime classpath (ServeCommandLine),
 * camel-main with the routes and Kamelets its jar carries. Extra Camel properties go in as system properties, which
 * the routes' property placeholders read.
 */
final class CamelMainLauncher {

    private CamelMainLauncher() {
    }

    static DeployedGateway deploy(Path workDir, String configYaml, Map<String, String> properties) throws Exception {
        Path mount = Files.createDirectories(workDir.resolve("config"));
        ConfigMapVolume config = ConfigMapVolume.create(mount, "config.yaml", configYaml);
        int port = GatewayHarness.freePort();

        List<String> options = new ArrayList<>(List.of("-Xmx512m"));
        properties.forEach((k, v) -> options.add("-D" + k + "=" + v));
        ChildJvm jvm = ChildJvm.start(ServeCommandLine.of(options, config.file(), port), workDir, Map.of(),
                workDir.resolve("gateway.log"), "http://127.0.0.1:" + port + "/health");
        return new DeployedGateway(jvm, port, config);
    }
}
