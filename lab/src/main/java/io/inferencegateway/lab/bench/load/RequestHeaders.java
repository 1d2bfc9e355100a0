package io.inferencegateway.lab.bench.load;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import io.inferencegateway.lab.bench.workload.RequestSpec;
import io.inferencegateway.lab.bench.workload.SloClass;

/**
 * The headers that tell the gateway what a request is worth to its client: its priority class and its latency
 * targets (docs/configuration.md). Targets are planned in simulated time but the gateway measures wall time, so
 * they go out divided by the time scale, as whole milliseconds of at least 1 (the headers take positive integers).
 */
final class RequestHeaders {

    /** The priority class: critical, standard or sheddable (docs/configuration.md, "Flow control"). */
    static final String PRIORITY = "x-gateway-priority";
    /** Time-to-first-token target, wall milliseconds. */
    static final String SLO_TTFT = "x-slo-ttft-ms";
    /** Time-per-output-token target, wall milliseconds. */
    static final String SLO_TPOT = "x-slo-tpot-ms";

    private RequestHeaders() {
    }

    /** The headers {@code spec} asks for, in a fixed order; none for a request without priority or targets. */
    static Map<String, String> of(RequestSpec spec, double timeScale) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (!spec.priority().isEmpty()) {
            headers.put(PRIORITY, spec.priority());
        }
        SloClass slo = spec.slo();
        if (slo.hasTtftTarget()) {
            headers.put(SLO_TTFT, Long.toString(wallMillis(slo.ttft(), timeScale)));
        }
        if (slo.hasTpotTarget()) {
            headers.put(SLO_TPOT, Long.toString(wallMillis(slo.tpot(), timeScale)));
        }
        return headers;
    }

    /** Nearest whole wall millisecond, at least 1. */
    static long wallMillis(Duration simulated, double timeScale) {
        return Math.max(1, Math.round(simulated.toNanos() / timeScale / 1e6));
    }
}
