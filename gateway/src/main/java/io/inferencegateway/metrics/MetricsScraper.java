package io.inferencegateway.metrics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

import io.inferencegateway.config.TargetConfig;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.proxy.UpstreamTls;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.pool.ModelPools;
import io.inferencegateway.domain.NanoClock;

/**
 * Scrapes the Prometheus exposition of every endpoint of a pool, without blocking: {@link #scrape(String)} only
 * starts asynchronous HTTP requests and returns. They go over one kept-alive HTTP/1.1 connection per endpoint, served
 * by the scraper's own event loop ({@link ScrapeClient}); each response is parsed by the pool's {@link EngineDialect}
 * there, straight from the bytes received, and stored in the {@link MetricsCache}.
 *
 * <ul>
 *   <li>At most one scrape per endpoint is in flight: while one is still running, a tick skips that endpoint, so a
 *       slow {@code /metrics} costs only its own freshness, never other endpoints' scrapes or requests.</li>
 *   <li>A scrape that has not finished within the timeout (headers and body) is cancelled, which closes its
 *       connection, and counts as a failure.</li>
 *   <li>Each reading is stamped with the clock time its scrape started and the gateway's own dispatch counters for
 *       the endpoint at that moment, so the scheduler can add what it sent since.</li>
 *   <li>A response without a single series the engine is known to publish counts as a failure (a wrong
 *       {@code engineType}, or a server that is not a model server).</li>
 *   <li>Endpoints that leave every pool are dropped from the cache; a late answer from one is discarded.</li>
 *   <li>A pool's scrapes may carry an {@code Authorization} header ({@link #authorization}): a global tier's
 *       credential for the cluster gateways it polls.</li>
 *   <li>A cluster gateway's reading ({@link EndpointMetrics#cluster()}) gets the round trip measured by its polls
 *       ({@link RoundTrips}).</li>
 *   <li>An engine whose exposition does not tell its KV cache's size but another path does
 *       ({@link EngineDialect#capacityPath}, llama.cpp's {@code /props}) has that path read in place of a scrape when
 *       a pod is new, every {@link #CAPACITY_REFRESH} and after a failed scrape; its readings carry the geometry.
 *       A pod costs one extra GET per ten minutes, never two at once.</li>
 * </ul>
 */
public final class MetricsScraper implements AutoCloseable {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(1);
    public static final int DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;
    /** How long a pod's KV geometry from its engine's capacity path is trusted ({@link EngineDialect#capacityPath}). */
    public static final Duration CAPACITY_REFRESH = Duration.ofMinutes(10);
    /** How long after a capacity read that failed (or said nothing) it is tried again. */
    static final Duration CAPACITY_RETRY = Duration.ofMinutes(1);

    /** How one scrape of one endpoint ended; exactly one per attempt. */
    public enum Result {
        SUCCEEDED("succeeded"), FAILED("failed"), TIMED_OUT("timed_out"), SKIPPED_BUSY("skipped_busy");

        private final String label;

        Result(String label) {
            this.label = label;
        }

        /** The value of the {@code result} label. */
        public String label() {
            return label;
        }
    }

    /**
     * Told how every scrape ended (the gateway's meters, {@link ScrapeMeters}). Called on the scraper's event
     * loop and the scrape timer's threads; must not block.
     */
    @FunctionalInterface
    public interface Listener {
        Listener NONE = (pool, endpoint, result, durationNanos) -> {
        };

        /**
         * @param pool          the pool whose tick started the scrape
         * @param durationNanos from the request's start to the parsed answer or the failure; 0 for
         *                      {@link Result#SKIPPED_BUSY}
         */
        void scraped(String pool, Endpoint endpoint, Result result, long durationNanos);
    }

    /**
     * What a pool's scrapes send as their {@code Authorization} header: the global tier's credential for the cluster
     * gateways it polls. Asked once per tick of the pool, on the scrape timer's thread: return a value read ahead
     * (a token file re-read when it changes), never block.
     */
    @FunctionalInterface
    public interface Authorization {
        Authorization NONE = pool -> null;

        /** The header's value for the pool's scrapes (say {@code Bearer <token>}), or null to send none. */
        String header(ModelPool pool);
    }

    /** How a global tier speaks to a cluster: its TLS context for an {@code https} cluster, else null. */
    @FunctionalInterface
    public interface TargetTls {
        TargetTls NONE = target -> null;

        UpstreamTls of(TargetConfig target);
    }

    /** Running totals ({@code failed} includes {@code timedOut}). */
    public record ScrapeStats(long started, long succeeded, long failed, long timedOut, long skippedBusy,
            long garbageLines) {
    }

