package io.inferencegateway.camel;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;

import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.runtime.Gateway;
import io.inferencegateway.pool.ModelPool;
import org.apache.camel.CamelContext;
import org.apache.camel.Route;
import org.apache.camel.builder.TemplatedRouteBuilder;
import org.apache.camel.component.kamelet.KameletEndpoint;
import org.apache.camel.spi.OnCamelContextStarted;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives every model pool its own routes from the YAML route templates, one route per concern: {@code metrics-scrape}
 * (routes/metrics-scrape.camel.yaml) keeps the pool's metrics fresh and, for a pool with a {@code modelSelector},
 * {@code pod-watch} and {@code pod-resync} (routes/pod-watch.camel.yaml, routes/pod-resync.camel.yaml) keep its
 * endpoints in step with its Kubernetes pods. A route is named after its template and pool
 * ({@code metrics-scrape-llama}). Pools come from the config, so their routes are made when the context starts and
 * brought in line after every config reload: a route whose pool is gone, or whose parameters or selector changed,
 * is removed; missing ones are added; the others keep running.
 */
public final class PoolRoutes implements OnCamelContextStarted {

    private static final Logger LOG = LoggerFactory.getLogger(PoolRoutes.class);

    /** Where a discovered pool's pods are: a change starts its discovery routes afresh (a new watch, a list at once). */
    private record Selector(String namespace, Map<String, String> matchLabels) {
    }

    /** One route of a pool: its template, the template's parameters and, for the discovery routes, the selector. */
    private record PoolRoute(String template, String pool, Map<String, String> parameters, Selector selector) {

        String routeId() {
            return template + "-" + pool;
        }
    }

    private final Gateway gateway;
    private final Map<String, PoolRoute> running = new HashMap<>();
    private long podResyncMillis = 10_000;
    private CamelContext context;
    private ExecutorService rewatches;

    public PoolRoutes(Gateway gateway) {
        this.gateway = gateway;
    }

    /** This replica's share of a spread scrape period, drawn once so that a reload does not restart the scrape. */
    private final double scrapePhase = java.util.concurrent.ThreadLocalRandom.current().nextDouble();

    /** Milliseconds between two pod lists of a discovered pool. */
    public void setPodResyncPeriod(long millis) {
        this.podResyncMillis = millis;
    }

    @Override
    public void onContextStarted(CamelContext camelContext) {
        synchronized (this) {
            context = camelContext;
            rewatches = context.getExecutorServiceManager().newSingleThreadExecutor(this, "pod-rewatch");
        }
        gateway.onReload(this::sync);
        sync();
    }

    /** Brings the per-pool routes in line with the gateway's current pools. */
    public synchronized void sync() {
        if (context == null || context.isStopping() || context.isStopped()) {
            return;
        }
        Map<String, PoolRoute> wanted = new HashMap<>();
        for (ModelPool pool : gateway.pools().pools()) {
            for (PoolRoute route : routesOf(pool.name(), pool.config())) {
                wanted.put(route.routeId(), route);
            }
        }
        for (var it = running.entrySet().iterator(); it.hasNext();) {
            var entry = it.next();
            if (!entry.getValue().equals(wanted.get(entry.getKey()))) {
                remove(entry.getKey());
                it.remove();
            }
        }
        for (PoolRoute route : wanted.values()) {
            if (!running.containsKey(route.routeId())) {
                TemplatedRouteBuilder builder = TemplatedRouteBuilder.builder(context, route.template())
                        .routeId(route.routeId())
                        .parameter("pool", route.pool());
                route.parameters().forEach(builder::parameter);
                builder.add();
                running.put(route.routeId(), route);
            }
        }
    }

    private List<PoolRoute> routesOf(String pool, PoolConfig config) {
        // replicas that spread their scrapes start at a random phase of the (longer) period, so that together they
        // scrape each pod at about the pool's metricsInterval (config/ReplicaConfig)
        long period = Math.max(1, config.scrapeInterval().toMillis());
        long delay = config.replicas().spreadScrapes() ? (long) (scrapePhase * period) : 0;
        PoolRoute metrics = new PoolRoute("metrics-scrape", pool,
                Map.of("period", Long.toString(period), "delay", Long.toString(delay)), null);
        if (config.modelSelector().isEmpty()) {
            return List.of(metrics);
        }
        String namespace = gateway.discovery().namespaceOf(config);
        Selector selector = new Selector(namespace, Map.copyOf(config.modelSelector()));
        // the API server filters the watch by one label; discovery checks the others
        Map.Entry<String, String> watched = new TreeMap<>(config.modelSelector()).firstEntry();
        return List.of(metrics,
                new PoolRoute("pod-watch", pool, Map.of("namespace", namespace, "labelKey", watched.getKey(),
                        "labelValue", watched.getValue()), selector),
                new PoolRoute("pod-resync", pool, Map.of("period", Long.toString(podResyncMillis)), selector));
    }

    /**
     * Re-opens a pool's pod watch, off the calling route's thread: the resync calls this when the watch has missed
     * events (camel-kubernetes does not re-open a watch the API server ended). The watch is the route of the
     * Kamelet the pool's {@code pod-watch} route reads from.
     */
    public void rewatch(String pool) {
        ExecutorService executor = rewatches;
        if (executor == null) {
            return;
        }
        executor.submit(() -> {
            synchronized (this) {
                String watch = kameletRouteOf("pod-watch-" + pool);
                if (watch == null || context.getRoute(watch) == null) {
                    return;
                }
                try {
                    context.getRouteController().stopRoute(watch);
                    context.getRouteController().startRoute(watch);
                } catch (Exception e) {
                    LOG.warn("pool {}: re-opening the pod watch failed: {}", pool, e.getMessage());
                }
            }
        });
    }

    /** The id of the route that runs the Kamelet {@code routeId} reads from, or null if it reads from none. */
    private String kameletRouteOf(String routeId) {
        Route route = context.getRoute(routeId);
        return route != null && route.getEndpoint() instanceof KameletEndpoint kamelet ? kamelet.getRouteId() : null;
    }

    /**
     * Stops and removes a route. A route that reads from a Kamelet takes the Kamelet's route with it, that one
     * first: its source would otherwise hand a message to a consumer that is gone and wait for it (30 s).
     */
    private void remove(String routeId) {
        String kamelet = kameletRouteOf(routeId);
        for (String id : kamelet == null ? List.of(routeId) : List.of(kamelet, routeId)) {
            if (context.getRoute(id) == null) {
                continue;
            }
            try {
                context.getRouteController().stopRoute(id);
                context.removeRoute(id);
            } catch (Exception e) {
                LOG.warn("removing route {} failed: {}", id, e.getMessage());
            }
        }
    }
}
