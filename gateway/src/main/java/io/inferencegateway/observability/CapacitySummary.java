package io.inferencegateway.observability;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

import io.inferencegateway.config.ClusterConfig;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.LatencyPrediction;
import io.inferencegateway.metrics.CapacitySeries;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.scheduling.PluginPolicy;

/**
 * The gateway's capacity summary ({@code GET /capacity}, docs/global.md): per model pool, and per LoRA adapter, what a
 * global tier needs to send a request to this cluster or another, as a Prometheus exposition in the format of
 * {@link CapacitySeries} (version {@value CapacitySeries#VERSION}).
 *
 * <p>Built when asked, from what the gateway already holds: the pods' last scrapes (ready as the pool gauges count
 * them, {@link LiveState#readyPods}), the pool's flow-control queue, the policy's saturation detector and latency
 * predictor, and the fleet view's last {@link FleetView#RECENT_SECONDS} of answers. Nothing is added to the request
 * path. Its size is bounded by the configured pools and adapters: 13 series a pool, 3 an adapter, whatever the
 * number of pods.
 */
public final class CapacitySummary {

    private final LiveState state;
    private final FleetView fleet;
    private final Supplier<ClusterConfig> cluster;

    /**
     * @param fleet   the fleet page's memory, for the recent answers
     * @param cluster this gateway's identity as a cluster, as configured now
     */
    public CapacitySummary(LiveState state, FleetView fleet, Supplier<ClusterConfig> cluster) {
        this.state = state;
        this.fleet = fleet;
        this.cluster = cluster;
    }

    /** One row: a base model's or an adapter's values, in the order of {@link #FAMILIES}; NaN where unknown. */
    private record CapacityRow(String model, String baseModel, double[] values) {
    }

    /** Each series: name, help, and which rows carry it. */
    private record Family(String name, String help, boolean base, boolean adapter) {
    }

    private static final List<Family> FAMILIES = List.of(
            new Family(CapacitySeries.PODS, "Pods of the model's pool, ready or not", true, true),
            new Family(CapacitySeries.READY_PODS, "Pods whose metrics are fresher than the pool's staleness limit",
                    true, true),
            new Family(CapacitySeries.KV_HEADROOM, "Mean over ready pods of 1 - KV-cache use (0..1)", true, false),
            new Family(CapacitySeries.QUEUED, "Requests queued in the ready pods' engines", true, false),
            new Family(CapacitySeries.GATEWAY_QUEUED, "Requests waiting in the gateway's flow-control queue", true,
                    false),
            new Family(CapacitySeries.RUNNING, "Requests in the ready pods' running batches", true, false),
            new Family(CapacitySeries.TTFT, "Median time to first token of the last " + FleetView.RECENT_SECONDS
                    + " s of answers", true, false),
            new Family(CapacitySeries.TPOT, "Median time per output token of the last " + FleetView.RECENT_SECONDS
                    + " s of streams", true, false),
            new Family(CapacitySeries.PREDICTED_TTFT, "Predicted time to first token of a typical request on the best "
                    + "pod; NaN while the predictor learns", true, false),
            new Family(CapacitySeries.PREDICTED_TPOT, "Predicted time per output token of a typical request on the best "
                    + "pod; NaN while the predictor learns", true, false),
            new Family(CapacitySeries.ERROR_RATIO, "Failed (5xx, broken upstream) over all requests of the last "
                    + FleetView.RECENT_SECONDS + " s", true, false),
            new Family(CapacitySeries.SATURATION, "Share of ready pods the saturation detector finds full (0..1)",
                    true, false),
            new Family(CapacitySeries.RECENT_REQUESTS, "Requests ended in the last " + FleetView.RECENT_SECONDS + " s",
                    true, false),
            new Family(CapacitySeries.ADAPTER_LOADED_PODS, "Ready pods that hold the adapter (running or queued)",
                    false, true));
    private static final int PODS = 0;
    private static final int READY = 1;
    private static final int KV_HEADROOM = 2;
    private static final int QUEUED = 3;
    private static final int GATEWAY_QUEUED = 4;
    private static final int RUNNING = 5;
    private static final int TTFT = 6;
    private static final int TPOT = 7;
    private static final int PREDICTED_TTFT = 8;
    private static final int PREDICTED_TPOT = 9;
    private static final int ERROR_RATIO = 10;
    private static final int SATURATION = 11;
    private static final int RECENT = 12;
    private static final int LOADED = 13;