    private final Supplier<ModelPools> pools;
    private final MetricsCache cache;
    private final InFlightRequests inFlight;
    private final NanoClock clock;
    private final Duration timeout;
    private final ScrapeClient http;
    private final Listener listener;

    private final Set<Endpoint> scraping = ConcurrentHashMap.newKeySet();
    private final ConcurrentHashMap<Endpoint, RoundTrips> roundTrips = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Endpoint, Capacity> capacities = new ConcurrentHashMap<>();
    private volatile Authorization authorization = Authorization.NONE;
    private volatile TargetTls targetTls = TargetTls.NONE;
    private volatile Membership membership;
    private volatile Membership membershipRetained;
    private volatile boolean closed;

    private final LongAdder started = new LongAdder();
    private final LongAdder succeeded = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder timedOut = new LongAdder();
    private final LongAdder skippedBusy = new LongAdder();
    private final LongAdder garbageLines = new LongAdder();

    /** A scraper with a one-second timeout and an 8 MiB body limit. */
    public MetricsScraper(Supplier<ModelPools> pools, MetricsCache cache, InFlightRequests inFlight, NanoClock clock) {
        this(pools, cache, inFlight, clock, Listener.NONE);
    }

    /** Like the one above, telling {@code listener} how each scrape ended. */
    public MetricsScraper(Supplier<ModelPools> pools, MetricsCache cache, InFlightRequests inFlight, NanoClock clock,
            Listener listener) {
        this(pools, cache, inFlight, clock, DEFAULT_TIMEOUT, DEFAULT_MAX_BODY_BYTES, listener);
    }

    public MetricsScraper(Supplier<ModelPools> pools, MetricsCache cache, InFlightRequests inFlight, NanoClock clock,
            Duration timeout, int maxBodyBytes) {
        this(pools, cache, inFlight, clock, timeout, maxBodyBytes, Listener.NONE);
    }

    /**
     * @param timeout      longest time for one scrape, from connecting (when there is no open connection) to the
     *                     last byte of the body
     * @param maxBodyBytes a larger exposition fails the scrape and closes its connection
     */
    public MetricsScraper(Supplier<ModelPools> pools, MetricsCache cache, InFlightRequests inFlight, NanoClock clock,
            Duration timeout, int maxBodyBytes, Listener listener) {
        this.listener = Objects.requireNonNull(listener, "listener");
        this.pools = Objects.requireNonNull(pools, "pools");
        this.cache = Objects.requireNonNull(cache, "cache");
        this.inFlight = Objects.requireNonNull(inFlight, "inFlight");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
        if (maxBodyBytes < 1) {
            throw new IllegalArgumentException("maxBodyBytes must be positive, got " + maxBodyBytes);
        }
        this.timeout = timeout;
        // one event loop: scraping 512 pods every 50 ms takes well under one core (docs/benchmarks/scraping.md), and a
        // single thread keeps it from ever taking more, whatever the fleet
        this.http = new ScrapeClient(1, timeout, maxBodyBytes);
    }

    /**
     * Starts a scrape of every endpoint of the named pool that is not still being scraped, and returns at once.
     *
     * @return how many scrapes were started (0 for an unknown pool)
     */
    public int scrape(String poolName) {
        ModelPools current = closed ? null : pools.get();
        ModelPool pool = current == null ? null : current.pool(poolName);
        if (pool == null) {
            return 0;
        }
        forgetDepartedIfPoolsChanged(current);
        EngineDialect engine = EngineDialects.forEngine(pool.config().engine());
        // a global tier's pools read a cluster's whole summary, one poll for all of them (EndpointMetrics.forModel)
        EngineDialect dialect = pool.config().global() ? engine : engine.forModel(pool.config().modelName());
        String auth = authorization.header(pool);
        int count = 0;
        for (Endpoint endpoint : pool.endpoints()) {
            TargetConfig target = pool.config().target(endpoint); // a global tier's cluster, else a pod
            if (target != null && target.provider()) {
                continue; // an external provider publishes no capacity summary
            }
            if (target == null && capacityDue(endpoint, dialect)) {
                readCapacity(endpoint, dialect);
                continue;
            }
            String path = target == null ? dialect.metricsPath() : target.basePath() + dialect.metricsPath();
            if (start(poolName, endpoint, path, dialect, auth, target == null ? null : targetTls.of(target))) {
                count++;
            }
        }
        return count;
    }

    /**
     * Sets what every pool's scrapes send as their {@code Authorization} header from the next tick on; the gateway's
     * wiring gives the global tier's cluster credential to the pools of {@code engineType: inference-gateway} only.
     */
    public void authorization(Authorization byPool) {
        this.authorization = Objects.requireNonNull(byPool, "byPool");
    }

