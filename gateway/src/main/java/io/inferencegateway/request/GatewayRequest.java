package io.inferencegateway.request;

import io.inferencegateway.config.TenantConfig;
import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.domain.ParsedBody;
import io.inferencegateway.domain.RequestListener;
import io.inferencegateway.domain.RequestRecord;
import io.inferencegateway.domain.Scheduling;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.pool.Placement;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.AsciiString;
import io.netty.util.ReferenceCountUtil;

/**
 * One request through the gateway, made once at the edge and filled in by the route's steps in the order they run:
 * what the client sent, the {@link IngressRoute} its path and method name, the caller's tenant, the parsed body, the
 * model it is served as and the pool that serves it, the {@link InferenceRequest} its classification built at
 * admission ({@link RequestClassification}), its {@link Placement} on a pod, the headers its response carries, and
 * the {@link RequestRecord} its listeners (meters, access log, tracer, fleet page, rate limiter) learn from.
 *
 * <p>It ends once, in {@link #end}, however it ended: relayed in full, refused before a pod, failed before the first
 * byte, broken mid-stream, client gone, timed out. The ending gives back the in-flight count on the pod (which lets
 * the pool's queue release a waiting request and the policy learn its last decision), and ends the record, which
 * tells every listener and settles the rate limiter's reservation. A response being relayed ends the request when its
 * body ends ({@link #relayEnded}); anything else ends it when its exchange does ({@link #exchangeEnded}).
 *
 * <p>Not thread-safe, and need not be: a request, its upstream call and its relayed body run on its client
 * connection's event loop, and a step that completes elsewhere (a queue's release, a Redis answer) resumes there.
 */
public final class GatewayRequest {

    private static final AsciiString REQUEST_ID = AsciiString.cached("x-request-id");
    private static final AsciiString TRACEPARENT = AsciiString.cached("traceparent");
    // names and values the gateway sets itself
    private static final DefaultHttpHeadersFactory HEADERS = DefaultHttpHeadersFactory.headersFactory()
            .withValidation(false);

    private final String method;
    private final String uri;
    private final String path;
    private final HttpHeaders headers;
    private ByteBuf body;
    private IngressRoute route;
    private TenantConfig tenant;
    private RequestRecord record;
    private RequestListener listener;
    private NanoClock clock;
    private ParsedBody parsed;
    private int[] promptTokens;
    private String rewrittenTo; // the model a rewrite chose, or null
    private ModelPool pool;
    private String adapter;
    private InferenceRequest classified;
    private String responseModel; // what the response's model must name instead of the pod's, or null
    private Scheduling scheduling; // begun by admission, until the pick takes it
    private Placement placement;
    private HttpHeaders responseHeaders;
    private boolean relaying;
    private boolean ended;

    /**
     * @param headers the client's headers, forwarded upstream end-to-end
     * @param body    the client's body, held (one reference) until the exchange ends
     */
    public GatewayRequest(String method, String uri, String path, HttpHeaders headers, ByteBuf body) {
        this.method = method;
        this.uri = uri;
        this.path = path;
        this.headers = headers;
        this.body = body;
    }

    // ---- what the client sent -------------------------------------------------------------------

    public String method() {
        return method;
    }

    /** The request target as the client sent it, query included. */
    public String uri() {
        return uri;
    }

    /** The path, without the query. */
    public String path() {
        return path;
    }

    public HttpHeaders headers() {
        return headers;
    }

    public ByteBuf body() {
        return body;
    }

    // ---- what the steps learn, in the order they run --------------------------------------------------

    /** The dispatch table's line for the request's path and method. */
    public void route(IngressRoute r) {
        this.route = r;
    }

    public IngressRoute route() {
        return route;
    }

    /** The authenticated caller's tenant (with {@code spec.auth} on). */
    public void tenant(TenantConfig t) {
        this.tenant = t;
    }

    /** The caller's tenant, or null while auth is off. */
    public TenantConfig tenant() {
        return tenant;
    }

