package io.inferencegateway.metrics;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Another Inference Gateway, read through its capacity summary ({@code GET /capacity}, docs/global.md): to a global
 * tier a cluster gateway is one very large model server. Its summary covers every model of the cluster; a pool's
 * dialect ({@link EngineDialect#forModel}) asks for its own model only ({@code /capacity?model=<name>}, so that the
 * cluster builds and sends one model's rows) and reads only that model's rows whatever the answer holds, so that a
 * cluster that ignores the parameter is still read right.
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
    static final EngineDialect INSTANCE = new EngineDialect.Of(NAME, PATH, () -> new Reading(null),
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
        return new EngineDialect.Of(NAME, path, () -> new Reading(model));
    }

    private static final class Reading extends EngineReading {
        private final String model; // null: whichever one base model the summary answers
        private String answered; // the base model whose row was read
        private boolean versionSeen;
        private String version;
        private String cluster;
        private String region;
        private boolean rowSeen;
        private final double[] values = new double[ADAPTER_LOADED_PODS + 1];
        private final Set<String> adapters = new LinkedHashSet<>();
        private final Set<String> loadedAdapters = new LinkedHashSet<>();

        Reading(String model) {
            super(NAMES);
            this.model = model;
            Arrays.fill(values, Double.NaN);
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
            if (base != null) {
                if (ours(base)) {
                    adapters.add(rowModel);
                    if (id == ADAPTER_LOADED_PODS && value > 0) {
                        loadedAdapters.add(rowModel);
                    }
                }
                return;
            }
            if (!ours(rowModel)) {
                return;
            }
            rowSeen = true;
            values[id] = value;
        }

        /** Whether a base model's rows are the ones this reading is after. */
        private boolean ours(String base) {
            if (model != null) {
                return model.equals(base);
            }
            if (answered == null) {
                answered = base;
            } else if (!answered.equals(base)) {
                throw new IllegalStateException("the capacity summary answers more than one model (" + answered
                        + ", " + base + "); ask for one with ?" + CapacitySeries.MODEL_PARAMETER + "=");
            }
            return true;
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
            if (!versionSeen && !rowSeen && adapters.isEmpty()) {
                return; // nothing of a summary at all: everything stays unknown (the scraper fails it)
            }
            if (!versionSeen || version == null) {
                throw refused("has no " + CapacitySeries.INFO + "{version} series", "none");
            }
            if (!CapacitySeries.MAJOR.equals(CapacitySeries.major(version))) {
                throw refused("is version " + version + ", and this gateway reads version " + CapacitySeries.MAJOR,
                        version);
            }
            waiting.record("pods", values[QUEUED]);
            waiting.record("gateway", values[GATEWAY_QUEUED]);
            running.record("pods", values[RUNNING]);
            double headroom = values[KV_HEADROOM];
            if (Double.isFinite(headroom)) {
                kvUsage.record("pods", 1 - Math.min(1, Math.max(0, headroom)));
            }
        }

        @Override
        protected ClusterCapacity cluster() {
            if (!versionSeen) {
                return null;
            }
            // a model the cluster does not serve has no row: 0 pods, ready or not
            int ready = rowSeen ? count(values[READY_PODS]) : 0;
            int pods = rowSeen ? count(values[PODS]) : 0;
            return new ClusterCapacity(version, cluster, region, ready, pods, count(values[GATEWAY_QUEUED]),
                    millis(values[TTFT]), millis(values[TPOT]), millis(values[PREDICTED_TTFT]),
                    millis(values[PREDICTED_TPOT]), fraction(values[ERROR_RATIO]), fraction(values[SATURATION]),
                    Double.isFinite(values[RECENT_REQUESTS]) ? Math.max(0, Math.round(values[RECENT_REQUESTS])) : -1,
                    adapters, Double.NaN);
        }

        @Override
        protected Set<String> loadedAdapters() {
            return loadedAdapters;
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
