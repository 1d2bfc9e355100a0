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
 * the load, are subtracted from a first incarnation). Requests: the total, and for every error status at least the
 * error responses the client read with it (a stream the client hung up on, or that was cut, is counted by the gateway
 * under a status the client cannot see, which the total still holds). Tokens: prompt plus completion tokens of the
 * requests whose {@code usage} the client saw. Then the in-flight gauges and queues must come back to 0.
 */
final class CounterCheck {

    static final String REQUESTS = "inference_objective_request_total";

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

    void verify(InvariantTable table, SoakReplicas replicas, Collection<CallOutcome> outcomes,
                List<FaultTimeline.Entry> timeline) throws IOException, InterruptedException {
        for (int i = 0; i < replicas.size(); i++) {
            awaitIdle(table, replicas, i);
            GatewayMetrics now = GatewayMetrics.read(replicas.baseUrl(i));
            int inc = replicas.incarnation(i);
            GatewayMetrics base = inc == 0 ? before[i] : GatewayMetrics.parse("");
            int replica = i;
            List<CallOutcome> mine = outcomes.stream()
                    .filter(o -> o.replica() == replica && o.incarnation() == inc).toList();
            Map<String, Double> gw = new TreeMap<>(now.byLabel(REQUESTS, "status"));
            base.byLabel(REQUESTS, "status").forEach((s, v) -> gw.merge(s, -v, Double::sum));
            Map<String, Long> client = new TreeMap<>();
            for (CallOutcome o : mine) {
                String status = o.kind() == Kind.ERROR_RESPONSE ? Integer.toString(o.status())
                        : o.kind() == Kind.COMPLETED ? "200" : o.kind() == Kind.NO_RESPONSE ? "none" : "cut";
                client.merge(status, 1L, Long::sum);
            }
            long gatewayTotal = Math.round(gw.values().stream().mapToDouble(Double::doubleValue).sum());
            long clientTotal = mine.stream().filter(o -> o.kind() != Kind.NO_RESPONSE).count();
            String where = "replica " + i + " incarnation " + inc + ": gateway " + gw + " vs client " + client;
            table.check(Soak.REQUEST_COUNTS, gatewayTotal == clientTotal, where + ": total " + gatewayTotal + " vs "
                    + clientTotal);
            client.forEach((status, n) -> {
                if (status.startsWith("4") || status.startsWith("5")) {
                    table.check(Soak.REQUEST_COUNTS, gw.getOrDefault(status, 0.0) >= n, where + ": status " + status);
                }
            });
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
