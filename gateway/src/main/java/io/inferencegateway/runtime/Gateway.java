package io.inferencegateway.runtime;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.inferencegateway.auth.Authenticator;
import io.inferencegateway.auth.ClusterToken;
import io.inferencegateway.config.ConfigFileWatcher;
import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.config.GatewayConfig;
import io.inferencegateway.config.InvalidConfigException;
import io.inferencegateway.config.ObservabilityConfig;
import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.config.ReplicaConfig;
import io.inferencegateway.config.ReplicaConfig.Coordination;
import io.inferencegateway.config.Secrets;
import io.inferencegateway.config.GlobalConfig;
import io.inferencegateway.config.TargetConfig;
import io.inferencegateway.proxy.UpstreamTls;
import io.inferencegateway.discovery.DefaultNamespace;
import io.inferencegateway.discovery.PodDiscovery;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.metrics.MetricsCache;
import io.inferencegateway.metrics.MetricsView;
import io.inferencegateway.metrics.MetricsScraper;
import io.inferencegateway.rollout.ModelVersions;
import io.inferencegateway.rollout.RolloutWeights;
import io.inferencegateway.rollout.Rollouts;
import io.inferencegateway.rollout.StickyVersions;
import io.inferencegateway.scheduling.SchedulingPolicies;
import io.inferencegateway.scheduling.latency.LatencyPredictor;
import io.inferencegateway.scheduling.prefix.PrefixSharing;
import io.inferencegateway.scheduling.prefix.RedisPrefixSharing;
import io.micrometer.core.instrument.MeterRegistry;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.pool.FlowControlTicker;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.pool.ModelPools;
import io.inferencegateway.pool.PoolChanges;
import io.inferencegateway.ratelimit.RateLimiter;
import io.inferencegateway.shadow.ShadowTraffic;
import io.inferencegateway.tokenize.PoolTokenizers;
import io.inferencegateway.observability.AccessLog;
import io.inferencegateway.observability.CapacitySummary;
import io.inferencegateway.observability.FleetView;
import io.inferencegateway.observability.LiveState;
import io.inferencegateway.domain.RequestListeners;
import io.inferencegateway.tracing.RequestTracer;

/**
 * The gateway's state, free of Camel: the configuration, the model pools and what the gateway knows
 * about each endpoint. The routes' processors read it; one instance per running gateway.
 */
public final class Gateway implements AutoCloseable {

    private final NanoClock clock;
    private final InFlightRequests inFlight = new InFlightRequests();
    private final MetricsCache metrics = new MetricsCache();
    private final MetricsScraper scraper;
    private final FlowControlTicker flowControlTicker = new FlowControlTicker(this::pools);
    private final MeterRegistry meterRegistry;
    private final GatewayMeters meters;
    private final RequestListeners requestListeners;
    private final FleetView fleetView;
    private final CapacitySummary capacitySummary;
    private final RequestTracer tracer; // null unless spec.observability.tracing names an endpoint
    private final OtlpMetricsPush metricsPush; // null unless spec.observability.metricsExport names an endpoint
    private volatile GatewayConfig config;
    private volatile ModelPools pools;
    // Kubernetes pod discovery and hot reload
    private final PodDiscovery discovery = new PodDiscovery(DefaultNamespace.detect());
    private final List<Runnable> reloadListeners = new CopyOnWriteArrayList<>();
    private volatile ConfigFileWatcher configWatcher;
    // spec.auth and spec.rateLimits (docs/auth.md)
    private volatile Authenticator authenticator; // null while auth is off
    private final RateLimiter rateLimiter;
    private final Map<URI, RedisPrefixSharing> prefixSharings = new ConcurrentHashMap<>();
    private final RedisClientResources redisResources = new RedisClientResources(); // the Redis clients' threads
    // each pool's latency predictor, by pool and model: what it learned survives a reload that keeps the model
    private final Map<String, LatencyPredictor> predictors = new ConcurrentHashMap<>();
    private final PoolTokenizers tokenizers;
    // spec.global: the providers' API keys and the clusters' token, watched (docs/global.md)
    private final Secrets secrets = new Secrets();
    // what GET /capacity asks for: spec.cluster.tokenFile's token, read through the watched secrets
    private final ClusterToken clusterToken = new ClusterToken(() -> secrets.value(config.cluster().tokenFile()));
    private volatile UpstreamTls targetTls; // for spec.global's https targets; null while there are none
    private final ShadowTraffic shadowTraffic; // the pools' shadow copies (docs/shadow.md)
    // spec.modelRewrites' rollouts: where each stands (docs/rollouts.md); one for the gateway's life, so a reload
    // that keeps a rollout keeps its progress
    private final Rollouts rollouts;
    private volatile RolloutWeights rolloutWeights;

