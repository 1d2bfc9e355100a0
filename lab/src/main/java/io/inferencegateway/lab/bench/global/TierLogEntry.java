package io.inferencegateway.lab.bench.global;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import io.inferencegateway.lab.bench.report.AccessLogEntry;

/**
 * One line of a global tier's access log as the {@code global} scenario reads it: which cluster served the request,
 * after how many picks, and what it cost. Lines that are not access-log lines (the gateway's own log shares the
 * file) are skipped; missing fields read as empty, 0 or NaN.
 *
 * @param time      arrival at the tier (wall clock)
 * @param requestId the client's {@code X-Request-Id} ({@code bench-<index>})
 * @param target    the cluster or provider that answered last; empty when none was picked
 * @param attempts  picks the request took (more than one after a failover)
 * @param status    HTTP status; 0 when absent
 * @param cost      what its tokens cost at the target's price; NaN when the tier could not tell
 * @param tokens    input plus output tokens the target reported; 0 when absent
 */
public record TierLogEntry(Instant time, String requestId, String target, int attempts, int status, double cost,
                           long tokens) {

    /** The access-log lines of {@code file}, in order; an absent file reads as none. */
    public static List<TierLogEntry> read(Path file) throws IOException {
        return AccessLogEntry.read(List.of(file), TierLogEntry::parse);
    }

    public static Optional<TierLogEntry> parse(String line) {
        return AccessLogEntry.line(line).map(l -> {
            JsonNode node = l.node();
            return new TierLogEntry(l.time(), text(node, "request_id"), text(node, "target"),
                    node.path("attempts").isNumber() ? node.get("attempts").asInt() : 1, node.path("status").asInt(0),
                    AccessLogEntry.number(node, "cost", Double.NaN),
                    node.path("input_tokens").asLong(0) + node.path("output_tokens").asLong(0));
        });
    }

    /** The index of the bench request this line is about, or -1 when its id is not the bench's. */
    public int benchIndex() {
        if (!requestId.startsWith("bench-")) {
            return -1;
        }
        try {
            return Integer.parseInt(requestId.substring("bench-".length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * Whether the tier still tried {@code lost} for it: its last pick was there, it failed over (from there, after the
     * loss), or it failed without any target named. A failure at another target is that target's, not the loss's.
     */
    boolean touched(String lost) {
        return lost.equals(target) || attempts > 1 || target.isEmpty() && (status == 0 || status >= 500);
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v != null && v.isTextual() ? v.asText() : "";
    }
}
