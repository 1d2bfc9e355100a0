package io.inferencegateway.camel;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;

import io.inferencegateway.edge.GatewayEventLoops;
import io.inferencegateway.runtime.Gateway;
import org.apache.camel.CamelContext;
import org.apache.camel.RuntimeCamelException;
import org.apache.camel.main.BaseMainSupport;
import org.apache.camel.main.Main;
import org.apache.camel.main.MainListenerSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the gateway: Camel Main with the YAML routes of {@code routes/} and the Kamelets of {@code kamelets/}, from the
 * jar or from a directory a user edits ({@link Routes}), where Camel's own route reload can apply each saved edit.
 * Camel K runs the same routes on its own runtime (camel-k/integration.yaml) and does not use this.
 */
public final class GatewayServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GatewayServer.class);
    /** A top-level {@code beans} or {@code routeTemplate} entry: read at start only (see {@link Routes}). */
    private static final Pattern START_ONLY = Pattern.compile("(?m)^-\\s+(beans|routeTemplate)\\s*:");
    private static final Pattern BEANS = Pattern.compile("(?m)^-\\s+beans\\s*:");

    private final Main main;

    private GatewayServer(Main main) {
        this.main = main;
    }

    /**
     * Where the YAML routes ({@code *.camel.yaml}) and Kamelets come from.
     *
     * @param directory null: the jar's own; else a directory of route files, with Kamelets in its {@code kamelets/}
     *                  (those not there come from the jar)
     * @param watch     apply each saved edit of a route file while the gateway runs, with Camel's route reload: the
     *                  file's routes are replaced by id and every other route keeps running; an edit that does not
     *                  load (a YAML or DSL error, a bean that does not exist) is logged with its place in the file and
     *                  changes nothing ({@link RouteReload}). Files
     *                  that declare beans or route templates are read at start only: reloading the beans would bind
     *                  new, unstarted instances, and a template's running routes are made from it once per pool.
     */
    public record Routes(Path directory, boolean watch) {

        public static final Routes JAR = new Routes(null, false);

        /** A route file a watch reloads: one that declares no beans and no route templates. */
        static boolean reloadable(File file) {
            return file.getName().endsWith(".camel.yaml") && !declares(file.toPath(), START_ONLY);
        }

        /** Whether a route file declares beans (unreadable: as if it did). */
        static boolean declaresBeans(Path file) {
            return declares(file, BEANS);
        }

        private static boolean declares(Path file, Pattern entry) {
            try {
                return entry.matcher(Files.readString(file)).find();
            } catch (IOException e) {
                return true;
            }
        }
    }

    /** Builds the Camel Main that serves {@code config} on {@code port} with the jar's routes; not started yet. */
    public static Main newMain(Path config, int port) {
        return newMain(config, port, Routes.JAR);
    }

    /** Builds the Camel Main that serves {@code config} on {@code port} with {@code routes}; not started yet. */
    public static Main newMain(Path config, int port, Routes routes) {
        Main main = new Main();
        main.addInitialProperty("gateway.config", config.toAbsolutePath().toString());
        main.addInitialProperty("gateway.port", Integer.toString(port));
        main.addInitialProperty("camel.main.name", "inference-gateway");
        if (routes.directory() == null) {
            main.addInitialProperty("camel.main.routesIncludePattern", "classpath:routes/*.camel.yaml");
            main.addInitialProperty("camel.component.kamelet.location", "classpath:kamelets");
        } else {
            String dir = routes.directory().toAbsolutePath().normalize().toString();
            main.addInitialProperty("camel.main.routesIncludePattern", "file:" + dir + "/*.camel.yaml");
            main.addInitialProperty("camel.component.kamelet.location", "file:" + dir + "/kamelets,classpath:kamelets");
            if (routes.watch()) {
                main.addMainListener(new MainListenerSupport() {
                    @Override
                    public void afterConfigure(BaseMainSupport m) {
                        try {
                            m.getCamelContext().addService(new RouteReload(Path.of(dir)));
                            LOG.info("Route files of {} are applied when saved; files with beans or route templates "
                                    + "only at start", dir);
                        } catch (Exception e) {
                            throw RuntimeCamelException.wrapRuntimeException(e);
                        }
                    }
                });
            }
        }
        // bodies are Netty buffers relayed as they are; nothing to cache
        main.addInitialProperty("camel.main.streamCachingEnabled", "false");
        // the client's HTTP headers stay Netty's (StreamingHttpBinding); Camel's own, set and read by constant, need
        // no case-insensitive map, which every header access and each copy between steps would pay for
        main.addInitialProperty("camel.main.caseInsensitiveHeaders", "false");
        // Netty's epoll transport wherever it loads (GatewayEventLoops); -Dgateway.nativeTransport=false overrides
        main.addInitialProperty("gateway.nativeTransport", Boolean.toString(GatewayEventLoops.nativeTransportAvailable()));
        return main;
    }

    /** Starts the gateway and returns once it listens. */
    public static GatewayServer start(Path config, int port) throws Exception {
        return start(config, port, Map.of());
    }

    /** Starts the gateway with extra Camel properties (e.g. {@code gateway.ioThreads}). */
    public static GatewayServer start(Path config, int port, Map<String, String> properties) throws Exception {
        return start(config, port, properties, Routes.JAR);
    }

    /** Starts the gateway with extra Camel properties and the routes of {@code routes}. */
    public static GatewayServer start(Path config, int port, Map<String, String> properties, Routes routes)
            throws Exception {
        Main main = newMain(config, port, routes);
        properties.forEach(main::addInitialProperty);
        main.start();
        return new GatewayServer(main);
    }

    public CamelContext camelContext() {
        return main.getCamelContext();
    }

    public Gateway gateway() {
        return camelContext().getRegistry().lookupByNameAndType("gateway", Gateway.class);
    }

    @Override
    public void close() {
        main.stop();
    }
}
