package io.inferencegateway.observability;

import java.time.Instant;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.core.io.JsonStringEncoder;

import io.inferencegateway.domain.LatencyTargets;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.RequestListener;
import io.inferencegateway.domain.RequestRecord;
import io.inferencegateway.domain.SloOutcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code spec.observability.accessLog}: one JSON line per inference request on the {@value #LOGGER} logger, written
 * when the request ends. The logging backend decides where it goes; the jar's logback.xml sends it to stdout through
 * a non-blocking queue (a full queue drops lines rather than stall an event loop).
 */
public final class AccessLog implements RequestListener {

    static final String LOGGER = "io.inferencegateway.access";

    private static final Logger LOG = LoggerFactory.getLogger(LOGGER);

    @Override
    public void ended(RequestRecord r) {
        if (LOG.isInfoEnabled()) {
            LOG.info(line(r));
        }
    }

    static String line(RequestRecord r) {
        StringBuilder sb = new StringBuilder(384).append('{');
        string(sb, "time", Instant.ofEpochMilli(r.startEpochMillis()).toString());
        string(sb, "request_id", r.clientRequestId());
        string(sb, "path", r.path());
        string(sb, "tenant", r.tenant());
        string(sb, "model", r.request() == null ? null : r.request().model());
        sb.append(",\"stream\":").append(r.stream());
        string(sb, "pool", r.pool());
        PickDecision d = r.decision();
        string(sb, "pod", d == null ? null : d.endpoint().toString());
        string(sb, "pick_reason", d == null ? null : d.reason().label());
        number(sb, "attempts", r.attempts());
        number(sb, "priority", r.priority());
        sb.append(",\"queue_ms\":").append(Math.round(r.queueNanos() / 1_000.0) / 1000.0);
        number(sb, "status", r.status());
        string(sb, "ending", r.ending().name().toLowerCase(java.util.Locale.ROOT));
        string(sb, "error", RequestMeters.errorCode(r));
        millis(sb, "ttft_ms", r.stream() ? r.firstTokenNanos() : r.endNanos(), r.startNanos());
        millis(sb, "duration_ms", r.endNanos(), r.startNanos());
        tokens(sb, "input_tokens", r.inputTokens());
        tokens(sb, "output_tokens", r.outputTokens());
        tokens(sb, "cached_tokens", r.cachedTokens());
        if (d != null) {
            number(sb, "expected_cached_tokens", d.expectedCachedTokens());
        }
        LatencyTargets targets = r.targets();
        optional(sb, "slo_ttft_ms", targets.ttftMillis() > 0, targets.ttftMillis());
        optional(sb, "slo_tpot_ms", targets.tpotMillis() > 0, targets.tpotMillis());
        boolean predicted = d != null && d.prediction() != null && d.prediction().predicted();
        optional(sb, "predicted_ttft_ms", predicted, predicted ? Math.round(d.prediction().ttftMillis()) : 0);
        optional(sb, "predicted_tpot_ms", predicted, predicted ? Math.round(d.prediction().tpotMillis()) : 0);
        SloOutcome slo = r.slo();
        sb.append(",\"slo_met\":").append(slo == null ? "null" : Boolean.toString(slo.met()));
        if (r.target() != null) { // a global tier's line: which cluster or provider served it, and what it cost
            string(sb, "target", r.target());
            string(sb, "target_region", r.targetRegion());
            double cost = r.cost();
            sb.append(",\"cost\":").append(Double.isNaN(cost) ? "null" : Double.toString(cost));
        }
        return sb.append('}').toString();
    }

    private static void string(StringBuilder sb, String name, String value) {
        if (sb.length() > 1) {
            sb.append(',');
        }
        sb.append('"').append(name).append("\":");
        if (value == null) {
            sb.append("null");
        } else {
            sb.append('"');
            JsonStringEncoder.getInstance().quoteAsString(value, sb);
            sb.append('"');
        }
    }

    private static void number(StringBuilder sb, String name, long value) {
        sb.append(",\"").append(name).append("\":").append(value);
    }

    private static void tokens(StringBuilder sb, String name, int value) {
        optional(sb, name, value >= 0, value);
    }

    /** {@code value}, or null when it is not {@code known}. */
    private static void optional(StringBuilder sb, String name, boolean known, long value) {
        sb.append(",\"").append(name).append("\":");
        if (known) {
            sb.append(value);
        } else {
            sb.append("null");
        }
    }

    private static void millis(StringBuilder sb, String name, long endNanos, long startNanos) {
        sb.append(",\"").append(name).append("\":");
        if (endNanos <= 0) {
            sb.append("null");
        } else {
            sb.append(Math.round((endNanos - startNanos) / (double) TimeUnit.MILLISECONDS.toNanos(1) * 1000) / 1000.0);
        }
    }
}
