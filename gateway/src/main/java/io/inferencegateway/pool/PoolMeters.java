package io.inferencegateway.pool;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.Priority;
import io.inferencegateway.pool.FlowControl.WaitOutcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pools' own meters (docs/observability.md, "Failover and outliers", "Flow control"): each pool's endpoints and
 * requests in flight, its queue (waiting, waits, refusals), its retries and retry budget, and its outlier ejections,
 * per pod. It is every pool's {@link PoolHealthListener}, and logs the ejections too.
 *
 * <p>Gauges read the pool of the name as it is now when Prometheus scrapes, so a pool rebuilt by a reload keeps its
 * series and the request path pays nothing for them. Per-pod series follow each pool's membership ({@link PodSeries}).
 * What the request path counts goes to counters resolved once and cached by pool, band and reason; no call builds tags.
 */
public final class PoolMeters implements MeterBinder, PoolHealthListener {

    private static final Logger OUTLIERS = LoggerFactory.getLogger("io.inferencegateway.outliers");
    /** The reasons of {@code inference_gateway_upstream_retries_total}, see UpstreamProducer. */
    // 500, 504 and 429 (for load) fail over at a global tier only
    static final List<String> RETRY_REASONS = List.of("connect", "reset", "502", "503", "500", "504", "429");

    /** Bucket bounds of the queue-wait histogram: the queue timeout is 30 s by default. */
    private static final Duration[] QUEUE_BUCKETS = {Duration.ofMillis(1), Duration.ofMillis(5),
        Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100),
        Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500),
        Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30)};
    private static final List<String> PRIORITY_BANDS = List.of(Priority.band(Priority.CRITICAL),
            Priority.band(Priority.STANDARD), Priority.band(Priority.SHEDDABLE));

    private final Supplier<ModelPools> current;
    private final InFlightRequests inFlight;
    private final Map<String, PoolCounters> pools = new ConcurrentHashMap<>();
    private volatile MeterRegistry registry;

    /**
     * @param current  the pools as they are now (a reload replaces them), read when Prometheus scrapes
     * @param inFlight the gateway's counts of its requests in flight per endpoint
     */
    public PoolMeters(Supplier<ModelPools> current, InFlightRequests inFlight) {
        this.current = current;
        this.inFlight = inFlight;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        this.registry = registry;
    }

    // ---------------------------------------------------------------- failover and outliers (request path)

    @Override
    public void retried(String pool, String reason) {
        PoolCounters series = pools.get(pool);
        Counter c = series == null ? null : series.retries.get(reason);
        if (c != null) {
            c.increment();
        }
    }

    @Override
    public void retryBudgetExhausted(String pool) {
        PoolCounters series = pools.get(pool);
        if (series != null) {
            series.budgetExhausted.increment();
        }
    }

    @Override
    public void ejected(String pool, Endpoint pod, Duration forHowLong, String reason) {
        OUTLIERS.warn("pool {}: ejected pod {} for {} s ({})", pool, pod, forHowLong.toSeconds(), reason);
        PoolCounters series = pools.get(pool);
        Counter ejections = series == null ? null : series.ejections.get(pod);
        if (ejections != null) {
            ejections.increment();
        }
    }

    @Override
    public void readmitted(String pool, Endpoint pod) {
        OUTLIERS.info("pool {}: pod {} readmitted after its ejection, on probation", pool, pod);
    }

    // ---------------------------------------------------------------- flow control (request path)

    @Override
    public void dropped(String pool, int priority, GatewayError.Dropped why) {
        PoolCounters series = pools.get(pool);
        Counter[] byReason = series == null ? null : series.dropped.get(Priority.band(priority));
        if (byReason != null) {
            byReason[why.ordinal()].increment();
        }
    }

    @Override
    public void waited(String pool, int priority, WaitOutcome outcome, long nanos) {
        PoolCounters series = pools.get(pool);
        if (series != null) {
            queueWait(series, Priority.band(priority), outcome).record(nanos, TimeUnit.NANOSECONDS);
        }
    }

    /** At most 3 bands x 3 outcomes a pool; the dispatched ones exist from the start (registerFlowControl). */
    private Timer queueWait(PoolCounters series, String band, WaitOutcome outcome) {
        String key = band + '/' + outcome.label();
        Timer timer = series.queueWaits.get(key);
        return timer != null ? timer : series.queueWaits.computeIfAbsent(key, k -> Timer
                .builder("inference_extension_flow_control_request_queue_duration")
                .description("Time a request waited in the pool's queue while every pod was saturated, by how the "
                        + "wait ended: dispatched to a pod, refused (timeout, displaced) or cancelled")
                .serviceLevelObjectives(QUEUE_BUCKETS)
                .tag("pool", series.pool).tag("priority", band).tag("outcome", outcome.label()).register(registry));
    }

    private void registerFlowControl(String name, PoolCounters series) {
        for (String band : PRIORITY_BANDS) {
            queueWait(series, band, WaitOutcome.DISPATCHED);
            Gauge.builder("inference_extension_flow_control_queue_size", this,
                    m -> m.poolValue(name, p -> p.flowControl().queued(band)))
                    .description("Requests waiting in the pool's queue now, by priority band")
                    .tag("pool", name).tag("priority", band).register(registry);
            series.dropped.computeIfAbsent(band, b -> {
                GatewayError.Dropped[] reasons = GatewayError.Dropped.values();
                Counter[] counters = new Counter[reasons.length];
                for (GatewayError.Dropped why : reasons) {
                    counters[why.ordinal()] = Counter.builder("inference_gateway_flow_control_dropped")
                            .description("Requests flow control refused with a 429, by priority band and reason "
                                    + "(the x-gateway-dropped-reason header)")
                            .tag("pool", name).tag("priority", b).tag("reason", why.header()).register(registry);
                }
                return counters;
            });
        }
    }

    // ---------------------------------------------------------------- pools and pods

    /**
     * Registers the meters of a pool just built (at start or by a reload) and its pods' series, and becomes its health
     * listener; reading the pool's gauges looks the pool up by name again, so a rebuilt pool keeps its series.
     */
    public void registerPool(ModelPool pool) {
        String name = pool.name();
        Gauge.builder("inference_gateway_pool_endpoints", this, m -> m.poolValue(name, p -> p.endpoints().size()))
                .description("Endpoints the pool can route to").tag("pool", name).register(registry);
        Gauge.builder("inference_gateway_requests_in_flight", this,
                m -> m.poolValue(name, p -> p.endpoints().stream().mapToLong(m.inFlight::inFlight).sum()))
                .description("Requests the gateway has sent to the pool's endpoints and not yet seen end")
                .tag("pool", name).register(registry);
        Gauge.builder("inference_gateway_outlier_ejected", this,
                m -> m.poolValue(name, p -> p.outliers().ejectedCount()))
                .description("Pods of the pool ejected as outliers now").tag("pool", name).register(registry);
        PoolCounters series = pools.computeIfAbsent(name, n -> {
            PoolCounters s = new PoolCounters(n, Counter.builder("inference_gateway_upstream_retry_budget_exhausted")
                    .description("Retries on another pod not made because the pool's retry budget was spent")
                    .tag("pool", n).register(registry));
            for (String reason : RETRY_REASONS) {
                s.retries.put(reason, Counter.builder("inference_gateway_upstream_retries")
                        .description("Requests sent to another pod before any byte reached the client, by why")
                        .tag("pool", n).tag("reason", reason).register(registry));
            }
            return s;
        });
        registerFlowControl(name, series);
        pool.healthListener(this);
        series.ejections.follow(pool.endpoints());
        pool.onEndpointsChanged(this::followPods);
    }

    /** After a reload: every current pool's pods, and no series of pools that are gone. */
    public void poolsChanged(ModelPools now) {
        PodSeries.poolsChanged(now, pools, series -> series.ejections);
    }

    private void followPods(ModelPool pool) {
        PodSeries.follow(pool, pools, series -> series.ejections);
    }

    private Counter registerEjections(String pool, Endpoint pod) {
        return Counter.builder("inference_gateway_outlier_ejections")
                .description("Times the pod was ejected from its pool as an outlier")
                .tag("pool", pool).tag("pod", pod.toString()).register(registry);
    }

    private double poolValue(String pool, ToDoubleFunction<ModelPool> value) {
        ModelPool p = current.get().pool(pool);
        return p == null ? Double.NaN : value.applyAsDouble(p);
    }

    /** One pool's counters and its pods' ejections. */
    private final class PoolCounters {
        final String pool;
        final Counter budgetExhausted;
        final Map<String, Counter> retries = new ConcurrentHashMap<>();
        // priority band -> flow control refusals by GatewayError.Dropped ordinal; band + outcome -> queue wait
        final Map<String, Counter[]> dropped = new ConcurrentHashMap<>();
        final Map<String, Timer> queueWaits = new ConcurrentHashMap<>();
        final PodSeries<Counter> ejections;

        PoolCounters(String pool, Counter budgetExhausted) {
            this.pool = pool;
            this.budgetExhausted = budgetExhausted;
            this.ejections = new PodSeries<>(pod -> registerEjections(pool, pod), c -> registry.remove(c));
        }
    }
}
