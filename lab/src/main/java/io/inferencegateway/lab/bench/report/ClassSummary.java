package io.inferencegateway.lab.bench.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.inferencegateway.lab.bench.load.LongList;
import io.inferencegateway.lab.bench.load.RequestResult;

/**
 * One priority class of a run: how its requests fared. A refusal (429) is counted apart from errors, by
 * its {@code x-gateway-dropped-reason} ({@code none} when the header was missing).
 *
 * @param ttft              TTFT of the class's successful requests
 * @param refusedByReason   refusals per dropped reason, sorted by reason
 * @param refusedWithRetryAfter refusals that carried a {@code Retry-After} header
 */
public record ClassSummary(String priority, int requests, int ok, int refused, int errors, LatencySummary ttft,
                           Map<String, Integer> refusedByReason, int refusedWithRetryAfter) {

    public ClassSummary {
        refusedByReason = Collections.unmodifiableMap(new TreeMap<>(refusedByReason));
    }

    /** The gateway's named classes, most important first (docs/configuration.md, "Flow control"). */
    static final List<String> NAMED = List.of("critical", "standard", "sheddable");

    /**
     * Per class, the named ones first from critical down, then any others in the order first seen; empty when
     * no request carried a priority.
     */
    public static List<ClassSummary> of(List<RequestResult> results) {
        Map<String, List<RequestResult>> byClass = new LinkedHashMap<>();
        for (String name : NAMED) {
            byClass.put(name, new ArrayList<>());
        }
        for (RequestResult r : results) {
            if (!r.priority().isEmpty()) {
                byClass.computeIfAbsent(r.priority(), k -> new ArrayList<>()).add(r);
            }
        }
        byClass.values().removeIf(List::isEmpty);
        List<ClassSummary> out = new ArrayList<>();
        for (Map.Entry<String, List<RequestResult>> e : byClass.entrySet()) {
            int ok = 0;
            int refused = 0;
            int withRetryAfter = 0;
            Map<String, Integer> reasons = new TreeMap<>();
            LongList ttft = new LongList();
            for (RequestResult r : e.getValue()) {
                if (r.ok()) {
                    ok++;
                    ttft.add(r.ttftNanos());
                } else if (r.refused()) {
                    refused++;
                    reasons.merge(r.droppedReason().isEmpty() ? "none" : r.droppedReason(), 1, Integer::sum);
                    if (!r.retryAfter().isEmpty()) {
                        withRetryAfter++;
                    }
                }
            }
            int requests = e.getValue().size();
            out.add(new ClassSummary(e.getKey(), requests, ok, refused, requests - ok - refused,
                    LatencySummary.of(Distribution.of(ttft.toArray())), reasons, withRetryAfter));
        }
        return out;
    }
}
