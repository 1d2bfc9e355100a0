package io.inferencegateway.camel;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import org.apache.camel.spi.Resource;
import org.apache.camel.support.ResourceHelper;
import org.apache.camel.support.RouteWatcherReloadStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Camel's own route reload over a directory of route files ({@code serve --routes DIR --watch-routes}), set for a
 * gateway that must keep serving while its routes are edited:
 *
 * <ul>
 * <li>a saved file's routes are replaced by id and every other route keeps running (Camel's default removes every
 * route first, and a load that fails then leaves none); an edit that does not parse throws before any route is
 * touched;</li>
 * <li>an edit that parses but whose routes cannot be created (a {@code ref} to a bean that does not exist) fails after
 * Camel has removed the running route of that id: the file's last content that loaded is loaded again, so that the
 * edit changes nothing;</li>
 * <li>files that declare beans or route templates are left out ({@link GatewayServer.Routes#reloadable}).</li>
 * </ul>
 *
 * A failed edit is still thrown, for Camel's watcher to log with its place in the file and count.
 */
final class RouteReload extends RouteWatcherReloadStrategy {

    private static final Logger LOG = LoggerFactory.getLogger(RouteReload.class);

    /** Per file name, the last content whose routes loaded. */
    private final Map<String, String> lastLoaded = new ConcurrentHashMap<>();

    RouteReload(Path dir) throws IOException {
        super(dir.toString(), false);
        setRemoveAllRoutes(false);
        setFileFilter(GatewayServer.Routes::reloadable);
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(f -> GatewayServer.Routes.reloadable(f.toFile())).toList()) {
                lastLoaded.put(f.getFileName().toString(), Files.readString(f));
            }
        }
    }

    @Override
    protected void onRouteReload(Collection<Resource> resources, boolean removeEverything) {
        if (resources == null || resources.size() != 1) { // properties changed: every route again, as Camel does
            super.onRouteReload(resources, removeEverything);
            return;
        }
        Resource resource = resources.iterator().next();
        String name = Paths.get(resource.getURI()).getFileName().toString();
        String content = read(resource); // once: what is remembered is what Camel loaded
        try {
            super.onRouteReload(List.of(ResourceHelper.fromString(resource.getLocation(), content)), removeEverything);
            lastLoaded.put(name, content);
        } catch (RuntimeException e) {
            String last = lastLoaded.get(name);
            if (last != null && !last.equals(content)) {
                super.onRouteReload(List.of(ResourceHelper.fromString(resource.getLocation(), last)), removeEverything);
                LOG.warn("{} did not load; its routes run as they were before this edit", name);
            }
            throw e;
        }
    }

    private static String read(Resource resource) {
        try (InputStream in = resource.getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