    // spec.modelRewrites: the client-facing names and their versions; the sticky callers outlive a reload
    private final StickyVersions stickyVersions;
    private volatile ModelVersions modelVersions;

    /** The model rewrites of the config now (a reload replaces them). */
    public ModelVersions modelVersions() {
        return modelVersions;
    }

    /** The candidates' current shares of their rollouts' traffic. */
    public RolloutWeights rolloutWeights() {
        return rolloutWeights;
    }

    public Gateway(GatewayConfig config, NanoClock clock) {
        this(config, clock, GatewayMeters.newRegistry());
    }

    public Gateway(GatewayConfig config, NanoClock clock, MeterRegistry meterRegistry) {
        this.clock = clock;
        this.requestListeners = new RequestListeners();
        this.meterRegistry = meterRegistry;
        LiveState live = new LiveState(this::pools, metrics, inFlight, clock);
        this.meters = new GatewayMeters(meterRegistry, config.observability().requestMetrics(), this::pools, metrics,
                inFlight, clock, () -> this.config.global());
        if (meters.requests() != null) {
            requestListeners.add(meters.requests());
            requestListeners.add(meters.scheduler()); // its picks
        }
        if (config.observability().accessLog()) {
            requestListeners.add(new AccessLog());
        }
        this.config = config;
        applySecrets(config);
        this.targetTls = targetTls(config.global());
        this.authenticator = config.auth().enabled() ? new Authenticator(config.auth(), meters.auth()) : null;
        this.rateLimiter = new RateLimiter(config.rateLimits(), meters.rateLimits(), redisResources::get);
        requestListeners.add(rateLimiter);
        requestListeners.add(meters.targets());
        this.rollouts = new Rollouts(meters.rollouts(), config.rateLimits().redisTimeout(), redisResources::get);
        this.rolloutWeights = rollouts;
        requestListeners.add(rollouts);
        this.tokenizers = new PoolTokenizers(meters.tokenize(), Runtime.getRuntime().availableProcessors());
        tokenizers.apply(config.pools());
        this.pools = buildPools(config);
        this.shadowTraffic = new ShadowTraffic(this::pools, clock, meters.shadow());
        this.stickyVersions = new StickyVersions(StickyVersions.DEFAULT_CAPACITY, StickyVersions.DEFAULT_IDLE, clock);
        this.modelVersions = ModelVersions.of(config.modelRewrites(), stickyVersions, meters.rollouts());
        this.scraper = new MetricsScraper(this::pools, metrics, inFlight, clock, meters.scrapes());
        scraper.authorization(this::clusterAuthorization);
        scraper.targetTls(this::targetTls);
        discovery.attach(pools);
        this.fleetView = new FleetView(live, System::currentTimeMillis);
        requestListeners.add(fleetView);
        fleetView.rollouts(rollouts::views);
        this.capacitySummary = new CapacitySummary(live, fleetView, () -> this.config.cluster());
        ObservabilityConfig.TracingConfig tracing = config.observability().tracing();
        this.tracer = tracing.enabled() ? RequestTracer.otlp(tracing, clock) : null;
        if (tracer != null) {
            requestListeners.add(tracer);
        }
        ObservabilityConfig.MetricsExportConfig export = config.observability().metricsExport();
        this.metricsPush = export.enabled() ? OtlpMetricsPush.start(export, tracing.serviceName(), meterRegistry)
                : null;
    }

    /**
     * Loads and validates the config file and, when {@code watch}, re-applies it whenever it changes (a
     * mounted ConfigMap); an invalid change is logged and ignored. The bean factory the YAML routes use.
     */
    public static Gateway fromConfigFile(String path, boolean watch, MeterRegistry meterRegistry)
            throws InvalidConfigException {
        Path file = Path.of(path);
        Gateway gateway = new Gateway(ConfigLoader.load(file), NanoClock.SYSTEM, meterRegistry);
        if (watch) {
            gateway.configWatcher = ConfigFileWatcher.start(file, gateway::reload);
        }
        return gateway;
    }

    private ModelPools buildPools(GatewayConfig cfg) {
        List<ModelPool> list = new ArrayList<>();
        for (PoolConfig p : cfg.pools()) {
            list.add(newPool(p));
        }
        return new ModelPools(list);
    }

