package io.inferencegateway.lab.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import io.inferencegateway.camel.RouteFiles;
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
 * names, and loads a directory of route files as {@code serve --routes} would ({@link RouteFiles}), without starting
 * anything; prints what the config will do. Exit 0 when valid, 2 when not: a CI step before the config or the routes
 * reach a ConfigMap ({@code nginx -t}, {@code promtool check config}).
 */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = "Validate a config as serve would, and print what it will do, and load route files without "
                + "starting them; exit 0 when valid, 2 when not.")
public final class CheckCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE",
            description = "InferenceGatewayConfig YAML file.")
    Path config;

    @Option(names = "--routes", paramLabel = "DIR",
            description = "Route files (*.camel.yaml) to load as serve --routes would, without starting them.")
    Path routes;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            if (config == null && routes == null) {
                err.println("check: give --config FILE, --routes DIR or both");
                return InferenceGatewayCli.EXIT_USAGE;
            }
            boolean valid = config == null || checkConfig(out, err);
            return (routes == null || checkRoutes(out, err)) && valid ? 0 : InferenceGatewayCli.EXIT_USAGE;
        } finally {
            out.flush();
            err.flush();
        }
    }

    private boolean checkConfig(PrintWriter out, PrintWriter err) {
        GatewayConfig valid;
        try (Secrets secrets = new Secrets()) {
            valid = ConfigLoader.load(config);
            secrets.apply(valid);
        } catch (InvalidConfigException e) {
            err.println("invalid config " + config + ": " + e.getMessage());
            return false;
        }
        out.println("config " + config + " is valid");
        ConfigSummary.lines(valid).forEach(out::println);
        return true;
    }

    private boolean checkRoutes(PrintWriter out, PrintWriter err) throws IOException {
        if (!Files.isDirectory(routes)) {
            err.println("invalid routes " + routes + ": not a directory");
            return false;
        }
        RouteFiles.Checked checked = RouteFiles.check(routes);
        checked.errors().forEach(e -> err.println("invalid routes " + routes + ": " + e));
        if (checked.files() == 0) {
            err.println("invalid routes " + routes + ": no route file (*.camel.yaml)");
            return false;
        }
        if (!checked.errors().isEmpty()) {
            return false;
        }
        out.println("routes " + routes + ": " + checked.files() + " files, " + checked.routes()
                + " routes and route templates load" + (checked.skipped().isEmpty() ? ""
                        : "; not loaded (they declare beans): " + String.join(", ", checked.skipped())));
        return true;
    }
}
