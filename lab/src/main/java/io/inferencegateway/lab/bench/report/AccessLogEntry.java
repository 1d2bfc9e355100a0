package io.inferencegateway.lab.bench.report;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.inferencegateway.lab.bench.load.WarmUp;

/**
 * One line of the gateway's access log ({@code spec.observability.accessLog}, see the gateway's {@code AccessLog})
 * as far as the predictor's accuracy needs it. The log shares the run's gateway.log with the gateway's own log lines:
 * an access-log line is a JSON object with a {@code ttft_ms} field, anything else is skipped. Every field may be
 * absent or null on a line (an older gateway writes no predictions); milliseconds are wall-clock, as the gateway
 * measures them.
 *
 * @param time            arrival at the gateway
 * @param pod             the endpoint that answered ({@code host:port}); empty when none was picked
 * @param status          HTTP status; 0 when absent
 * @param attempts        picks the request took (more than one after a failover); 1 when absent
 * @param queueMs         time in the gateway's flow-control queue before the pick; 0 when absent
 * @param ttftMs          arrival → first token for a stream; NaN when absent
 * @param predictedTtftMs the predictor's TTFT on the chosen pod at the pick; NaN when not predicted
 */
public record AccessLogEntry(Instant time, String pod, int status, boolean stream, int attempts, double queueMs,
                             double ttftMs, double predictedTtftMs) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The access-log lines of the files, in file order then line order; missing files count as empty. Bytes that are
     * not UTF-8 (a line a killed process left half-written) are replaced rather than fail the run's report.
     */
    public static List<AccessLogEntry> read(List<Path> files) throws IOException {
        return read(files, AccessLogEntry::parse);
    }

    /** A run directory's gateway logs, sorted: gateway.log, or gateway-0.log ... for replicas; none if absent. */
    public static List<Path> runLogs(Path runDir) throws IOException {
        if (!Files.isDirectory(runDir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(runDir)) {
            return files.filter(f -> f.getFileName().toString().matches("gateway(-\\d+)?\\.log")).sorted().toList();
        }
    }

    /** What {@code parse} makes of each access-log line of the files, as {@link #read(List)} reads them. */
    public static <T> List<T> read(List<Path> files, Function<String, Optional<T>> parse) throws IOException {
        List<T> entries = new ArrayList<>();
        for (Path file : files) {
            if (Files.isRegularFile(file)) {
                try (BufferedReader reader = new BufferedReader(new InputStreamReader(Files.newInputStream(file),
                        StandardCharsets.UTF_8))) {
                    reader.lines().forEach(line -> parse.apply(line).ifPresent(entries::add));
                }
            }
        }
        return entries;
    }

    /** An access-log line: its JSON and its arrival time. */
    public record Line(JsonNode node, Instant time) {
    }

    /**
     * The access-log line in {@code line}, or empty when it is none: a JSON object with {@code ttft_ms} and a readable
     * {@code time}, not of a {@link WarmUp} request.
     */
    public static Optional<Line> line(String line) {
        String text = line.strip();
        if (!text.startsWith("{")) {
            return Optional.empty();
        }
        JsonNode node;
        try {
            node = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
        if (node == null || !node.isObject() || !node.has("ttft_ms") || !node.path("time").isTextual()
                || node.path("request_id").asText("").startsWith(WarmUp.REQUEST_ID_PREFIX)) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Line(node, Instant.parse(node.get("time").asText())));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** The entry on this line, or empty when the line is not an access-log line (or has no readable time). */
    public static Optional<AccessLogEntry> parse(String text) {
        return line(text).map(l -> {
            JsonNode node = l.node();
            return new AccessLogEntry(l.time(), node.path("pod").isTextual() ? node.get("pod").asText() : "",
                    node.path("status").asInt(0), node.path("stream").asBoolean(false),
                    node.path("attempts").isNumber() ? node.get("attempts").asInt() : 1,
                    number(node, "queue_ms", 0), number(node, "ttft_ms", Double.NaN),
                    number(node, "predicted_ttft_ms", Double.NaN));
        });
    }

    /** A streamed 200 with both a measured and a predicted TTFT: what the predictor can be judged on. */
    public boolean comparable() {
        return stream && status == 200 && ttftMs > 0 && Double.isFinite(predictedTtftMs) && !pod.isEmpty();
    }

    /** A number field, or {@code missing}. */
    public static double number(JsonNode node, String field, double missing) {
        JsonNode value = node.get(field);
        return value != null && value.isNumber() ? value.asDouble() : missing;
    }
}