    private ModelPool newPool(PoolConfig p) {
        LatencyPredictor predictor = predictors.computeIfAbsent(predictorKey(p), k -> new LatencyPredictor(p.name()));
        ModelPool pool = new ModelPool(p, failures -> SchedulingPolicies.create(p, metricsOf(p), inFlight, clock,
                meters.scheduler(), prefixSharing(p), predictor, failures), p.endpoints(), inFlight, clock);
        meters.registerPool(pool);
        pool.secrets(secrets);
        return pool;
    }

    /**
     * What the pool's policy reads: the metrics cache, or at a global tier each cluster's reading for the pool's model
     * (a cluster's one summary serves every pool of the tier).
     */
    private MetricsView metricsOf(PoolConfig p) {
        if (!p.global()) {
            return metrics;
        }
        String model = p.modelName();
        return endpoint -> {
            EndpointMetrics m = metrics.latest(endpoint);
            return m == null ? null : m.forModel(model);
        };
    }

    /** The pool's side of {@code replicas.placement: shared}: one Redis client per URL, for the gateway's life. */
    private PrefixSharing prefixSharing(PoolConfig p) {
        if (p.replicas().placement() != Coordination.SHARED) {
            return PrefixSharing.NONE;
        }
        return prefixSharings.computeIfAbsent(p.replicas().redisUrl(),
                u -> new RedisPrefixSharing(u, redisResources.get(), meters.prefixSharing())).forPool(p.name());
    }

    /**
     * Before a reload builds its pools: closes the Redis clients no pool of {@code next} shares through, and has the
     * others forget the pools that no longer share through them, so that a pool moved to another Redis registers its
     * meters afresh on the new client. Pools not yet swapped out meanwhile count their decisions as dropped.
     */
    private void retireSharings(GatewayConfig next) {
        Map<URI, Set<String>> users = new HashMap<>();
        for (PoolConfig p : next.pools()) {
            if (p.replicas().placement() == Coordination.SHARED) {
                users.computeIfAbsent(p.replicas().redisUrl(), u -> new HashSet<>()).add(p.name());
            }
        }
        prefixSharings.entrySet().removeIf(e -> {
            Set<String> names = users.get(e.getKey());
            if (names == null) {
                e.getValue().close();
                return true;
            }
            e.getValue().retainPools(names);
            return false;
        });
    }

    /**
     * Applies a new validated config without stopping: pools whose config is unchanged are kept as they are
     * (policy state, endpoints), changed and added pools are built afresh (a changed pool keeping what its outlier
     * detection knew) and get the pods discovery already knows for an unchanged selector, and the pool set is swapped in one write. Requests already routed
     * finish on the pool they started with. Listeners (the per-pool routes) run after the swap.
     */
    public synchronized PoolChanges reload(GatewayConfig next) {
        // first, so that a secret or token file that cannot be read refuses the reload before anything changed
        applySecrets(next);
        tokenizers.apply(next.pools()); // files that cannot be loaded refuse the reload here too
        UpstreamTls nextTls = next.global().equals(config.global()) ? targetTls : targetTls(next.global());
        ModelPools before = pools;
        retireSharings(next);
        List<ModelPool> list = new ArrayList<>();
        for (PoolConfig p : next.pools()) {
            ModelPool old = before.pool(p.name());
            if (old != null && old.config().equals(p)) {
                list.add(old);
            } else {
                ModelPool pool = newPool(p);
                if (old != null) { // the same pool, reconfigured: its pods failed what they failed
                    pool.outliers().adopt(old.outliers());
                }
                list.add(pool);
            }
        }
        ModelPools after = new ModelPools(list);
        predictors.keySet().retainAll(next.pools().stream().map(Gateway::predictorKey).toList());
        if (!next.auth().equals(config.auth())) {
            Authenticator previous = authenticator;
            authenticator = next.auth().enabled() ? new Authenticator(next.auth(), meters.auth()) : null;
            if (previous != null) {
                previous.close();
            }
        }
        rateLimiter.reconfigure(next.rateLimits());
        targetTls = nextTls;
        discovery.attach(after); // before the swap, so that no request sees a discovered pool empty
        pools = after;
        modelVersions = ModelVersions.of(next.modelRewrites(), stickyVersions, meters.rollouts());
        for (ModelPool old : before.pools()) {
            ModelPool successor = after.pool(old.name());
            if (successor != old) { // its waiting requests move to the pool that replaces it
                old.flowControl().handOver(successor == null ? null : successor.flowControl());
            }
        }
        config = next;
        meters.poolsChanged(after);
        for (Runnable listener : reloadListeners) {
            listener.run();
        }
        return PoolChanges.between(before, after);
    }

