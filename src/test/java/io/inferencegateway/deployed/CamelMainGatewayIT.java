package io.inferencegateway.deployed;

import java.nio.file.Path;
import java.util.Map;

/** The suite against {@code java -jar target/inference-gateway.jar serve}: camel-main. */
class CamelMainGatewayIT extends DeployedGatewaySuite {

    @Override
    DeployedGateway deploy(Path workDir, String configYaml, Map<String, String> properties) throws Exception {
        return CamelMainLauncher.deploy(workDir, configYaml, properties);
    }

    @Override
    String runtime() {
        return "camel-main";
    }
}
