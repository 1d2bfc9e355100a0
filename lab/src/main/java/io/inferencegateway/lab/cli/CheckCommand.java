package io.inferencegateway.lab.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.config.ConfigSummary;
import io.inferencegateway.config.GatewayConfig;
import io.inferencegateway.config.InvalidConfigException;
import io.inferencegateway.config.Secrets;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code check}: validates a config as {@code serve} would, with the same messages, and reads the secret files it
 * names, without starting anything; prints what the config will do. Exit 0 when valid, 2 when not: a CI step before
 * the config reaches a ConfigMap ({@code nginx -t}, {@code promtool check config}).
 */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = "Validate a config as serve would, and print what it will do; exit 0 when valid, 2 when not.")
public final class CheckCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--config", required = true, paramLabel = "FILE",
            description = "InferenceGatewayConfig YAML file.")
    Path config;

    @Override
    public Integer call() {
        GatewayConfig valid;
        try (Secrets secrets = new Secrets()) {
            valid = ConfigLoader.load(config);
            secrets.apply(valid);
        } catch (InvalidConfigException e) {
            PrintWriter err = spec.commandLine().getErr();
            err.println("invalid config " + config + ": " + e.getMessage());
            err.flush();
            return InferenceGatewayCli.EXIT_USAGE;
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println("config " + config + " is valid");
        ConfigSummary.lines(valid).forEach(out::println);
        out.flush();
        return 0;
    }
}
