package io.inferencegateway.tracing;

import static io.inferencegateway.tracing.SpanAttributes.COST;
import static io.inferencegateway.tracing.SpanAttributes.ENDING;
import static io.inferencegateway.tracing.SpanAttributes.ERROR_TYPE;
import static io.inferencegateway.tracing.SpanAttributes.GEN_AI_OPERATION_NAME;
import static io.inferencegateway.tracing.SpanAttributes.GEN_AI_REQUEST_MODEL;
import static io.inferencegateway.tracing.SpanAttributes.GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS;
import static io.inferencegateway.tracing.SpanAttributes.GEN_AI_USAGE_INPUT_TOKENS;
import static io.inferencegateway.tracing.SpanAttributes.GEN_AI_USAGE_OUTPUT_TOKENS;
import static io.inferencegateway.tracing.SpanAttributes.HTTP_REQUEST_HEADER_X_REQUEST_ID;
import static io.inferencegateway.tracing.SpanAttributes.HTTP_REQUEST_METHOD;
import static io.inferencegateway.tracing.SpanAttributes.HTTP_RESPONSE_STATUS_CODE;
import static io.inferencegateway.tracing.SpanAttributes.HTTP_ROUTE;
import static io.inferencegateway.tracing.SpanAttributes.PICK_ATTEMPT;
import static io.inferencegateway.tracing.SpanAttributes.PICK_CANDIDATES;
import static io.inferencegateway.tracing.SpanAttributes.PICK_EXPECTED_CACHED_TOKENS;
import static io.inferencegateway.tracing.SpanAttributes.PICK_PREDICTED_TPOT_MS;
import static io.inferencegateway.tracing.SpanAttributes.PICK_PREDICTED_TTFT_MS;
import static io.inferencegateway.tracing.SpanAttributes.PICK_REASON;
import static io.inferencegateway.tracing.SpanAttributes.POD;
import static io.inferencegateway.tracing.SpanAttributes.POOL;
import static io.inferencegateway.tracing.SpanAttributes.SERVER_ADDRESS;
import static io.inferencegateway.tracing.SpanAttributes.SERVER_PORT;
import static io.inferencegateway.tracing.SpanAttributes.SLO_OUTCOME;
import static io.inferencegateway.tracing.SpanAttributes.SLO_TPOT_MS;
import static io.inferencegateway.tracing.SpanAttributes.SLO_TTFT_MS;
import static io.inferencegateway.tracing.SpanAttributes.STREAM;
import static io.inferencegateway.tracing.SpanAttributes.TARGET;
import static io.inferencegateway.tracing.SpanAttributes.TARGET_REGION;
import static io.inferencegateway.tracing.SpanAttributes.URL_PATH;
import static java.util.concurrent.TimeUnit.NANOSECONDS;

import java.util.List;
import java.util.Locale;

import io.inferencegateway.domain.ParsedBody;
import io.inferencegateway.domain.LatencyPrediction;
import io.inferencegateway.domain.LatencyTargets;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.RequestRecord;
import io.inferencegateway.domain.SloOutcome;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;

/**
 * The spans of one request while it runs: the root server span, and the upstream span of the current attempt. Kept
 * on the record under the tracer's own key ({@link RequestRecord#get}); touched only on the request's event loop,
 * like the record.
 */
final class TracedRequest {

    private static final String FIRST_TOKEN_EVENT = "first_token";

    private final Tracer tracer;
    private final Span root;
    private final Context rootContext;
    private final String method;
    private final String operation;
    private boolean parseRecorded;
    private Span upstream;
    private long pickNanosSeen;

    private TracedRequest(Tracer tracer, Span root, String method, String operation) {
        this.tracer = tracer;
        this.root = root;
        this.rootContext = Context.root().with(root);
        this.method = method;
        this.operation = operation;
    }