    /**
     * Starts the request's record, before its body is read (so that refused requests are recorded too), and tells
     * {@code listener}; times are read from {@code clock}.
     */
    public void startRecord(RequestListener listener, NanoClock clock) {
        this.listener = listener;
        this.clock = clock;
        record = new RequestRecord(clock.nanoTime(), System.currentTimeMillis(), method, path,
                route == null ? null : route.operation(), headers.get(REQUEST_ID), headers.get(TRACEPARENT));
        if (tenant != null) {
            record.tenant(tenant.name());
        }
        listener.started(record);
    }

    /** The body was read: what it says, which the steps before admission read. */
    public void parsed(ParsedBody body) {
        this.parsed = body;
        record.parsed(body, clock.nanoTime());
    }

    /**
     * The pool's tokenizer counted the prompt: {@code tokens} (the ids the engine will see) replace the estimate, and
     * {@code historyTokens} of them end with the last assistant message.
     */
    public void tokenized(int[] tokens, int historyTokens) {
        this.promptTokens = tokens;
        this.parsed = parsed.tokenized(tokens.length, historyTokens);
        record.parsed(parsed, record.parsedNanos());
    }

    /** The prompt's token ids when the pool's tokenizer counted them, else null. */
    public int[] promptTokens() {
        return promptTokens;
    }

    /** What the body says: model, stream, prompt, budget, session keys. */
    public ParsedBody parsedBody() {
        return parsed;
    }

    /** The model the request is for: the body's, or the target its model rewrite chose. */
    public String model() {
        return rewrittenTo != null ? rewrittenTo : parsed.model();
    }

    /**
     * A model rewrite sent the request to another model (docs/rollouts.md): {@code renamedBody} names {@code target}
     * and replaces the client's body, which is let go; the record notes the rewrite and its choice; and the response's
     * {@code model} will name {@code responseModel} (the client's) unless that is null.
     */
    public void rewritten(String rewrite, String target, ByteBuf renamedBody, String asked) {
        ByteBuf previous = body;
        body = renamedBody;
        ReferenceCountUtil.safeRelease(previous);
        rewrittenTo = target;
        responseModel = asked;
        record.version(rewrite, target);
    }

    /** What the relayed response's {@code model} must name instead of what the model server wrote, or null. */
    public String responseModel() {
        return responseModel;
    }

    /** {@code pool} serves the request's model; {@code loraAdapter} is the LoRA adapter it names, or null. */
    public void servedBy(ModelPool servingPool, String loraAdapter) {
        this.pool = servingPool;
        this.adapter = loraAdapter;
        record.routedTo(servingPool.name(), servingPool.config().modelName());
    }

    /** The pool that serves the request's model, or null when none does. */
    public ModelPool pool() {
        return pool;
    }

    /** The LoRA adapter the request's model names in its pool, or null for the base model. */
    public String adapter() {
        return adapter;
    }

    /**
     * The request was classified at admission as {@code request}, built once for everything after: flow control, the
     * policy, the shadow copy, the record.
     *
     * @throws IllegalStateException when it was classified already
     */
    public void classified(InferenceRequest request) {
        if (classified != null) {
            throw new IllegalStateException("The request was classified already");
        }
        this.classified = request;
        record.classified(request);
    }

    /** The request as its classification built it, or null before. */
    public InferenceRequest inference() {
        return classified;
    }


    /** Flow control let the request go, after {@code waitedNanos} in the pool's queue. */
    public void admitted(long waitedNanos) {
        record.admitted(waitedNanos);
    }

    /**
     * Flow control let the request go at once, on {@code begun}: the scheduling its admission began, whose snapshot
     * the pick uses ({@link #takeScheduling}); ended with the request should the request never reach the pick.
     */
    public void admitted(Scheduling begun) {
        this.scheduling = begun;
        record.admitted(0);
    }

    /** The scheduling admission began, handed to the pick (which ends it); null when there is none (any more). */
    public Scheduling takeScheduling() {
        Scheduling s = scheduling;
        scheduling = null;
        return s;
    }