    /** Sets how the global tier's {@code https} clusters are spoken to, from the next tick on. */
    public void targetTls(TargetTls tls) {
        this.targetTls = Objects.requireNonNull(tls, "tls");
    }

    /** Whether a scrape of the endpoint is in flight right now. */
    public boolean isScraping(Endpoint endpoint) {
        return scraping.contains(endpoint);
    }

    /** Connections to endpoints open right now; for tests. */
    int openConnections() {
        return http.openConnections();
    }

    public ScrapeStats stats() {
        return new ScrapeStats(started.sum(), succeeded.sum(), failed.sum(), timedOut.sum(), skippedBusy.sum(),
                garbageLines.sum());
    }

    /** Stops scraping: later ticks start nothing, and scrapes still in flight are cancelled. */
    @Override
    public void close() {
        closed = true;
        http.close();
    }

    private boolean start(String pool, Endpoint endpoint, String path, EngineDialect dialect, String auth,
            UpstreamTls tls) {
        if (!scraping.add(endpoint)) {
            skippedBusy.increment();
            listener.scraped(pool, endpoint, Result.SKIPPED_BUSY, 0);
            return false;
        }
        started.increment();
        http.get(endpoint, path, auth, tls, new ScrapeAttempt(pool, endpoint, dialect, clock.nanoTime(),
                inFlight.snapshot(endpoint)));
        return true;
    }

    /** A pod's KV geometry as its capacity path last said it (null: it said none, or failed), and when. */
    private record Capacity(EngineDialect.KvGeometry geometry, long readNanos) {
    }

    private boolean capacityDue(Endpoint endpoint, EngineDialect dialect) {
        if (dialect.capacityPath() == null) {
            return false;
        }
        Capacity c = capacities.get(endpoint);
        long age = c == null ? Long.MAX_VALUE : clock.nanoTime() - c.readNanos();
        return age >= (c == null || c.geometry() != null ? CAPACITY_REFRESH : CAPACITY_RETRY).toNanos();
    }

    /** GETs the engine's capacity path in place of a scrape; its answer is kept, never counted as a scrape. */
    private void readCapacity(Endpoint endpoint, EngineDialect dialect) {
        if (!scraping.add(endpoint)) {
            return;
        }
        http.get(endpoint, dialect.capacityPath(), null, null, new ScrapeClient.Answer() {
            @Override
            public void answered(int status, byte[] body, int offset, int length) {
                EngineDialect.KvGeometry geometry = null;
                try {
                    geometry = status == 200 ? dialect.readCapacity(body, offset, length) : null;
                } catch (RuntimeException e) {
                    // a body the dialect cannot read says nothing
                } finally {
                    remember(geometry);
                }
            }

            @Override
            public void failed(Throwable cause) {
                remember(null);
            }

            @Override
            public void timedOut() {
                remember(null);
            }

            private void remember(EngineDialect.KvGeometry geometry) {
                try {
                    if (stillInSomePool(endpoint)) {
                        capacities.put(endpoint, new Capacity(geometry, clock.nanoTime()));
                    }
                } finally {
                    scraping.remove(endpoint);
                }
            }
        });
    }

    /** A reading without a KV geometry, given the one the pod's capacity path said. */
    private EndpointMetrics withCapacity(Endpoint endpoint, EndpointMetrics metrics) {
        Capacity c = metrics.kvBlockSize() > 0 ? null : capacities.get(endpoint);
        return c == null || c.geometry() == null ? metrics : metrics.withKvGeometry(c.geometry());
    }

    /** One scrape of one endpoint: what it needs to record its answer; told its end once, by the client. */
    private final class ScrapeAttempt implements ScrapeClient.Answer {
        final String pool;
        final Endpoint endpoint;
        final EngineDialect dialect;
        final long startedNanos;
        final InFlightRequests.Counters dispatched;
        long headersNanos = -1;

        ScrapeAttempt(String pool, Endpoint endpoint, EngineDialect dialect, long startedNanos,
                InFlightRequests.Counters dispatched) {
            this.pool = pool;
            this.endpoint = endpoint;
            this.dialect = dialect;
            this.startedNanos = startedNanos;
            this.dispatched = dispatched;
        }

        @Override
        public void headersAfter(long nanos) {
            headersNanos = nanos;
        }

