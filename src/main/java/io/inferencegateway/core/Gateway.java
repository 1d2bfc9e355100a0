package io.inferencegateway.core;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.config.GatewayConfig;
import io.inferencegateway.config.InvalidConfigException;
import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.metrics.MetricsView;
import io.inferencegateway.scheduling.SchedulingPolicies;

/**
 * The gateway's state, free of Camel: the configuration, the model pools and what the gateway knows
 * about each endpoint. The routes' processors read it; one instance per running gateway.
 */
public final class Gateway {

    private final NanoClock clock;
    private final InFlightRequests inFlight = new InFlightRequests();
    private final MetricsView metrics;
    private volatile GatewayConfig config;
    private volatile ModelPools pools;

    public Gateway(GatewayConfig config, NanoClock clock) {
        this.clock = clock;
        this.metrics = endpoint -> null;
        this.config = config;
        this.pools = buildPools(config);
    }

    /** Loads and validates the config file; the bean factory the YAML routes use. */
    public static Gateway fromConfigFile(String path) throws InvalidConfigException {
        return new Gateway(ConfigLoader.load(Path.of(path)), NanoClock.SYSTEM);
    }

    private ModelPools buildPools(GatewayConfig cfg) {
        List<ModelPool> list = new ArrayList<>();
        for (PoolConfig p : cfg.pools()) {
            list.add(new ModelPool(p, SchedulingPolicies.create(p, metrics, inFlight, clock), p.endpoints()));
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

    public MetricsView metrics() {
        return metrics;
    }

    public NanoClock clock() {
        return clock;
    }

    public long maxRequestBodyBytes() {
        return config.maxRequestBodyBytes();
    }
}