    /**
     * How the global tier speaks to {@code target}: over TLS with spec.global.tls's trust and client certificate when
     * its URL is https, else null (plain HTTP).
     */
    public UpstreamTls targetTls(TargetConfig target) {
        return target.https() ? targetTls : null;
    }

    /** The TLS of spec.global's https targets, read from its files now; null when no target is https. */
    private static UpstreamTls targetTls(GlobalConfig global) {
        if (global.targets().stream().noneMatch(TargetConfig::https)) {
            return null;
        }
        GlobalConfig.TlsFiles f = global.tls();
        try {
            return UpstreamTls.client(f.caFile(), f.certFile(), f.keyFile());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("spec.global.tls: " + e.getMessage(), e);
        }
    }

    /** What a global tier's pool sends its clusters' capacity summaries: the bearer token of spec.global. */
    private String clusterAuthorization(ModelPool pool) {
        String token = pool.config().global() ? secrets.value(config.global().clusterTokenFile()) : null;
        return token == null ? null : "Bearer " + token;
    }

    private void applySecrets(GatewayConfig next) {
        try {
            secrets.apply(next);
        } catch (InvalidConfigException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private static String predictorKey(PoolConfig p) {
        return p.name() + '\n' + p.modelName();
    }

    /** Runs {@code listener} after every reload. */
    public void onReload(Runnable listener) {
        reloadListeners.add(listener);
    }

    /**
     * Everyone who learns about the inference requests served (meters, access log, tracer, fleet page); the request
     * path reports to it. Which of them listen is settled at start from {@code spec.observability}.
     */
    public RequestListeners requestListeners() {
        return requestListeners;
    }

    /** What the live fleet page (GET /ui) shows; listens to every request. */
    public FleetView fleetView() {
        return fleetView;
    }

    /** The automatic canaries: their progress, for the fleet page. */
    public Rollouts rollouts() {
        return rollouts;
    }

    /** What {@code GET /capacity} answers: this cluster's capacity per model, for a global tier. */
    public CapacitySummary capacitySummary() {
        return capacitySummary;
    }

    /** The token {@code GET /capacity} asks for ({@code spec.cluster.tokenFile}); null while none is set. */
    public ClusterToken clusterToken() {
        return config.cluster().tokenFile() == null ? null : clusterToken;
    }

    /** Checks credentials ({@code spec.auth}); null while auth is off. */
    public Authenticator authenticator() {
        return authenticator;
    }

    /** The tenants' rate limits ({@code spec.tenants[].limits}, counted as {@code spec.rateLimits} says). */
    public RateLimiter rateLimiter() {
        return rateLimiter;
    }

    /** Copies a share of the pools' requests to their candidates, as their {@code shadow} sections say. */
    public ShadowTraffic shadowTraffic() {
        return shadowTraffic;
    }

    /** Kubernetes pod discovery for the pools with a {@code modelSelector}. */
    public PodDiscovery discovery() {
        return discovery;
    }

    public GatewayConfig config() {
        return config;
    }

    public ModelPools pools() {
        return pools;
    }

    public InFlightRequests inFlight() {
        return inFlight;
    }

    public MetricsCache metrics() {
        return metrics;
    }

    /** Scrapes the pools' model servers into {@link #metrics()}; driven by one timer route per pool. */
    public MetricsScraper metricsScraper() {
        return scraper;
    }

    /** Ticks the pools' queues after each scrape; driven by the same timer routes. */
    public FlowControlTicker flowControlTicker() {
        return flowControlTicker;
    }

    public MeterRegistry meterRegistry() {
        return meterRegistry;
    }

    /** Every subsystem's meters, bound to {@link #meterRegistry()}. */
    public GatewayMeters meters() {
        return meters;
    }

    public NanoClock clock() {
        return clock;
    }

    /** The pools' prompt tokenizers (docs/tokenization.md). */
    public PoolTokenizers tokenizers() {
        return tokenizers;
    }

    public long maxRequestBodyBytes() {
        return config.maxRequestBodyBytes();
    }

    @Override
    public void close() {
        ConfigFileWatcher watcher = configWatcher;
        if (watcher != null) {
            watcher.close();
        }
        scraper.close();
        Authenticator auth = authenticator;
        if (auth != null) {
            auth.close();
        }
        rateLimiter.close();
        rollouts.close();
        tokenizers.close();
        prefixSharings.values().forEach(RedisPrefixSharing::close);
        redisResources.close(); // after the clients that use them
        secrets.close();
        if (tracer != null) {
            tracer.close();
        }
        if (metricsPush != null) {
            metricsPush.close(); // its last push, with the totals up to now
        }
    }
}
