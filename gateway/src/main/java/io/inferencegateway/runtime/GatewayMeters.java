package io.inferencegateway.runtime;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

import io.inferencegateway.auth.AuthMeters;
import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.config.GlobalConfig;
import io.inferencegateway.config.InvalidConfigException;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.domain.SchedulingPolicy;
import io.inferencegateway.edge.ConnectionMeters;
import io.inferencegateway.metrics.MetricsCache;
import io.inferencegateway.metrics.ScrapeMeters;
import io.inferencegateway.observability.RequestMeters;
import io.inferencegateway.observability.TargetMeters;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.pool.ModelPools;
import io.inferencegateway.pool.PoolMeters;
import io.inferencegateway.ratelimit.RateLimitMeters;
import io.inferencegateway.rollout.RolloutMeters;
import io.inferencegateway.scheduling.SchedulerMeters;
import io.inferencegateway.scheduling.prefix.PrefixSharingMeters;
import io.inferencegateway.shadow.ShadowMeters;
import io.inferencegateway.tokenize.TokenizeMeters;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.netty4.NettyAllocatorMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.buffer.PooledByteBufAllocator;

/**
 * The gateway's meters (docs/observability.md), bound to its registry here and nowhere else. There is one way to add
 * a meter: the subsystem that has it exposes a Micrometer {@link MeterBinder} in its own package (the pools'
 * {@link PoolMeters}, the scrapes' {@link ScrapeMeters}, the scheduler's {@link SchedulerMeters}, auth, rate limits,
 * rollouts, shadow traffic, prefix sharing, client connections), takes it in place of a registry, and this class makes
 * it and binds it; what observes requests across the subsystems ({@link RequestMeters}, {@link TargetMeters}) is a
 * binder in observability. The process's own health is bound when the registry is made ({@link #newRegistry()}).
 */
public final class GatewayMeters {

    private final PoolMeters pools;
    private final ScrapeMeters scrapes;
    private final SchedulerMeters scheduler;
    private final RequestMeters requests; // null when spec.observability.requestMetrics is off
    private final TargetMeters targets;
    private final AuthMeters auth = new AuthMeters();
    private final RateLimitMeters rateLimits = new RateLimitMeters();
    private final RolloutMeters rollouts = new RolloutMeters();
    private final ShadowMeters shadow = new ShadowMeters();
    private final TokenizeMeters tokenize = new TokenizeMeters();
    private final PrefixSharingMeters prefixSharing = new PrefixSharingMeters();
    private final ConnectionMeters connections = new ConnectionMeters();

    /**
     * Makes every subsystem's binder and binds it to {@code registry}.
     *
     * @param requestMetrics  whether the per-request meters are on ({@code spec.observability.requestMetrics})
     * @param current         the pools as they are now (a reload replaces them), read when Prometheus scrapes
     * @param global          the global tier's config now
     */
    GatewayMeters(MeterRegistry registry, boolean requestMetrics, Supplier<ModelPools> current, MetricsCache metrics,
            InFlightRequests inFlight, NanoClock clock, Supplier<GlobalConfig> global) {
        this.pools = new PoolMeters(current, inFlight);
        this.scrapes = new ScrapeMeters(current, metrics, clock);
        Function<String, SchedulingPolicy> policies = name -> {
            ModelPool p = current.get().pool(name);
            return p == null ? null : p.policy();
        };
        this.scheduler = new SchedulerMeters(policies, clock);
        this.requests = requestMetrics ? new RequestMeters() : null;
        this.targets = new TargetMeters(global);
        List<MeterBinder> binders = new ArrayList<>(List.of(pools, scrapes, scheduler, targets, auth, rateLimits,
                rollouts, shadow, prefixSharing, connections, tokenize));
        if (requests != null) {
            binders.add(requests);
        }
        for (MeterBinder binder : binders) {
            binder.bindTo(registry);
        }
    }

    /**
     * The registry the routes' {@code micrometer:} endpoints and {@code GET /metrics} share, with the process's own
     * health beside the gateway's: heap and direct buffers, threads, CPU, open file descriptors, uptime, and Netty's
     * pooled allocator (where the request path's buffers live). All read when Prometheus scrapes, nothing per request.
     */
    public static PrometheusMeterRegistry newRegistry() {
        return withProcessMeters(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    }

    /**
     * The registry for the gateway the config file describes: as {@link #newRegistry()}, or, when the config pushes
     * its meters ({@code spec.observability.metricsExport}), one that a push can join ({@link GatewayRegistry}). Only
     * then: every value recorded in a composite registry goes through one more step, which cost the proxy a measurable
     * share of its throughput (docs/observability.md). A config that cannot be read gets the plain registry; the
     * gateway's own load of it reports why.
     */
    public static MeterRegistry newRegistry(String configFile) {
        boolean push;
        try {
            push = ConfigLoader.load(Path.of(configFile)).observability().metricsExport().enabled();
        } catch (InvalidConfigException e) {
            push = false;
        }
        return push ? withProcessMeters(new GatewayRegistry()) : newRegistry();
    }

    private static <R extends MeterRegistry> R withProcessMeters(R registry) {
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new NettyAllocatorMetrics(PooledByteBufAllocator.DEFAULT).bindTo(registry);
        return registry;
    }

    /**
     * A pool just built (at start or by a reload): its own, its scrapes' and its scheduler's meters, and its pods'
     * request and pick series, which follow its membership from now on.
     */
    void registerPool(ModelPool pool) {
        pools.registerPool(pool);
        scrapes.registerPool(pool);
        scheduler.registerPool(pool.name(), pool.policy());
        if (requests != null) {
            requests.endpointsChanged(pool); // a rebuilt pool may have lost pods
            scheduler.podsChanged(pool.name(), pool.endpoints());
            pool.onEndpointsChanged(p -> {
                requests.endpointsChanged(p);
                scheduler.podsChanged(p.name(), p.endpoints());
            });
        }
    }

    /** After a reload swapped the pools in: every current pool's pods, and no per-pod series of pools that are gone. */
    void poolsChanged(ModelPools now) {
        pools.poolsChanged(now);
        scrapes.poolsChanged(now);
    }

    /** The pools' own meters: their health listener. */
    public PoolMeters pools() {
        return pools;
    }

    /** The scrapes' meters: the scraper's listener. */
    public ScrapeMeters scrapes() {
        return scrapes;
    }

    /** The scheduler's meters: the policies' {@code SchedulerEvents}, and a request listener for the picks. */
    public SchedulerMeters scheduler() {
        return scheduler;
    }

    /** The per-request meters; null when {@code spec.observability.requestMetrics} is off. */
    public RequestMeters requests() {
        return requests;
    }

    public TargetMeters targets() {
        return targets;
    }

    public AuthMeters auth() {
        return auth;
    }

    public RateLimitMeters rateLimits() {
        return rateLimits;
    }

    public RolloutMeters rollouts() {
        return rollouts;
    }

    public TokenizeMeters tokenize() {
        return tokenize;
    }

    public ShadowMeters shadow() {
        return shadow;
    }

    public PrefixSharingMeters prefixSharing() {
        return prefixSharing;
    }

    /** The ingress's client connections' meters (the Camel layer's {@code clientConnections} bean counts there). */
    public ConnectionMeters connections() {
        return connections;
    }
}
