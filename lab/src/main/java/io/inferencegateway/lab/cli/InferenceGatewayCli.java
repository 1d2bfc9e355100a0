package io.inferencegateway.lab.cli;

import io.inferencegateway.camel.ServeCommand;
import io.inferencegateway.lab.bench.BenchCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The runnable jar's command line: the gateway ({@code serve}, the gateway artifact's own command), the config check
 * ({@code check}), the simulator, the demo and the benchmark.
 */
@Command(name = "inference-gateway",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "OpenAI-compatible, GPU-aware load balancer for LLM model servers.",
        subcommands = {ServeCommand.class, CheckCommand.class, DemoCommand.class, SimulateCommand.class, BenchCommand.class})
public final class InferenceGatewayCli {

    /** Exit code for a configuration or usage error. */
    public static final int EXIT_USAGE = ServeCommand.EXIT_USAGE;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new InferenceGatewayCli());
        cli.setExitCodeExceptionMapper(e -> EXIT_USAGE);
        return cli;
    }
}
