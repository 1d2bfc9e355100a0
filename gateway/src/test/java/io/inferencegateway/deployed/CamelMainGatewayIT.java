package io.inferencegateway.deployed;

import java.nio.file.Path;
import java.util.Map;

/** The suite against the gateway running by itself (its serve command on its runtime classpath): camel-main. */
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