        @Override
        public void answered(int status, byte[] body, int offset, int length) {
            if (status != 200) {
                failed("HTTP " + status, false);
                return;
            }
            EngineDialect.Parsed parsed;
            try {
                parsed = dialect.read(body, offset, length, startedNanos, dispatched);
            } catch (RuntimeException e) {
                failed(describe(e), false);
                return;
            }
            garbageLines.add(parsed.stats().garbageLines());
            if (parsed.stats().wanted() == 0) {
                failed("no " + dialect.name() + " metrics in the response", false);
                return;
            }
            try {
                long now = clock.nanoTime();
                if (stillInSomePool(endpoint)) {
                    cache.recordSuccess(endpoint, withCapacity(endpoint, withRoundTrip(parsed.metrics())), now);
                }
                succeeded.increment();
                listener.scraped(pool, endpoint, Result.SUCCEEDED, Math.max(0, now - startedNanos));
            } finally {
                scraping.remove(endpoint);
            }
        }

        /** A cluster's reading with the lowest round trip of its recent polls, this one's included. */
        private EndpointMetrics withRoundTrip(EndpointMetrics metrics) {
            ClusterCapacity cluster = metrics.cluster();
            if (cluster == null || headersNanos < 0) {
                return metrics;
            }
            double millis = roundTrips.computeIfAbsent(endpoint, e -> new RoundTrips()).add(headersNanos);
            return metrics.withCluster(cluster.withRoundTripMillis(millis));
        }

        @Override
        public void failed(Throwable cause) {
            failed(describe(cause), false);
        }

        @Override
        public void timedOut() {
            failed("timed out after " + timeout.toMillis() + " ms", true);
        }

        private void failed(String error, boolean timeoutHit) {
            finishFailed(pool, endpoint, "http://" + endpoint + dialect.metricsPath() + ": " + error, timeoutHit,
                    startedNanos);
        }
    }

    private void finishFailed(String pool, Endpoint endpoint, String error, boolean timeoutHit, long startedNanos) {
        try {
            listener.scraped(pool, endpoint, timeoutHit ? Result.TIMED_OUT : Result.FAILED,
                    Math.max(0, clock.nanoTime() - startedNanos));
            failed.increment();
            if (timeoutHit) {
                timedOut.increment();
            }
            if (stillInSomePool(endpoint)) {
                cache.recordFailure(endpoint, error);
                // the pod may be restarting, perhaps with another cache: read its capacity again once it answers
                capacities.computeIfPresent(endpoint, (e, c) -> c.geometry() == null ? c : null);
            }
        } finally {
            scraping.remove(endpoint);
        }
    }

    /** Drops cached state of endpoints that left every pool; cheap unless the pools or their members changed. */
    private void forgetDepartedIfPoolsChanged(ModelPools current) {
        Membership m = membership(current);
        if (m != membershipRetained) {
            membershipRetained = m;
            cache.retainOnly(m.all());
            http.retainOnly(m.all());
            roundTrips.keySet().retainAll(m.all());
            capacities.keySet().retainAll(m.all());
        }
    }

    /** Whether a scraped endpoint is still in a pool; if not, its answer is dropped and its connection closed. */
    private boolean stillInSomePool(Endpoint endpoint) {
        ModelPools current = pools.get();
        if (current != null && membership(current).all().contains(endpoint)) {
            return true;
        }
        http.forget(endpoint);
        roundTrips.remove(endpoint);
        capacities.remove(endpoint);
        return false;
    }

    /**
     * The endpoints of every pool, as a set: rebuilt only when the pools or a pool's members changed, which identity
     * tells, since both are replaced whole (ModelPool#updateEndpoints). Asked once per answer, so that checking
     * membership costs a lookup rather than a scan of the pool (512 pods: 512 answers a tick).
     */
    private Membership membership(ModelPools current) {
        Membership m = membership;
        if (m == null || !m.isOf(current)) {
            m = Membership.of(current);
            membership = m;
        }
        return m;
    }

    private record Membership(ModelPools pools, List<List<Endpoint>> members, Set<Endpoint> all) {

        static Membership of(ModelPools pools) {
            List<List<Endpoint>> members = new ArrayList<>();
            Set<Endpoint> all = new HashSet<>();
            for (ModelPool pool : pools.pools()) {
                members.add(pool.endpoints());
                all.addAll(pool.endpoints());
            }
            return new Membership(pools, members, all);
        }

        boolean isOf(ModelPools current) {
            if (current != pools) {
                return false;
            }
            List<ModelPool> now = current.pools();
            for (int i = 0; i < now.size(); i++) {
                if (now.get(i).endpoints() != members.get(i)) {
                    return false;
                }
            }
            return true;
        }
    }

    private static String describe(Throwable error) {
        String message = error.getMessage();
        return error.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : " " + message);
    }
}