    /** Starts the root span at the record's arrival. */
    static TracedRequest begin(Tracer tracer, RequestRecord record) {
        String method = record.method();
        Span root = tracer.spanBuilder(method + " " + record.path())
                .setParent(Traceparent.parentContext(record.clientTraceparent()))
                .setSpanKind(SpanKind.SERVER)
                .setStartTimestamp(epochNanos(record, record.startNanos()), NANOSECONDS)
                .setAttribute(HTTP_REQUEST_METHOD, method)
                .setAttribute(HTTP_ROUTE, record.path())
                .setAttribute(URL_PATH, record.path())
                .startSpan();
        if (record.clientRequestId() != null) {
            root.setAttribute(HTTP_REQUEST_HEADER_X_REQUEST_ID, List.of(record.clientRequestId()));
        }
        return new TracedRequest(tracer, root, method, record.operation());
    }

    /**
     * Records {@code parse}, once, when the body has been read (at the first pick, or at the end): arrival to
     * {@link RequestRecord#parsedNanos()}, or to {@code nowNanos} in error when the body could not be read.
     */
    private void parsed(RequestRecord record, long nowNanos) {
        if (parseRecorded) {
            return;
        }
        parseRecorded = true;
        Span parse = child("parse", record, record.startNanos()).startSpan();
        ParsedBody request = record.request();
        if (request != null) {
            parse.setAttribute(GEN_AI_REQUEST_MODEL, request.model());
            root.setAttribute(GEN_AI_REQUEST_MODEL, request.model());
            root.setAttribute(STREAM, request.stream());
        } else {
            parse.setStatus(StatusCode.ERROR, "the body could not be read");
        }
        parse.end(epochNanos(record, record.parsedNanos() != 0 ? record.parsedNanos() : nowNanos), NANOSECONDS);
    }

    /**
     * The scheduler chose an endpoint and the request is about to go to it: records {@code pick} (ending now), ends
     * the previous attempt's upstream span (a failover), starts the new one and hands its {@code traceparent} to the
     * record for the model server.
     */
    void picked(RequestRecord record, long nowNanos) {
        parsed(record, nowNanos);
        long took = Math.max(0, record.pickNanos() - pickNanosSeen);
        pickNanosSeen = record.pickNanos();
        if (upstream != null) {
            upstream.setStatus(StatusCode.ERROR, "the model server could not be reached; failed over");
            upstream.setAttribute(ERROR_TYPE, "failover");
            upstream.end(epochNanos(record, nowNanos), NANOSECONDS);
        }
        PickDecision d = record.decision();
        Span pick = child("pick", record, nowNanos - took)
                .setAttribute(POOL, record.pool())
                .setAttribute(PICK_ATTEMPT, record.attempts())
                .startSpan();
        if (d != null) {
            pick.setAttribute(POD, d.endpoint().toString());
            pick.setAttribute(PICK_REASON, d.reason().label());
            pick.setAttribute(PICK_CANDIDATES, d.candidates());
            pick.setAttribute(PICK_EXPECTED_CACHED_TOKENS, d.expectedCachedTokens());
            LatencyPrediction p = d.prediction();
            if (p != null && p.predicted()) {
                pick.setAttribute(PICK_PREDICTED_TTFT_MS, p.ttftMillis());
                pick.setAttribute(PICK_PREDICTED_TPOT_MS, p.tpotMillis());
            }
        }
        targets(pick, record.targets());
        pick.end(epochNanos(record, nowNanos), NANOSECONDS);

        String model = record.request() == null ? null : record.request().model();
        SpanBuilder b = child(operation == null ? method : model == null ? operation : operation + " " + model,
                record, nowNanos)
                .setSpanKind(SpanKind.CLIENT)
                .setAttribute(HTTP_REQUEST_METHOD, method)
                .setAttribute(PICK_ATTEMPT, record.attempts());
        if (operation != null) {
            b.setAttribute(GEN_AI_OPERATION_NAME, operation);
        }
        if (model != null) {
            b.setAttribute(GEN_AI_REQUEST_MODEL, model);
        }
        if (d != null) {
            b.setAttribute(SERVER_ADDRESS, d.endpoint().host());
            b.setAttribute(SERVER_PORT, d.endpoint().port());
        }
        upstream = b.startSpan();
        record.upstreamTraceparent(Traceparent.of(upstream.getSpanContext()));
    }

