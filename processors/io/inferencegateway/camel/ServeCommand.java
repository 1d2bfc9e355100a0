package io.inferencegateway.camel;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.config.InvalidConfigException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code serve}: the gateway itself, Camel Main with the routes and Kamelets of its jar, in front of the model servers
 * the config names. The gateway artifact's own entry point ({@link #main}); the runnable jar of the lab offers it
 * beside {@code demo}, {@code simulate} and {@code bench}.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Run the gateway in front of the model servers named in the config.")
public final class ServeCommand implements Callable<Integer> {

    /** Exit code for a configuration or usage error. */
    public static final int EXIT_USAGE = 2;

    @Spec
    CommandSpec spec;

    @Option(names = "--config", required = true, paramLabel = "FILE",
            description = "InferenceGatewayConfig YAML file.")
    Path config;

    @Option(names = "--port", defaultValue = "8080", paramLabel = "N",
            description = "Port of the OpenAI-compatible endpoint (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--routes", paramLabel = "DIR",
            description = "Load the YAML routes (*.camel.yaml) from DIR, and Kamelets from DIR/kamelets, instead of "
                    + "the jar's own (a copy of the repository's routes/ to edit).")
    Path routes;

    @Option(names = "--watch-routes",
            description = "With --routes: apply each saved edit of a route file while the gateway runs; an edit that "
                    + "does not load is logged and changes nothing.")
    boolean watchRoutes;

    /** Longer than Camel Main waits for its own stop (camel.main.shutdownTimeout + extraShutdownTimeout, 60 s). */
    private static final long STOP_LIMIT_SECONDS = 120;

    @Override
    public Integer call() throws Exception {
        try {
            ConfigLoader.load(config);
        } catch (InvalidConfigException e) {
            return usageError("invalid config " + config + ": " + e.getMessage());
        }
        GatewayServer.Routes from;
        try {
            from = routes(routes, watchRoutes);
        } catch (IllegalArgumentException e) {
            return usageError(e.getMessage());
        }
        // SIGTERM: the JVM would exit 143 once the shutdown hooks are done, and an orchestrator would take a clean
        // stop for a crash. This hook holds the exit until Camel has stopped, after its drain (GracefulDrain), and
        // then ends the process with 0 (a start-up failure keeps its own exit code).
        CountDownLatch stopped = new CountDownLatch(1);
        AtomicBoolean clean = new AtomicBoolean();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                if (stopped.await(STOP_LIMIT_SECONDS, TimeUnit.SECONDS) && clean.get()) {
                    Runtime.getRuntime().halt(0);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "gateway-exit-code"));
        try {
            GatewayServer.newMain(config, port, from).run();
            clean.set(true);
        } finally {
            stopped.countDown();
        }
        return 0;
    }

    private int usageError(String message) {
        spec.commandLine().getErr().println(message);
        spec.commandLine().getErr().flush();
        return EXIT_USAGE;
    }

    /**
     * The routes {@code --routes DIR} and {@code --watch-routes} ask for: the jar's without a directory.
     *
     * @throws IllegalArgumentException a watch without a directory, or a directory without route files
     */
    public static GatewayServer.Routes routes(Path dir, boolean watch) {
        if (dir == null) {
            if (watch) {
                throw new IllegalArgumentException("--watch-routes needs --routes DIR: the jar's own routes cannot be "
                        + "edited");
            }
            return GatewayServer.Routes.JAR;
        }
        try (var files = Files.newDirectoryStream(dir, "*.camel.yaml")) {
            if (!files.iterator().hasNext()) {
                throw new IllegalArgumentException("--routes " + dir + " holds no route file (*.camel.yaml); copy the "
                        + "repository's routes/ there to start from the gateway's own");
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("--routes " + dir + " cannot be read: " + e.getMessage());
        }
        return new GatewayServer.Routes(dir, watch);
    }

    /** {@code java -cp <the gateway and its dependencies> io.inferencegateway.camel.ServeCommand --config FILE}. */
    public static void main(String[] args) {
        CommandLine cli = new CommandLine(new ServeCommand());
        cli.setExitCodeExceptionMapper(e -> EXIT_USAGE);
        System.exit(cli.execute(args));
    }
}
