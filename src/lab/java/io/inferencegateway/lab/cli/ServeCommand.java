package io.inferencegateway.lab.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import io.inferencegateway.camel.GatewayServer;
import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.config.InvalidConfigException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Run the gateway in front of the model servers named in the config.")
final class ServeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--config", required = true, paramLabel = "FILE",
            description = "InferenceGatewayConfig YAML file.")
    Path config;

    @Option(names = "--port", defaultValue = "8080", paramLabel = "N",
            description = "Port of the OpenAI-compatible endpoint (default: ${DEFAULT-VALUE}).")
    int port;

    @Override
    public Integer call() throws Exception {
        try {
            ConfigLoader.load(config);
        } catch (InvalidConfigException e) {
            spec.commandLine().getErr().println("invalid config " + config + ": " + e.getMessage());
            spec.commandLine().getErr().flush();
            return InferenceGatewayCli.EXIT_USAGE;
        }
        GatewayServer.newMain(config, port).run();
        if (jvmShuttingDown()) {
            // SIGTERM: Camel has stopped, after its drain (GracefulDrain); the JVM would now report the signal (143)
            // and an orchestrator would take a clean stop for a crash
            Runtime.getRuntime().halt(0);
        }
        return 0;
    }

    private static boolean jvmShuttingDown() {
        try {
            Thread probe = new Thread(() -> { });
            Runtime.getRuntime().addShutdownHook(probe);
            Runtime.getRuntime().removeShutdownHook(probe);
            return false;
        } catch (IllegalStateException shutdownInProgress) {
            return true;
        }
    }
}
