package io.inferencegateway.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPInputStream;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;

/**
 * An OpenTelemetry collector stand-in on a loopback port: accepts OTLP/HTTP protobuf on {@code POST /v1/traces} and
 * {@code POST /v1/metrics}, as the OpenTelemetry Collector's otlp receiver does, and keeps every span and every
 * metric it was sent, decoded, and the headers of the last metrics export.
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

    /** A metric as received, with the {@code service.name} of its resource. */
    public record ReceivedMetric(String serviceName, Metric metric) {
        public String name() {
            return metric.getName();
        }
    }

    private final HttpServer server;
    private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();
    private final List<ReceivedMetric> metrics = new CopyOnWriteArrayList<>();
    private final List<String> contentTypes = new CopyOnWriteArrayList<>();
    private volatile Headers lastMetricsHeaders;

    public OtlpCollector() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/traces", this::export);
        server.createContext("/v1/metrics", this::exportMetrics);
        server.start();
    }

    /** Every metric of every export, in the order received (a metric comes again with each push). */
    public List<ReceivedMetric> metrics() {
        return metrics;
    }

    /** A request header of the last metrics export, or null. */
    public String metricsHeader(String name) {
        Headers h = lastMetricsHeaders;
        return h == null ? null : h.getFirst(name);
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
        handle(exchange, body -> {
            contentTypes.add(exchange.getRequestHeaders().getFirst("Content-Type"));
            List<ReceivedSpan> received = new ArrayList<>();
            for (ResourceSpans rs : ExportTraceServiceRequest.parseFrom(body).getResourceSpansList()) {
                String service = serviceName(rs.getResource());
                for (ScopeSpans ss : rs.getScopeSpansList()) {
                    ss.getSpansList().forEach(s -> received.add(new ReceivedSpan(service, s)));
                }
            }
            spans.addAll(received);
            return ExportTraceServiceResponse.getDefaultInstance().toByteArray();
        });
    }

    private void exportMetrics(HttpExchange exchange) throws IOException {
        handle(exchange, body -> {
            lastMetricsHeaders = exchange.getRequestHeaders();
            List<ReceivedMetric> received = new ArrayList<>();
            for (ResourceMetrics rm : ExportMetricsServiceRequest.parseFrom(body).getResourceMetricsList()) {
                String service = serviceName(rm.getResource());
                for (ScopeMetrics sm : rm.getScopeMetricsList()) {
                    sm.getMetricsList().forEach(m -> received.add(new ReceivedMetric(service, m)));
                }
            }
            metrics.addAll(received);
            return ExportMetricsServiceResponse.getDefaultInstance().toByteArray();
        });
    }

    /** Decodes an export request's body (protobuf, maybe gzipped) into the response it gets. */
    @FunctionalInterface
    private interface Export {
        byte[] received(byte[] body) throws IOException;
    }

    /** A POST's body, unzipped, to {@code export}; its answer back as protobuf. Other methods get 405. */
    private static void handle(HttpExchange exchange, Export export) throws IOException {
        try (exchange) {
            if (!exchange.getRequestMethod().equals("POST")) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            InputStream in = exchange.getRequestBody();
            if ("gzip".equals(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
                in = new GZIPInputStream(in);
            }
            byte[] ok = export.received(in.readAllBytes());
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, ok.length == 0 ? -1 : ok.length);
            exchange.getResponseBody().write(ok);
        }
    }

    private static String serviceName(Resource resource) {
        return resource.getAttributesList().stream().filter(kv -> kv.getKey().equals("service.name"))
                .map(kv -> kv.getValue().getStringValue()).findFirst().orElse(null);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