    /**
     * The exposition now.
     *
     * @param model a base model, to answer only its pool's rows (and its adapters'); null for every pool
     */
    public String text(String model) {
        List<CapacityRow> rows = new ArrayList<>();
        for (ModelPool pool : state.pools().get().pools()) {
            if (model == null || pool.config().modelName().equals(model)) {
                rows(pool, rows);
            }
        }
        ClusterConfig c = cluster.get();
        StringBuilder out = new StringBuilder(256 + rows.size() * 700);
        out.append("# HELP ").append(CapacitySeries.INFO).append(" The capacity summary's format and this cluster\n")
                .append("# TYPE ").append(CapacitySeries.INFO).append(" gauge\n")
                .append(CapacitySeries.INFO).append("{version=\"").append(CapacitySeries.VERSION)
                .append("\",cluster=\"").append(escape(c.name())).append("\",region=\"").append(escape(c.region()))
                .append("\"} 1\n");
        for (int f = 0; f < FAMILIES.size(); f++) {
            Family family = FAMILIES.get(f);
            out.append("# HELP ").append(family.name()).append(' ').append(family.help()).append('\n')
                    .append("# TYPE ").append(family.name()).append(" gauge\n");
            for (CapacityRow row : rows) {
                boolean adapter = row.baseModel() != null;
                if (adapter ? !family.adapter() : !family.base()) {
                    continue;
                }
                out.append(family.name()).append("{").append(CapacitySeries.MODEL).append("=\"")
                        .append(escape(row.model())).append('"');
                if (adapter) {
                    out.append(',').append(CapacitySeries.BASE_MODEL).append("=\"").append(escape(row.baseModel()))
                            .append('"');
                }
                out.append("} ").append(number(row.values()[f])).append('\n');
            }
        }
        return out.toString();
    }

    /** The pool's row, then one per adapter. */
    private void rows(ModelPool pool, List<CapacityRow> rows) {
        List<EndpointMetrics> ready = state.readyPods(pool);
        List<Endpoint> candidates = pool.outliers().admitted(pool.endpoints());
        String model = pool.config().modelName();
        double[] v = new double[FAMILIES.size()];
        Arrays.fill(v, Double.NaN);
        v[PODS] = pool.endpoints().size();
        v[READY] = ready.size();
        double headroom = 0;
        int kvKnown = 0;
        for (EndpointMetrics m : ready) {
            if (!Double.isNaN(m.kvUsage())) {
                headroom += 1 - m.kvUsage();
                kvKnown++;
            }
            v[QUEUED] = add(v[QUEUED], m.waiting());
            v[RUNNING] = add(v[RUNNING], m.running());
        }
        v[KV_HEADROOM] = kvKnown == 0 ? Double.NaN : headroom / kvKnown;
        v[GATEWAY_QUEUED] = pool.flowControl().queued();
        FleetView.RecentRequests recent = fleet.recent(pool);
        v[TTFT] = recent.ttftMillis() / 1000;
        v[TPOT] = recent.tpotMillis() / 1000;
        v[ERROR_RATIO] = recent.errorRatio();
        v[RECENT] = recent.ended();
        if (pool.policy() instanceof PluginPolicy gpu && !candidates.isEmpty()) {
            LatencyPrediction typical = gpu.typicalPrediction(model, candidates);
            if (typical != null) {
                v[PREDICTED_TTFT] = typical.ttftMillis() / 1000;
                v[PREDICTED_TPOT] = typical.tpotMillis() / 1000;
            }
        }
        v[SATURATION] = pool.policy() instanceof PluginPolicy plugins ? plugins.saturatedFraction(candidates)
                : Double.NaN;
        rows.add(new CapacityRow(model, null, v));
        for (String adapter : pool.config().loraAdapters()) {
            double[] a = new double[FAMILIES.size()];
            Arrays.fill(a, Double.NaN);
            a[PODS] = v[PODS];
            a[READY] = v[READY];
            int loaded = 0;
            for (EndpointMetrics m : ready) {
                if (m.runningAdapters().contains(adapter) || m.waitingAdapters().contains(adapter)) {
                    loaded++;
                }
            }
            a[LOADED] = loaded;
            rows.add(new CapacityRow(adapter, model, a));
        }
    }

    /** A pod's count added to a sum; an unknown count (-1) adds nothing, a sum of nothing stays NaN. */
    private static double add(double sum, int count) {
        if (count < 0) {
            return sum;
        }
        return Double.isNaN(sum) ? count : sum + count;
    }

    private static String number(double value) {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return Double.toString(value);
    }

    /** A label value as the text format escapes it. */
    private static String escape(String value) {
        if (value.indexOf('\\') < 0 && value.indexOf('"') < 0 && value.indexOf('\n') < 0) {
            return value;
        }
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
