package io.inferencegateway.camel;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;

import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.runtime.Gateway;
import io.inferencegateway.pool.ModelPool;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.TemplatedRouteBuilder;
import org.apache.camel.spi.OnCamelContextStarted;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives every model pool its own routes from the YAML route templates: the {@code metrics-scrape} timer that keeps
 * the pool's metrics fresh and, for a pool with a {@code modelSelector}, the {@code pod-discovery} watch and the
 * {@code pod-resync} list that keep its endpoints in step with its Kubernetes pods. Pools come from the config, so
 * their routes are made when the context starts and brought in line after every config reload: routes of removed
 * pools, or whose parameters changed, are removed; missing ones are added; the others keep running.
 */
public final class PoolRoutes implements OnCamelContextStarted {

    private static final Logger LOG = LoggerFactory.getLogger(PoolRoutes.class);

    /** Registry name of the scraper bean the {@code model-server-metrics-source} Kamelet calls. */
    static final String METRICS_SCRAPER = "metricsScraper";
    /** Registry name of the discovery bean the {@code pod-discovery} and {@code pod-resync} routes call. */
    static final String POD_DISCOVERY = "podDiscovery";

    private record MetricsRoutes(long periodMillis) {
    }

    private record DiscoveryRoutes(String namespace, Map<String, String> matchLabels, long resyncMillis) {
    }

    private final Gateway gateway;
    private final Map<String, MetricsRoutes> metricsRoutes = new HashMap<>();
    private final Map<String, DiscoveryRoutes> discoveryRoutes = new HashMap<>();
    private long podResyncMillis = 10_000;
    private CamelContext context;
    private ExecutorService rewatches;

    public PoolRoutes(Gateway gateway) {
        this.gateway = gateway;
    }

    /** Milliseconds between two pod lists of a discovered pool. */
    public void setPodResyncPeriod(long millis) {
        this.podResyncMillis = millis;
    }

    @Override
    public void onContextStarted(CamelContext camelContext) {
        synchronized (this) {
            context = camelContext;
            context.getRegistry().bind(METRICS_SCRAPER, gateway.metricsScraper());
            context.getRegistry().bind(POD_DISCOVERY, gateway.discovery());
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
        Map<String, MetricsRoutes> wantedMetrics = new HashMap<>();
        Map<String, DiscoveryRoutes> wantedDiscovery = new HashMap<>();
        for (ModelPool pool : gateway.pools().pools()) {
            PoolConfig config = pool.config();
            wantedMetrics.put(pool.name(), new MetricsRoutes(config.metricsInterval().toMillis()));
            if (!config.modelSelector().isEmpty()) {
                wantedDiscovery.put(pool.name(), new DiscoveryRoutes(gateway.discovery().namespaceOf(config),
                        new TreeMap<>(config.modelSelector()), podResyncMillis));
            }
        }
        reconcile(metricsRoutes, wantedMetrics, this::removeMetricsRoutes, this::addMetricsRoutes);
        reconcile(discoveryRoutes, wantedDiscovery, this::removeDiscoveryRoutes, this::addDiscoveryRoutes);
    }

    private interface RouteAction<S> {
        void apply(String pool, S spec);
    }

    private static <S> void reconcile(Map<String, S> running, Map<String, S> wanted, RouteAction<S> remove,
            RouteAction<S> add) {
        for (var it = running.entrySet().iterator(); it.hasNext();) {
            var entry = it.next();
            if (!entry.getValue().equals(wanted.get(entry.getKey()))) {
                remove.apply(entry.getKey(), entry.getValue());
                it.remove();
            }
        }
        for (var entry : wanted.entrySet()) {
            if (!running.containsKey(entry.getKey())) {
                add.apply(entry.getKey(), entry.getValue());
                running.put(entry.getKey(), entry.getValue());
            }
        }
    }

    /**
     * Re-opens a pool's pod watch, off the calling route's thread: the resync calls this when the watch has missed
     * events (camel-kubernetes does not re-open a watch the API server ended).
     */
    public void rewatch(String pool) {
        ExecutorService executor = rewatches;
        if (executor == null) {
            return;
        }
        executor.submit(() -> {
            synchronized (this) {
                String routeId = watchRouteId(pool);
                if (discoveryRoutes.containsKey(pool) && context.getRoute(routeId) != null) {
                    try {
                        context.getRouteController().stopRoute(routeId);
                        context.getRouteController().startRoute(routeId);
                    } catch (Exception e) {
                        LOG.warn("pool {}: re-opening the pod watch failed: {}", pool, e.getMessage());
                    }
                }
            }
        });
    }

    static String metricsRouteId(String pool) {
        return "metrics-scrape-" + pool;
    }

    static String discoveryRouteId(String pool) {
        return "pod-discovery-" + pool;
    }

    static String watchRouteId(String pool) {
        return "model-server-pods-" + pool;
    }

    static String resyncRouteId(String pool) {
        return "pod-resync-" + pool;
    }

    private void addMetricsRoutes(String pool, MetricsRoutes spec) {
        TemplatedRouteBuilder.builder(context, "metrics-scrape")
                .routeId(metricsRouteId(pool))
                .parameter("pool", pool)
                .parameter("period", Long.toString(spec.periodMillis()))
                .add();
    }

    private void removeMetricsRoutes(String pool, MetricsRoutes spec) {
        removeRoutes("model-server-metrics-" + pool, metricsRouteId(pool));
    }

    private void addDiscoveryRoutes(String pool, DiscoveryRoutes spec) {
        // the API server filters the watch by one label; discovery checks the others
        Map.Entry<String, String> watched = spec.matchLabels().entrySet().iterator().next();
        TemplatedRouteBuilder.builder(context, "pod-discovery")
                .routeId(discoveryRouteId(pool))
                .parameter("pool", pool)
                .parameter("namespace", spec.namespace())
                .parameter("labelKey", watched.getKey())
                .parameter("labelValue", watched.getValue())
                .add();
        TemplatedRouteBuilder.builder(context, "pod-resync")
                .routeId(resyncRouteId(pool))
                .parameter("pool", pool)
                .parameter("namespace", spec.namespace())
                .parameter("period", Long.toString(spec.resyncMillis()))
                .add();
    }

    private void removeDiscoveryRoutes(String pool, DiscoveryRoutes spec) {
        removeRoutes(resyncRouteId(pool), watchRouteId(pool), discoveryRouteId(pool));
    }

    /**
     * Stops and removes routes in the order given: a Kamelet's own route before the route that consumes it, since a
     * Kamelet route sending to a stopped consumer blocks (the kamelet component waits up to 30 s for one).
     */
    private void removeRoutes(String... routeIds) {
        for (String routeId : routeIds) {
            if (context.getRoute(routeId) == null) {
                continue;
            }
            try {
                context.getRouteController().stopRoute(routeId);
                context.removeRoute(routeId);
            } catch (Exception e) {
                LOG.warn("removing route {} failed: {}", routeId, e.getMessage());
            }
        }
    }
}
