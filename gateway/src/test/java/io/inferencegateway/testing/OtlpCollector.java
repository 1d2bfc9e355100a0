package io.inferencegateway.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPInputStream;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;

/**
 * An OpenTelemetry collector stand-in on a loopback port: accepts OTLP/HTTP protobuf on {@code POST /v1/traces}, as
 * the OpenTelemetry Collector's otlp receiver does, and keeps every span it was sent, decoded.
 */
public final class OtlpCollector implements AutoCloseable {

    /** A span as received, with the {@code service.name} of its resource; ids in lowercase hex. */
    public record ReceivedSpan(String serviceName, Span span) {
        public String traceId() {
            return HexFormat.of().formatHex(span.getTraceId().toByteArray());
        }

        public String spanId() {
            return HexFormat.of().formatHex(span.getSpanId().toByteArray());
        }

        public String parentSpanId() {
            return HexFormat.of().formatHex(span.getParentSpanId().toByteArray());
        }

        public String name() {
            return span.getName();
        }

        /** An attribute's value as text (a string, a number, a boolean; an array as its first element), or null. */
        public String attribute(String key) {
            for (KeyValue kv : span.getAttributesList()) {
                if (kv.getKey().equals(key)) {
                    var v = kv.getValue();
                    return switch (v.getValueCase()) {
                        case STRING_VALUE -> v.getStringValue();
                        case INT_VALUE -> Long.toString(v.getIntValue());
                        case BOOL_VALUE -> Boolean.toString(v.getBoolValue());
                        case DOUBLE_VALUE -> Double.toString(v.getDoubleValue());
                        case ARRAY_VALUE -> v.getArrayValue().getValues(0).getStringValue();
                        default -> v.toString();
                    };
                }
            }
            return null;
        }
    }

    private final HttpServer server;
    private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();
    private final List<String> contentTypes = new CopyOnWriteArrayList<>();

    public OtlpCollector() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/traces", this::export);
        server.start();
    }

    /** The base URL to configure as {@code otlpEndpoint}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public List<ReceivedSpan> spans() {
        return spans;
    }

    /** The spans of one trace, in the order received. */
    public List<ReceivedSpan> trace(String traceId) {
        return spans.stream().filter(s -> s.traceId().equals(traceId)).toList();
    }

    /** The Content-Type of every export request. */
    public List<String> contentTypes() {
        return contentTypes;
    }

    private void export(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!exchange.getRequestMethod().equals("POST")) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            contentTypes.add(exchange.getRequestHeaders().getFirst("Content-Type"));
            InputStream in = exchange.getRequestBody();
            if ("gzip".equals(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
                in = new GZIPInputStream(in);
            }
            ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(in.readAllBytes());
            List<ReceivedSpan> received = new ArrayList<>();
            for (ResourceSpans rs : request.getResourceSpansList()) {
                String service = rs.getResource().getAttributesList().stream()
                        .filter(kv -> kv.getKey().equals("service.name")).map(kv -> kv.getValue().getStringValue())
                        .findFirst().orElse(null);
                for (ScopeSpans ss : rs.getScopeSpansList()) {
                    ss.getSpansList().forEach(s -> received.add(new ReceivedSpan(service, s)));
                }
            }
            spans.addAll(received);
            byte[] ok = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, ok.length == 0 ? -1 : ok.length);
            exchange.getResponseBody().write(ok);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
