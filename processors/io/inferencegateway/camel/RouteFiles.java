package io.inferencegateway.camel;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.apache.camel.RoutesBuilder;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.model.RouteDefinition;
import org.apache.camel.spi.Resource;
import org.apache.camel.spi.RoutesLoader;
import org.apache.camel.support.PluginHelper;
import org.apache.camel.support.ResourceHelper;

/**
 * Loads the route files of a directory as {@code serve --routes} would, into a Camel context that is never started: a
 * YAML or DSL error, or a route id two files share, is found with its file, line and column, and nothing runs. Files
 * that declare beans are not loaded (their beans are the running gateway's): {@link #check} names them. References to
 * beans and endpoints are resolved only when a route starts, so they are not checked.
 */
public final class RouteFiles {

    /**
     * What {@link #check} found.
     *
     * @param routes  routes and route templates loaded
     * @param skipped route files not loaded (they declare beans)
     * @param errors  one line per file that did not load: its name and Camel's message
     */
    public record Checked(int files, int routes, List<String> skipped, List<String> errors) {
    }

    private RouteFiles() {
    }

    /** Loads every {@code *.camel.yaml} of {@code dir}, each on its own, into one context that is never started. */
    public static Checked check(Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> all = Files.list(dir)) {
            files = all.filter(f -> f.getFileName().toString().endsWith(".camel.yaml")).sorted().toList();
        }
        List<String> skipped = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        Map<String, String> fileOfRoute = new HashMap<>();
        // never started, so never stopped: closing it would only log a shutdown
        DefaultCamelContext context = new DefaultCamelContext();
        RoutesLoader loader = PluginHelper.getRoutesLoader(context);
        for (Path f : files) {
            String name = f.getFileName().toString();
            if (GatewayServer.Routes.declaresBeans(f)) {
                skipped.add(name);
                continue;
            }
            try {
                Resource resource = ResourceHelper.resolveResource(context, "file:" + f.toAbsolutePath());
                for (RoutesBuilder builder : loader.findRoutesBuilders(List.of(resource))) {
                    builder.addRoutesToCamelContext(context);
                    if (builder instanceof RouteBuilder routes) {
                        for (RouteDefinition route : routes.getRouteCollection().getRoutes()) {
                            String other = fileOfRoute.putIfAbsent(route.getRouteId(), name);
                            if (other != null) {
                                errors.add(name + ": route id " + route.getRouteId() + " is also in " + other);
                            }
                        }
                    }
                }
            } catch (Exception e) {
                errors.add(name + ": " + e.getMessage());
            }
        }
        int routes = context.getRouteDefinitions().size() + context.getRouteTemplateDefinitions().size();
        return new Checked(files.size(), routes, List.copyOf(skipped), List.copyOf(errors));
    }
}
