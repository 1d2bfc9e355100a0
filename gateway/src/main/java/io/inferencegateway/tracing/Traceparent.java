package io.inferencegateway.tracing;

import java.util.List;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;

/** The W3C {@code traceparent} header (https://www.w3.org/TR/trace-context/): read from the client, written upstream. */
final class Traceparent {

    static final String HEADER = "traceparent";

    private Traceparent() {
    }

    /** The context a client's {@code traceparent} names as the parent; the root context when absent or malformed. */
    static Context parentContext(String clientTraceparent) {
        if (clientTraceparent == null) {
            return Context.root();
        }
        return W3CTraceContextPropagator.getInstance().extract(Context.root(), clientTraceparent, ONE_HEADER);
    }

    /** {@code 00-<trace id>-<span id>-<flags>} of a span. */
    static String of(SpanContext span) {
        return "00-" + span.getTraceId() + "-" + span.getSpanId() + "-" + span.getTraceFlags().asHex();
    }

    /** Reads the one header value the carrier is. */
    private static final TextMapGetter<String> ONE_HEADER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(String carrier) {
            return List.of(HEADER);
        }

        @Override
        public String get(String carrier, String key) {
            return HEADER.equals(key) ? carrier.strip() : null;
        }
    };
}
