package io.inferencegateway.pool;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;

import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.config.Secrets;
import io.inferencegateway.domain.SchedulingPolicy;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.domain.RecentFailures;

/**
 * The pods that serve one model (and its LoRA adapters), and the policy that picks among them.
 * The endpoint list is replaced whole (by static config or by Kubernetes discovery), never mutated,
 * so readers on the request path see a consistent list without locking.
 */
public final class ModelPool {

    private final PoolConfig config;
    private final SchedulingPolicy policy;
    private final InFlightRequests inFlight;
    private final NanoClock clock;
    private volatile List<Endpoint> endpoints;
    private final List<Consumer<ModelPool>> endpointListeners = new CopyOnWriteArrayList<>();
    private final OutlierDetector outliers;
    private final RetryBudget retryBudget;
    private final FlowControl flowControl;
    private volatile PoolHealthListener healthListener = PoolHealthListener.NONE;
    private volatile Secrets secrets;

    public ModelPool(PoolConfig config, SchedulingPolicy policy, List<Endpoint> endpoints) {
        this(config, policy, endpoints, new InFlightRequests(), NanoClock.SYSTEM);
    }

    /**
     * @param inFlight the gateway's counts of its requests in flight per endpoint (shared by every pool and its
     *                 policy), which the pool's {@link Placement}s keep
     */
    public ModelPool(PoolConfig config, SchedulingPolicy policy, List<Endpoint> endpoints, InFlightRequests inFlight,
            NanoClock clock) {
        this(config, failures -> policy, endpoints, inFlight, clock);
    }

    /**
     * @param policy the pool's policy, made from what the pool's outlier detection sees fail (which a global tier's
     *               plugins weigh)
     */
    public ModelPool(PoolConfig config, Function<RecentFailures, SchedulingPolicy> policy, List<Endpoint> endpoints,
            InFlightRequests inFlight, NanoClock clock) {
        this.config = Objects.requireNonNull(config);
        this.inFlight = Objects.requireNonNull(inFlight);
        this.clock = clock;
        this.endpoints = List.copyOf(endpoints);
        this.outliers = new OutlierDetector(config.name(), config.outlierDetection(), () -> this.endpoints.size(),
                clock);
        this.policy = Objects.requireNonNull(policy.apply(outliers));
        this.retryBudget = new RetryBudget(config.failover(), clock);
        this.flowControl = new FlowControl(this, config.flowControl(), clock);
    }

    /** Gives a global tier's pool the secrets its targets' credentials are read from. */
    public void secrets(Secrets s) {
        this.secrets = s;
    }

    /**
     * The credential to send {@code target} (a provider's API key file, {@link io.inferencegateway.config.TargetConfig}),
     * or null when the client's own header goes.
     */
    public String credential(Path file) {
        Secrets s = secrets;
        return s == null ? null : s.value(file);
    }

    /** Where the pool's requests wait while every pod is saturated, and how they are bound to a pod. */
    public FlowControl flowControl() {
        return flowControl;
    }

    /** The pool's failing pods, taken out of its candidates for a while. */
    public OutlierDetector outliers() {
        return outliers;
    }

    /** How many retries on another pod the pool may still make. */
    public RetryBudget retryBudget() {
        return retryBudget;
    }

    public PoolHealthListener healthListener() {
        return healthListener;
    }

    /** Who hears the pool's retries and ejections (the gateway's meters). */
    public void healthListener(PoolHealthListener l) {
        this.healthListener = Objects.requireNonNull(l);
        outliers.listener(l);
    }

    public String name() {
        return config.name();
    }

    public PoolConfig config() {
        return config;
    }

    public SchedulingPolicy policy() {
        return policy;
    }

    /** The gateway's requests in flight per endpoint, which a placement on this pool counts in. */
    public InFlightRequests inFlight() {
        return inFlight;
    }

    /** The clock the pool's queue and placements read (a pick's duration, a wait's). */
    public NanoClock clock() {
        return clock;
    }

    public List<Endpoint> endpoints() {
        return endpoints;
    }

    /** Replaces the pool's endpoints; requests already sent to a removed endpoint finish there. */
    public void updateEndpoints(List<Endpoint> current) {
        this.endpoints = List.copyOf(current);
        outliers.retain(this.endpoints);
        policy.endpointsChanged(this.endpoints); // lets the policy drop state of pods that left
        for (Consumer<ModelPool> l : endpointListeners) {
            l.accept(this);
        }
    }

    /** Runs {@code listener} after every {@link #updateEndpoints} (the gateway's per-pod meters). */
    public void onEndpointsChanged(Consumer<ModelPool> listener) {
        endpointListeners.add(Objects.requireNonNull(listener));
    }

    public boolean serves(String model) {
        return config.modelName().equals(model) || config.loraAdapters().contains(model);
    }
}
