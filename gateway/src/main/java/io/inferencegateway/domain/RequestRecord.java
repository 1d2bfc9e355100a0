package io.inferencegateway.domain;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the gateway learns about one inference request as it passes: when it arrived, which pool and pod served it
 * and why, when the model server answered and sent its first token, how it ended, and the tokens the model server
 * reported. Filled in along the request path and handed to the {@link RequestListener}s once, when it ends.
 *
 * <p>It holds what the request knows rather than copies of it: the body as parsed ({@link ParsedBody}) and the
 * {@link InferenceRequest} its classification built, whose priority and targets it answers with. What a listener keeps
 * for itself on a request (the rate limiter's reservation, the tracer's spans) it keeps under a typed {@link Key} of
 * its own ({@link #put}, {@link #get}).
 *
 * <p>Not thread-safe and need not be: a request, its upstream call and its relayed body all run on the event loop
 * of the client's connection. Times are {@link NanoClock} readings; token counts are -1 until reported.
 */
public final class RequestRecord {

    /**
     * The name and type of one value a listener keeps on a request's record, e.g. the rate limiter's reservation.
     * Made once, as a constant of its owner (each key made is a slot of its own on every record): whoever holds the
     * key reads and writes its slot, and no one else can.
     *
     * @param <T> the type of its value
     */
    public static final class Key<T> {
        private static final AtomicInteger KEYS = new AtomicInteger();

        private final String name;
        private final Class<T> type;
        private final int index;

        private Key(String name, Class<T> type) {
            this.name = name;
            this.type = type;
            this.index = KEYS.getAndIncrement();
        }

        /** A new key, for values of {@code type}; {@code name} says what it holds (for messages only). */
        public static <T> Key<T> of(String name, Class<T> type) {
            return new Key<>(name, type);
        }

        @Override
        public String toString() {
            return name + " (" + type.getSimpleName() + ")";
        }
    }

    /** How a request ended. */
    public enum Ending {
        /** The model server's response was relayed to its end. */
        COMPLETED,
        /** The model server's response broke off after it started. */
        UPSTREAM_FAILED,
        /** The client went away first. */
        CLIENT_GONE,
        /** The gateway answered with an error of its own (see {@link #error()}). */
        REFUSED
    }

    private final long startNanos;
    private final long startEpochMillis;
    private final String method;
    private final String path;
    private final String operation;
    private final String clientRequestId;
    private final String clientTraceparent;
    private ParsedBody body;
    private long parsedNanos;
    private String pool;
    private String poolModel;
    private InferenceRequest classified;
    private long queueNanos;
    private PickDecision decision;
    private long pickNanos;
    private int attempts;
    private String upstreamTraceparent;
    private int status;
    private long headersNanos;
    private long firstTokenNanos;
    private long endNanos;
    private int inputTokens = -1;
    private int outputTokens = -1;
    private int cachedTokens = -1;
    private GatewayError.Reason error;
    private Ending ending;
    private SloOutcome slo;
    private String tenant;
    private Object[] values; // by key, made when the first is put
    private String target;
    private String targetRegion;
    private boolean targetProvider;
    private Price targetPrice;
    private String rewrite;
    private String version;

    /**
     * @param operation         the OpenTelemetry GenAI operation name of the request's route ({@code chat}, ...), or
     *                          null
     * @param clientRequestId   the client's {@code x-request-id}, or null
     * @param clientTraceparent the client's W3C {@code traceparent}, or null
     */
    public RequestRecord(long startNanos, long startEpochMillis, String method, String path, String operation,
            String clientRequestId, String clientTraceparent) {
        this.startNanos = startNanos;
        this.startEpochMillis = startEpochMillis;
        this.method = method;
        this.path = path;
        this.operation = operation;
        this.clientRequestId = clientRequestId;
        this.clientTraceparent = clientTraceparent;
    }

    // ---- filled in along the way -----------------------------------------------------------------

    /** The body was read as {@code parsed}. */
    public void parsed(ParsedBody parsed, long nowNanos) {
        this.body = parsed;
        this.parsedNanos = nowNanos;
    }

    /**
     * The model the client asked for is the model rewrite {@code rewriteName}, which sent it to target model {@code
     * versionModel} (docs/rollouts.md).
     */
    public void version(String rewriteName, String versionModel) {
        this.rewrite = rewriteName;
        this.version = versionModel;
    }

    /** The model rewrite the request went through, or null. */
    public String rewrite() {
        return rewrite;
    }

    /** The target model its rewrite chose, or null. */
    public String versionModel() {
        return version;
    }

    /** The request's model resolved to a pool whose base model is {@code poolModel}. */
    public void routedTo(String poolName, String poolModel) {
        this.pool = poolName;
        this.poolModel = poolModel;
    }

    /**
     * The request was classified as {@code request}, before flow control admits or refuses it: a request it refuses
     * at once still counts against its targets (docs/observability.md, "Latency targets").
     */
    public void classified(InferenceRequest request) {
        this.classified = request;
    }

    /** Flow control let the request go, after {@code waitedNanos} in the pool's queue (0 when it did not wait). */
    public void admitted(long waitedNanos) {
        this.queueNanos = waitedNanos;
    }

    /** The scheduler chose an endpoint, in {@code nanos}; called again on every failover. */
    public void picked(PickDecision d, long nanos) {
        this.decision = d;
        this.pickNanos += nanos;
        this.attempts++;
    }

    /** The model server's response headers arrived. */
    public void answered(int httpStatus, long nowNanos) {
        this.status = httpStatus;
        this.headersNanos = nowNanos;
    }

    /** The first generated content passed (for a plain body: the whole body). Later calls are ignored. */
    public void firstToken(long nowNanos) {
        if (firstTokenNanos == 0) {
            firstTokenNanos = nowNanos;
        }
    }

    /** The model server reported its usage; a later report (a stream's final chunk) replaces an earlier one. */
    public void usage(int input, int output, int cached) {
        this.inputTokens = input;
        this.outputTokens = output;
        this.cachedTokens = cached;
    }

    /** The gateway refused or could not serve the request. */
    public void failed(GatewayError.Reason reason, int httpStatus) {
        this.error = reason;
        this.status = httpStatus;
    }

    /** Ends the record; returns false when it had ended already (so listeners hear of it once). */
    public boolean end(Ending how, long nowNanos) {
        if (ending != null) {
            return false;
        }
        ending = how;
        endNanos = nowNanos;
        slo = SloOutcome.of(this);
        return true;
    }

    /** The {@code traceparent} to send to the model server instead of the client's (set when tracing is on). */
    public void upstreamTraceparent(String value) {
        this.upstreamTraceparent = value;
    }

    /** The caller's tenant, once authenticated (a name, never a credential). */
    public void tenant(String name) {
        this.tenant = name;
    }

    /**
     * At a global tier: the cluster or provider it was sent to (again after a failover), its region and price
     * (docs/global.md).
     */
    public void servedBy(String name, String region, boolean provider, Price price) {
        this.target = name;
        this.targetRegion = region;
        this.targetProvider = provider;
        this.targetPrice = price;
    }

    /** Keeps {@code value} under {@code key} (null takes it away). */
    public <T> void put(Key<T> key, T value) {
        if (values == null) {
            if (value == null) {
                return;
            }
            values = new Object[Math.max(4, key.index + 1)];
        } else if (key.index >= values.length) {
            values = Arrays.copyOf(values, Math.max(key.index + 1, values.length * 2));
        }
        values[key.index] = key.type.cast(value);
    }

    /** What is kept under {@code key}, or null. */
    public <T> T get(Key<T> key) {
        Object[] v = values;
        return v == null || key.index >= v.length ? null : key.type.cast(v[key.index]);
    }

    // ---- read by listeners -----------------------------------------------------------------------

    public long startNanos() {
        return startNanos;
    }

    public long startEpochMillis() {
        return startEpochMillis;
    }

    /** The HTTP method, e.g. {@code POST}. */
    public String method() {
        return method;
    }

    /** The request path, e.g. {@code /v1/chat/completions}. */
    public String path() {
        return path;
    }

    /** The GenAI operation name of the request's route (its dispatch-table line), or null. */
    public String operation() {
        return operation;
    }

    public String clientRequestId() {
        return clientRequestId;
    }

    public String clientTraceparent() {
        return clientTraceparent;
    }

    /** What the body says (its model as the client named it), or null when the body could not be read. */
    public ParsedBody request() {
        return body;
    }

    /** The request as its classification built it, or null when it was refused before. */
    public InferenceRequest classified() {
        return classified;
    }

    /** When the body was parsed, or 0 when it could not be. */
    public long parsedNanos() {
        return parsedNanos;
    }

    /** The pool's name, or null when the model matched no pool. */
    public String pool() {
        return pool;
    }

    /** The base model of the pool, or null. */
    public String poolModel() {
        return poolModel;
    }

    /** The request's priority (see {@link Priority}); 0 when it was not classified. */
    public int priority() {
        return classified == null ? 0 : classified.priority();
    }

    /** The latency targets its classification found; {@link LatencyTargets#NONE} when it had none. */
    public LatencyTargets targets() {
        return classified == null ? LatencyTargets.NONE : classified.targets();
    }

    /** Time spent waiting in the pool's queue while every pod was saturated. */
    public long queueNanos() {
        return queueNanos;
    }

    /** The last scheduling decision (after a failover, the one that took over), or null. */
    public PickDecision decision() {
        return decision;
    }

    /** Time spent in the scheduler, over every attempt. */
    public long pickNanos() {
        return pickNanos;
    }

    /** Endpoints tried: 1 without failover, 0 when none was picked. */
    public int attempts() {
        return attempts;
    }

    public String upstreamTraceparent() {
        return upstreamTraceparent;
    }

    /** The HTTP status the client got (the model server's, or the gateway's own for an error); 0 if none. */
    public int status() {
        return status;
    }

    /** When the response headers arrived, or 0. */
    public long headersNanos() {
        return headersNanos;
    }

    /** When the first generated content passed, or 0. */
    public long firstTokenNanos() {
        return firstTokenNanos;
    }

    public long endNanos() {
        return endNanos;
    }

    public int inputTokens() {
        return inputTokens;
    }

    public int outputTokens() {
        return outputTokens;
    }

    public int cachedTokens() {
        return cachedTokens;
    }

    /** Why the gateway refused or failed the request, or null. */
    public GatewayError.Reason error() {
        return error;
    }

    /**
     * How the request fared against its latency targets, judged once when it ended (the counters, the access log, the
     * trace and the fleet page all read this); null without targets, before the end, or when not judged.
     */
    public SloOutcome slo() {
        return slo;
    }

    public Ending ending() {
        return ending;
    }

    /** The authenticated tenant, or null (auth off, or not authenticated). */
    public String tenant() {
        return tenant;
    }

    /** The global tier's target that served it, or null (a pod served it). */
    public String target() {
        return target;
    }

    public String targetRegion() {
        return targetRegion;
    }

    public boolean targetProvider() {
        return targetProvider;
    }

    /** What it cost at its target's price, from the usage the answer reported; NaN without a target or usage. */
    public double cost() {
        if (targetPrice == null || inputTokens < 0) {
            return Double.NaN;
        }
        return targetPrice.cost(inputTokens, Math.max(0, outputTokens));
    }

    public boolean stream() {
        return body != null && body.stream();
    }
}
