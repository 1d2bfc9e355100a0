package io.inferencegateway.lab.soak;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.inferencegateway.lab.soak.CallOutcome.Kind;

/**
 * The gateways' own counters against the clients' tally, per replica. A replica's counters live as long as its
 * process, so each is compared with the requests sent to its last incarnation (the warm-up's requests, counted before
 * the load, are subtracted from a first incarnation). Requests: the total, and for every error code at least the
 * error responses the client read with it (a stream the client hung up on, or that was cut, is counted by the gateway
 * under a status the client cannot see, which the total still holds; error counts are by error code). Tokens: prompt plus completion tokens of the
 * requests whose {@code usage} the client saw. Then the in-flight gauges and queues must come back to 0.
 */
final class CounterCheck {

    static final String ENDED = "inference_objective_request_duration_seconds_count";
    static final String ERRORS = "inference_objective_request_error_total";

    private final GatewayMetrics[] before;

    private CounterCheck(GatewayMetrics[] before) {
        this.before = before;
    }

    static CounterCheck before(SoakReplicas replicas) throws IOException, InterruptedException {
        GatewayMetrics[] m = new GatewayMetrics[replicas.size()];
        for (int i = 0; i < m.length; i++) {
            m[i] = GatewayMetrics.read(replicas.baseUrl(i));
        }
        return new CounterCheck(m);
    }

    void verify(InvariantTable table, SoakReplicas replicas, Collection<CallOutcome> outcomes, java.nio.file.Path dir) throws IOException, InterruptedException {
        for (int i = 0; i < replicas.size(); i++) {
            awaitIdle(table, replicas, i);
            GatewayMetrics now = GatewayMetrics.read(replicas.baseUrl(i));
            java.nio.file.Files.writeString(dir.resolve("metrics-" + i + ".txt"), now.text());
            int inc = replicas.incarnation(i);
            GatewayMetrics base = inc == 0 ? before[i] : GatewayMetrics.parse("");
            int replica = i;
            List<CallOutcome> mine = outcomes.stream()
                    .filter(o -> o.replica() == replica && o.incarnation() == inc).toList();
            // requests ended: the duration histogram's count, which has no pod label (the per-pod counter's series
            // leave with their pod, so pod churn makes it no total)
            long gatewayTotal = Math.round(sum(now, base, ENDED));
            long clientTotal = mine.stream().filter(o -> o.kind() != Kind.NO_RESPONSE).count();
            Map<String, Double> gwErrors = new TreeMap<>(now.byLabel(ERRORS, "error_code"));
            base.byLabel(ERRORS, "error_code").forEach((c, v) -> gwErrors.merge(c, -v, Double::sum));
            // the client reads OpenAI's one code for a budget; the gateway's meter says which budget
            gwErrors.put("rate_limit_exceeded", gwErrors.getOrDefault("requests_rate_limited", 0.0)
                    + gwErrors.getOrDefault("tokens_rate_limited", 0.0));
            Map<String, Long> clientErrors = new TreeMap<>();
            mine.stream().filter(o -> o.kind() == Kind.ERROR_RESPONSE)
                    .forEach(o -> clientErrors.merge(String.valueOf(o.code()), 1L, Long::sum));
            String where = "replica " + i + " incarnation " + inc + ": gateway ended " + gatewayTotal + ", errors "
                    + gwErrors + "; client sent " + clientTotal + ", error responses " + clientErrors;
            table.check(Soak.REQUEST_COUNTS, gatewayTotal == clientTotal, where);
            clientErrors.forEach((code, n) -> table.check(Soak.REQUEST_COUNTS, gwErrors.getOrDefault(code, 0.0) >= n,
                    where + ": code " + code));
            double tokens = sum(now, base, "inference_objective_input_tokens_sum")
                    + sum(now, base, "inference_objective_output_tokens_sum");
            long clientTokens = mine.stream().filter(o -> o.kind() == Kind.COMPLETED && o.usageTokens() >= 0)
                    .mapToLong(CallOutcome::usageTokens).sum();
            table.check(Soak.TOKEN_COUNTS, Math.round(tokens) == clientTokens, "replica " + i + " incarnation " + inc
                    + ": gateway counted " + Math.round(tokens) + " tokens, clients saw " + clientTokens);
        }
    }

    private static double sum(GatewayMetrics now, GatewayMetrics base, String name) {
        return now.sum(name) - base.sum(name);
    }

    private static final List<String> GAUGES = List.of("inference_gateway_requests_in_flight",
            "inference_objective_running_requests", "inference_extension_flow_control_queue_size");

    /** The gauges must read 0 within 20 s of the last response (scrapes and the pool's bookkeeping settle). */
    private static void awaitIdle(InvariantTable table, SoakReplicas replicas, int i)
            throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + 20_000;
        GatewayMetrics m;
        while (true) {
            m = GatewayMetrics.read(replicas.baseUrl(i));
            GatewayMetrics read = m;
            if (GAUGES.stream().allMatch(g -> read.sum(g) == 0) || System.currentTimeMillis() > deadline) {
                break;
            }
            Thread.sleep(500);
        }
        for (String g : GAUGES) {
            table.check(Soak.BACK_TO_ZERO, m.sum(g) == 0, "replica " + i + ": " + g + " reads " + m.sum(g)
                    + " 20 s after the load ended");
        }
    }
}