    /** Ends the upstream span (if one was started) and the root span at the record's end. */
    void ended(RequestRecord record) {
        parsed(record, record.endNanos());
        long end = epochNanos(record, record.endNanos());
        int status = record.status();
        boolean upstreamFailed = record.ending() == RequestRecord.Ending.UPSTREAM_FAILED;
        String errorType = record.error() == null ? null : record.error().name().toLowerCase(Locale.ROOT);

        if (upstream != null) {
            if (record.headersNanos() != 0) {
                upstream.setAttribute(HTTP_RESPONSE_STATUS_CODE, status);
            }
            if (record.firstTokenNanos() != 0) {
                upstream.addEvent(FIRST_TOKEN_EVENT, epochNanos(record, record.firstTokenNanos()), NANOSECONDS);
            }
            usage(upstream, record);
            boolean answered = record.headersNanos() != 0;
            if (upstreamFailed || status >= 400 || !answered && record.ending() != RequestRecord.Ending.CLIENT_GONE) {
                upstream.setStatus(StatusCode.ERROR);
                upstream.setAttribute(ERROR_TYPE, errorType != null ? errorType
                        : status >= 400 ? Integer.toString(status) : "no_response");
            }
            upstream.end(end, NANOSECONDS);
        }

        if (operation != null) {
            root.setAttribute(GEN_AI_OPERATION_NAME, operation);
        }
        if (record.pool() != null) {
            root.setAttribute(POOL, record.pool());
        }
        if (record.target() != null) {
            root.setAttribute(TARGET, record.target());
            root.setAttribute(TARGET_REGION, record.targetRegion());
            if (!Double.isNaN(record.cost())) {
                root.setAttribute(COST, record.cost());
            }
        }
        PickDecision d = record.decision();
        if (d != null) {
            root.setAttribute(POD, d.endpoint().toString());
            root.setAttribute(PICK_REASON, d.reason().label());
        }
        if (status != 0) {
            root.setAttribute(HTTP_RESPONSE_STATUS_CODE, status);
        }
        usage(root, record);
        targets(root, record.targets());
        SloOutcome slo = record.slo();
        if (slo != null) {
            root.setAttribute(SLO_OUTCOME, slo.label());
        }
        if (record.ending() != null) {
            root.setAttribute(ENDING, record.ending().name().toLowerCase(Locale.ROOT));
        }
        // a server span is an error for a 5xx or a broken response, not for the client's own 4xx
        if (status >= 500 || upstreamFailed) {
            root.setStatus(StatusCode.ERROR);
            root.setAttribute(ERROR_TYPE, errorType != null ? errorType : Integer.toString(status));
        } else if (errorType != null) {
            root.setAttribute(ERROR_TYPE, errorType);
        }
        root.end(end, NANOSECONDS);
    }

    private SpanBuilder child(String name, RequestRecord record, long startNanos) {
        return tracer.spanBuilder(name).setParent(rootContext)
                .setStartTimestamp(epochNanos(record, startNanos), NANOSECONDS);
    }

    /** The request's latency targets, each one it has. */
    private static void targets(Span span, LatencyTargets targets) {
        if (targets.ttftMillis() > 0) {
            span.setAttribute(SLO_TTFT_MS, targets.ttftMillis());
        }
        if (targets.tpotMillis() > 0) {
            span.setAttribute(SLO_TPOT_MS, targets.tpotMillis());
        }
    }

    private static void usage(Span span, RequestRecord record) {
        if (record.inputTokens() >= 0) {
            span.setAttribute(GEN_AI_USAGE_INPUT_TOKENS, record.inputTokens());
        }
        if (record.outputTokens() >= 0) {
            span.setAttribute(GEN_AI_USAGE_OUTPUT_TOKENS, record.outputTokens());
        }
        if (record.cachedTokens() >= 0) {
            span.setAttribute(GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS, record.cachedTokens());
        }
    }

    /** A reading of the record's clock as nanoseconds since the epoch, anchored at the record's arrival. */
    static long epochNanos(RequestRecord record, long nanos) {
        return record.startEpochMillis() * 1_000_000L + (nanos - record.startNanos());
    }
}
