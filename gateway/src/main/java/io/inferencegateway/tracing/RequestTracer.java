package io.inferencegateway.tracing;

import java.net.URI;
import java.util.concurrent.TimeUnit;

import io.inferencegateway.config.ObservabilityConfig;
import io.inferencegateway.config.ObservabilityConfig.TracingConfig;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.domain.RequestListener;
import io.inferencegateway.domain.RequestRecord;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;

/**
 * Turns every inference request into OpenTelemetry spans (docs/observability.md, "Traces"): a server span for the
 * gateway request with children {@code parse}, {@code pick} (one per attempt) and the upstream call, which carries
 * the first token as an event. The client's {@code traceparent} is the parent, and the model server is sent one whose
 * parent is the upstream span.
 *
 * <p>Spans are started with the record's own clock readings, and the ones that need not exist before the upstream
 * call ({@code parse}, {@code pick}) are created after the fact. Ended spans go to a {@link BatchSpanProcessor}, whose
 * thread exports them; nothing here blocks the event loop. Built only when {@code spec.observability.tracing} names an
 * endpoint, so that the gateway holds no OpenTelemetry object otherwise.
 */
public final class RequestTracer implements RequestListener, AutoCloseable {

    static final String INSTRUMENTATION_SCOPE = "io.inferencegateway";
    private static final AttributeKey<String> SERVICE_NAME = AttributeKey.stringKey("service.name");
    /** Where a request's record keeps its trace. */
    private static final RequestRecord.Key<TracedRequest> TRACE = RequestRecord.Key.of("trace", TracedRequest.class);

    private final SdkTracerProvider provider;
    private final Tracer tracer;
    private final NanoClock clock;

    /**
     * @param processor     where ended spans go
     * @param serviceName   the spans' {@code service.name}
     * @param samplingRatio the share of new traces sampled; a client's sampling decision is followed
     * @param clock         the clock of the records' readings
     */
    RequestTracer(SpanProcessor processor, String serviceName, double samplingRatio, NanoClock clock) {
        this.provider = SdkTracerProvider.builder()
                .setResource(Resource.getDefault().merge(Resource.create(Attributes.of(SERVICE_NAME, serviceName))))
                .setSampler(Sampler.parentBased(Sampler.traceIdRatioBased(samplingRatio)))
                .addSpanProcessor(processor)
                .build();
        this.tracer = provider.get(INSTRUMENTATION_SCOPE);
        this.clock = clock;
    }

    /** A tracer that exports over OTLP/HTTP (protobuf) to {@code config.otlpEndpoint()}, in batches. */
    public static RequestTracer otlp(TracingConfig config, NanoClock clock) {
        OtlpHttpSpanExporter exporter = OtlpHttpSpanExporter.builder()
                .setEndpoint(tracesUrl(config.otlpEndpoint()))
                .build();
        return new RequestTracer(BatchSpanProcessor.builder(exporter).build(), config.serviceName(),
                config.samplingRatio(), clock);
    }

    /** The collector's {@code /v1/traces} under its base URL (kept when the URL names it already). */
    static String tracesUrl(URI base) {
        return ObservabilityConfig.signalUrl(base, "/v1/traces");
    }

    @Override
    public void started(RequestRecord record) {
        record.put(TRACE, TracedRequest.begin(tracer, record));
    }

    @Override
    public void picked(RequestRecord record) {
        traceOf(record).picked(record, clock.nanoTime());
    }

    @Override
    public void ended(RequestRecord record) {
        traceOf(record).ended(record);
    }

    /** The record's trace; begun here if {@link #started} was not called. */
    private TracedRequest traceOf(RequestRecord record) {
        TracedRequest trace = record.get(TRACE);
        if (trace == null) {
            trace = TracedRequest.begin(tracer, record);
            record.put(TRACE, trace);
        }
        return trace;
    }

    /** Exports what is still queued and stops the export thread; waits up to ten seconds. */
    @Override
    public void close() {
        provider.shutdown().join(10, TimeUnit.SECONDS);
    }
}