    /** The request was placed on a pod, chosen in {@code pickNanos}; it counts in flight there until it ends. */
    public void placed(Placement p, long pickNanos) {
        this.placement = p;
        picked(pickNanos);
    }

    /** The placement moved to another pod (failover), chosen in {@code pickNanos}. */
    public void failedOver(long pickNanos) {
        picked(pickNanos);
    }

    private void picked(long pickNanos) {
        record.picked(placement.decision(), pickNanos);
        listener.picked(record);
    }

    public Placement placement() {
        return placement;
    }

    /** The request's record, for what the relayed response tells it (first token, usage). */
    public RequestRecord record() {
        return record;
    }

    /** The model server's response headers arrived with {@code status}: the record, the listeners and learners hear. */
    public void answered(int status) {
        record.answered(status, clock.nanoTime());
        listener.responseHeaders(record);
        if (placement != null) {
            placement.lifecycle().responseHeaders(record);
        }
    }

    /** A chunk of {@code bytes} of the response's body is relayed to the client. */
    public void chunk(int bytes) {
        listener.chunk(record, bytes);
        if (placement != null) {
            placement.lifecycle().chunk(record, bytes);
        }
    }

    /**
     * The first generated content passed: the record notes it, and the listeners and the placing policy's learners
     * hear of it at once, not when the stream ends (the latency predictor sees a pod that slowed down sooner).
     */
    public void firstToken() {
        if (record.firstTokenNanos() != 0) {
            return;
        }
        record.firstToken(clock.nanoTime());
        listener.firstToken(record);
        if (placement != null) {
            placement.prefilled();
            placement.lifecycle().firstToken(record);
        }
    }

    /** A reading of the record's clock. */
    public long now() {
        return clock.nanoTime();
    }

    // ---- the response ----------------------------------------------------------------------------

    /** Adds a header to the response, whether the gateway writes it or relays a model server's. */
    public void responseHeader(CharSequence name, Object value) {
        if (responseHeaders == null) {
            responseHeaders = HEADERS.newHeaders();
        }
        responseHeaders.set(name, value);
    }

    /** The headers the steps added to the response, or null when none did. */
    public HttpHeaders responseHeaders() {
        return responseHeaders;
    }

    /** A model server's response is being relayed: the request ends when its body ends. */
    public void relaying() {
        relaying = true;
    }

    /**
     * The gateway answers with {@code error} (and {@code status}) instead of whatever it was relaying; the error's
     * headers join the response's.
     */
    public void failed(GatewayError error, int status) {
        relaying = false;
        error.headers().forEach(this::responseHeader);
        if (record != null) {
            record.failed(error.reason(), status);
        }
    }

    /** The relayed response's body ended {@code how}. */
    public void relayEnded(RequestRecord.Ending how) {
        if (relaying) {
            end(how);
        }
    }

    /**
     * The request's exchange ended: the client's body is let go, and a request without a relayed response ends here,
     * as refused (or as client gone when that was its error).
     */
    public void exchangeEnded() {
        try {
            if (!relaying) {
                end(record != null && record.error() == GatewayError.Reason.CLIENT_CLOSED
                        ? RequestRecord.Ending.CLIENT_GONE : RequestRecord.Ending.REFUSED);
            }
        } finally {
            ReferenceCountUtil.safeRelease(body);
        }
    }

    /**
     * The one ending: a scheduling never picked ended, the pod's in-flight count back (and the pool's queue told), then
     * the record ended, for the listeners and the placing policy's learners.
     */
    private void end(RequestRecord.Ending how) {
        if (ended) {
            return;
        }
        ended = true;
        try {
            Scheduling unpicked = takeScheduling();
            if (unpicked != null) {
                unpicked.close();
            }
            if (placement != null) {
                placement.finish();
            }
        } finally {
            if (record != null && record.end(how, clock.nanoTime())) {
                listener.ended(record);
                if (placement != null) {
                    placement.lifecycle().ended(record);
                }
            }
        }
    }

    /** Whether the request has ended. */
    public boolean ended() {
        return ended;
    }
}
