package io.inferencegateway.core;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.config.GatewayConfig;
import io.inferencegateway.config.InvalidConfigException;
import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.metrics.MetricsCache;
import io.inferencegateway.metrics.MetricsScraper;
import io.inferencegateway.scheduling.SchedulingPolicies;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The gateway's state, free of Camel: the configuration, the model pools and what the gateway knows
 * about each endpoint. The routes' processors read it; one instance per running gateway.
 */
public final class Gateway implements AutoCloseable {

    private final NanoClock clock;
    private final InFlightRequests inFlight = new InFlightRequests();
    private final MetricsCache metrics = new MetricsCache();
    private final MetricsScraper scraper;
    private final MeterRegistry meterRegistry;
    private final GatewayMeters meters;
    private volatile GatewayConfig config;
    private volatile ModelPools pools;

    public Gateway(GatewayConfig config, NanoClock clock) {
        this(config, clock, GatewayMeters.newRegistry());
    }

    public Gateway(GatewayConfig config, NanoClock clock, MeterRegistry meterRegistry) {
        this.clock = clock;
        this.meterRegistry = meterRegistry;
        this.meters = new GatewayMeters(meterRegistry);
        this.config = config;
        this.pools = buildPools(config);
        this.scraper = new MetricsScraper(this::pools, metrics, inFlight, clock);
        meters.registerScraper(scraper);
    }

    /** Loads and validates the config file; the bean factory the YAML routes use. */
    public static Gateway fromConfigFile(String path, MeterRegistry meterRegistry) throws InvalidConfigException {
        return new Gateway(ConfigLoader.load(Path.of(path)), NanoClock.SYSTEM, meterRegistry);
    }

    private ModelPools buildPools(GatewayConfig cfg) {
        List<ModelPool> list = new ArrayList<>();
        for (PoolConfig p : cfg.pools()) {
            list.add(new ModelPool(p, SchedulingPolicies.create(p, metrics, inFlight, clock, meters), p.endpoints()));
            meters.registerPool(this, p.name());
        }
        return new ModelPools(list);
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

    public MeterRegistry meterRegistry() {
        return meterRegistry;
    }

    public NanoClock clock() {
        return clock;
    }

    public long maxRequestBodyBytes() {
        return config.maxRequestBodyBytes();
    }

    @Override
    public void close() {
        scraper.close();
    }
}
