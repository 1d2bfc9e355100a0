package io.inferencegateway.metrics;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Another Inference Gateway, read through its capacity summary ({@code GET /capacity}, docs/global.md): to a global
 * tier a cluster gateway is one very large model server. Its summary covers every model of the cluster. A global
 * tier reads it whole, once per poll for all its pools, and each pool takes its own model's reading from it
 * ({@link EndpointMetrics#forModel}); the readings' totals stand for the cluster as a whole. A pool of pods whose
 * endpoints are gateways ({@code engineType: inference-gateway}) asks for its own model only
 * ({@link EngineDialect#forModel}: {@code /capacity?model=<name>}) and reads only that model's rows whatever the
 * answer holds.
 *
 * <ul>
 *   <li>waiting: the pods' queues plus the cluster gateway's own flow-control queue, two places a request waits;</li>
 *   <li>running: the pods' running batches; KV use: 1 − the mean KV headroom of the ready pods;</li>
 *   <li>running adapters: the model's adapters that some ready pod holds, so that LoRA affinity prefers the cluster
 *       where an adapter is warm;</li>
 *   <li>the rest ({@link ClusterCapacity}): ready pods, the gateway's queue, recent and predicted latency, error
 *       ratio, saturation, the adapters served, and the format's version.</li>
 * </ul>
 *
 * A summary whose info series names a major version this build does not know is refused (a failed scrape, logged
 * once per version); one without the info series is refused too. A cluster that answers but does not serve the model
 * reads as 0 ready pods.
 */
final class InferenceGatewayDialect {

    static final String NAME = "inference-gateway";
    static final String PATH = "/capacity";
    /** The whole summary, every model's rows: a global tier's one poll of a cluster for all its pools. */
    static final EngineDialect INSTANCE = new EngineDialect.Of(NAME, PATH, () -> new SummaryReading(null),
            InferenceGatewayDialect::forModel);

    private static final Logger LOG = LoggerFactory.getLogger(InferenceGatewayDialect.class);
    /** Unknown versions already logged; bounded, so that a cluster sending a new one per poll cannot grow it. */
    private static final Set<String> REFUSED_LOGGED = ConcurrentHashMap.newKeySet();
    private static final int REFUSED_LOGGED_MAX = 16;

    private static final int INFO = 0;
    private static final int PODS = 1;
    private static final int READY_PODS = 2;
    private static final int KV_HEADROOM = 3;
    private static final int QUEUED = 4;
    private static final int GATEWAY_QUEUED = 5;
    private static final int RUNNING = 6;
    private static final int TTFT = 7;
    private static final int TPOT = 8;
    private static final int PREDICTED_TTFT = 9;
    private static final int PREDICTED_TPOT = 10;
    private static final int ERROR_RATIO = 11;
    private static final int SATURATION = 12;
    private static final int RECENT_REQUESTS = 13;
    private static final int ADAPTER_LOADED_PODS = 14;
    private static final MetricNameTable NAMES = new MetricNameTable(
            CapacitySeries.INFO,
            CapacitySeries.PODS,
            CapacitySeries.READY_PODS,
            CapacitySeries.KV_HEADROOM,
            CapacitySeries.QUEUED,
            CapacitySeries.GATEWAY_QUEUED,
            CapacitySeries.RUNNING,
            CapacitySeries.TTFT,
            CapacitySeries.TPOT,
            CapacitySeries.PREDICTED_TTFT,
            CapacitySeries.PREDICTED_TPOT,
            CapacitySeries.ERROR_RATIO,
            CapacitySeries.SATURATION,
            CapacitySeries.RECENT_REQUESTS,
            CapacitySeries.ADAPTER_LOADED_PODS);

    private InferenceGatewayDialect() {
    }

    /** The dialect of a pool of {@code model}: asks for that model's rows and reads only those. */
    static EngineDialect forModel(String model) {
        String path = PATH + "?" + CapacitySeries.MODEL_PARAMETER + "="
                + URLEncoder.encode(model, StandardCharsets.UTF_8);
        return new EngineDialect.Of(NAME, path, () -> new SummaryReading(model));
    }

    private static final class SummaryReading extends EngineReading {
        private final String model; // null: every base model the summary answers (a global tier's one poll)
        private boolean versionSeen;
        private String version;
        private String cluster;
        private String region;
        private final Map<String, SummaryRow> rows = new LinkedHashMap<>();

        /** One base model's rows: its values by series, its adapters and those warm somewhere. */
        private static final class SummaryRow {
            final double[] values = new double[ADAPTER_LOADED_PODS + 1];
            final Set<String> adapters = new LinkedHashSet<>();
            final Set<String> loadedAdapters = new LinkedHashSet<>();
            boolean seen;
            ClusterCapacity capacity; // its figures, once read whole

            SummaryRow() {
                Arrays.fill(values, Double.NaN);
            }
        }

        SummaryReading(String model) {
            super(NAMES);
            this.model = model;
        }

        @Override
        public void sample(int id, Labels labels, double value) {
            if (id == INFO) {
                info(labels);
                return;
            }
            String rowModel = labels.get(CapacitySeries.MODEL);
            if (rowModel == null) {
                return;
            }
            String base = labels.get(CapacitySeries.BASE_MODEL);
            SummaryRow row = row(base != null ? base : rowModel);
            if (row == null) {
                return;
            }
            if (base != null) {
                row.adapters.add(rowModel);
                if (id == ADAPTER_LOADED_PODS && value > 0) {
                    row.loadedAdapters.add(rowModel);
                }
                return;
            }
            row.seen = true;
            row.values[id] = value;
        }

        /** The rows of base model {@code base}, or null when this reading is after another model's. */
        private SummaryRow row(String base) {
            return model != null && !model.equals(base) ? null : rows.computeIfAbsent(base, b -> new SummaryRow());
        }

        private void info(Labels labels) {
            String v = labels.get("version");
            if (version == null || v != null && !CapacitySeries.MAJOR.equals(CapacitySeries.major(v))) {
                version = v; // of two info series, one this gateway cannot read decides
            }
            versionSeen = true;
            cluster = labels.get("cluster");
            region = labels.get("region");
        }

        @Override
        protected void finish() {
            if (!versionSeen && rows.isEmpty()) {
                return; // nothing of a summary at all: everything stays unknown (the scraper fails it)
            }
            if (!versionSeen || version == null) {
                throw refused("has no " + CapacitySeries.INFO + "{version} series", "none");
            }
            if (!CapacitySeries.MAJOR.equals(CapacitySeries.major(version))) {
                throw refused("is version " + version + ", and this gateway reads version " + CapacitySeries.MAJOR,
                        version);
            }
            rows.forEach((base, row) -> { // a whole summary's totals: each base model a rank of its own
                waiting.record(base + "/pods", row.values[QUEUED]);
                waiting.record(base + "/gateway", row.values[GATEWAY_QUEUED]);
                running.record(base, row.values[RUNNING]);
                double headroom = row.values[KV_HEADROOM];
                if (Double.isFinite(headroom)) {
                    kvUsage.record(base, 1 - Math.min(1, Math.max(0, headroom)));
                }
            });
        }

        @Override
        protected ClusterCapacity cluster() {
            if (!versionSeen) {
                return null;
            }
            if (model != null) {
                return capacity(rows.get(model));
            }
            int ready = 0;
            int pods = 0;
            int queued = 0;
            long recent = 0;
            Set<String> adapters = new LinkedHashSet<>();
            for (SummaryRow row : rows.values()) {
                ClusterCapacity c = capacity(row);
                ready += Math.max(0, c.readyPods());
                pods += Math.max(0, c.pods());
                queued += Math.max(0, c.gatewayQueued());
                recent += Math.max(0, c.recentRequests());
                adapters.addAll(row.adapters);
            }
            return new ClusterCapacity(version, cluster, region, ready, pods, queued, Double.NaN, Double.NaN,
                    Double.NaN, Double.NaN, Double.NaN, Double.NaN, recent, adapters, Double.NaN);
        }

        /** One base model's figures, built once; a model the cluster does not serve (no row) has 0 pods. */
        private ClusterCapacity capacity(SummaryRow row) {
            if (row == null) {
                return figures(null);
            }
            if (row.capacity == null) {
                row.capacity = figures(row);
            }
            return row.capacity;
        }

        private ClusterCapacity figures(SummaryRow row) {
            boolean served = row != null && row.seen;
            double[] v = row == null ? new SummaryRow().values : row.values;
            return new ClusterCapacity(version, cluster, region, served ? count(v[READY_PODS]) : 0,
                    served ? count(v[PODS]) : 0, count(v[GATEWAY_QUEUED]), millis(v[TTFT]), millis(v[TPOT]),
                    millis(v[PREDICTED_TTFT]), millis(v[PREDICTED_TPOT]), fraction(v[ERROR_RATIO]),
                    fraction(v[SATURATION]),
                    Double.isFinite(v[RECENT_REQUESTS]) ? Math.max(0, Math.round(v[RECENT_REQUESTS])) : -1,
                    row == null ? Set.of() : row.adapters, Double.NaN);
        }

        @Override
        protected Set<String> loadedAdapters() {
            Set<String> loaded = new LinkedHashSet<>();
            rows.values().forEach(r -> loaded.addAll(r.loadedAdapters));
            return loaded;
        }

        /** A whole summary's reading carries each model's own, stamped as the whole is. */
        @Override
        protected EndpointMetrics complete(EndpointMetrics all) {
            if (model != null || all.cluster() == null) {
                return all;
            }
            Map<String, EndpointMetrics> byModel = new HashMap<>();
            rows.forEach((base, row) -> {
                double[] v = row.values;
                double headroom = v[KV_HEADROOM];
                int queued = count(v[QUEUED]);
                int gatewayQueued = count(v[GATEWAY_QUEUED]);
                byModel.put(base, new EndpointMetrics(queued < 0 && gatewayQueued < 0 ? -1
                        : Math.max(0, queued) + Math.max(0, gatewayQueued), count(v[RUNNING]),
                        Double.isFinite(headroom) ? 1 - Math.min(1, Math.max(0, headroom)) : Double.NaN,
                        row.loadedAdapters, Set.of(), -1, -1, -1, Double.NaN, Double.NaN, all.scrapeStartedNanos(),
                        all.dispatchedAtScrape(), capacity(row)));
            });
            return all.withCluster(all.cluster().withModels(byModel));
        }

        private IllegalStateException refused(String why, String v) {
            String message = "the capacity summary " + why;
            if (REFUSED_LOGGED.size() < REFUSED_LOGGED_MAX && REFUSED_LOGGED.add(v)) {
                LOG.warn("{}: a cluster's summary is not read (its scrapes fail) until one of the two gateways is "
                        + "upgraded", message);
            }
            return new IllegalStateException(message);
        }

        private static int count(double value) {
            return Double.isFinite(value) && value >= 0 ? (int) Math.min(Integer.MAX_VALUE, Math.round(value)) : -1;
        }

        private static double millis(double seconds) {
            return Double.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : Double.NaN;
        }

        private static double fraction(double value) {
            return Double.isFinite(value) ? Math.min(1, Math.max(0, value)) : Double.NaN;
        }
    }
}
