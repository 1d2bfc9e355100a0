package io.inferencegateway.scheduling;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InFlightRequests.Counters;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.metrics.ClusterCapacity;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.LoadEstimator;
import io.inferencegateway.scheduling.framework.SchedulingCycle;

/** Shared test data: endpoints, scrapes, requests and states, written so that a scenario reads in one line. */
public final class Scenarios {

    public static final String MODEL = "llama-3.1-8b";

    private Scenarios() {
    }

    public static Endpoint pod(int i) {
        return new Endpoint("10.0.0." + i, 8000);
    }

    /** A cluster's capacity summary with the figures the global tier's plugins read; the rest left unknown. */
    public static io.inferencegateway.metrics.ClusterCapacity summary(int readyPods, double errorRatio,
            double ttftMillis, double tpotMillis, double predictedTtftMillis, double predictedTpotMillis,
            double saturation, double roundTripMillis) {
        return new io.inferencegateway.metrics.ClusterCapacity("1", "", "", readyPods, readyPods, 0, ttftMillis,
                tpotMillis, predictedTtftMillis, predictedTpotMillis, errorRatio, saturation, 100,
                java.util.Set.of(), roundTripMillis);
    }

    public static Scrape scrape() {
        return new Scrape();
    }

    public static EndpointMetrics scrape(int waiting, int running, double kv) {
        return scrape().waiting(waiting).running(running).kv(kv).build();
    }

    public static InferenceRequest base(String prompt) {
        return InferenceRequest.builder(MODEL).promptText(prompt)
                .promptTokensEstimate(InferenceRequest.estimateTokens(prompt)).build();
    }

    public static InferenceRequest adapter(String adapter) {
        return InferenceRequest.builder(adapter).adapter(adapter).build();
    }

    public static SchedulingCycle cycle(InferenceRequest request) {
        return new SchedulingCycle().begin(request, 0);
    }

    /** A cycle whose snapshot is {@code scrapes} (pods 1, 2, ...), fresh, with nothing sent since. */
    public static SchedulingCycle cycle(InferenceRequest request, EndpointMetrics... scrapes) {
        SchedulingCycle cycle = cycle(request);
        LoadEstimator estimator = new LoadEstimator(Long.MAX_VALUE);
        for (int i = 0; i < scrapes.length; i++) {
            EndpointMetrics m = scrapes[i];
            estimator.estimate(cycle.addState(), pod(i + 1), m, m == null ? Counters.ZERO : m.dispatchedAtScrape(),
                    m == null ? 0 : m.scrapeStartedNanos());
        }
        return cycle;
    }

    /** States of fresh scrapes with nothing sent since: exactly what was scraped. */
    public static List<EndpointState> states(EndpointMetrics... scrapes) {
        LoadEstimator estimator = new LoadEstimator(Long.MAX_VALUE);
        List<EndpointState> out = new ArrayList<>();
        for (int i = 0; i < scrapes.length; i++) {
            EndpointState s = new EndpointState();
            EndpointMetrics m = scrapes[i];
            estimator.estimate(s, pod(i + 1), m, m == null ? Counters.ZERO : m.dispatchedAtScrape(),
                    m == null ? 0 : m.scrapeStartedNanos());
            out.add(s);
        }
        return out;
    }

    /** A prompt of {@code blocks} full 64-character blocks; block {@code i} reads "{tag}{i}" padded. */
    public static String prompt(String tag, int blocks) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < blocks; i++) {
            String b = tag + "-block-" + i + "-";
            sb.append(b).append(".".repeat(64 - b.length()));
        }
        return sb.toString();
    }

    /** Fluent {@link EndpointMetrics}: an idle vLLM pod scraped at time 0 unless told otherwise. */
    public static final class Scrape {
        private int waiting;
        private int running;
        private double kv;
        private Set<String> runningAdapters = Set.of();
        private Set<String> waitingAdapters = Set.of();
        private int maxLora = -1;
        private int blockSize = -1;
        private long totalBlocks = -1;
        private long at;
        private Counters dispatched = Counters.ZERO;
        private ClusterCapacity cluster;

        public Scrape waiting(int v) {
            waiting = v;
            return this;
        }

        public Scrape running(int v) {
            running = v;
            return this;
        }

        public Scrape kv(double v) {
            kv = v;
            return this;
        }

        public Scrape lora(Set<String> running, Set<String> waiting, int max) {
            runningAdapters = running;
            waitingAdapters = waiting;
            maxLora = max;
            return this;
        }

        public Scrape kvGeometry(int blockSize, long totalBlocks) {
            this.blockSize = blockSize;
            this.totalBlocks = totalBlocks;
            return this;
        }

        public Scrape at(long nanos) {
            at = nanos;
            return this;
        }

        public Scrape dispatched(Counters c) {
            dispatched = c;
            return this;
        }

        /** A cluster's capacity summary, as a global tier polls it. */
        public Scrape cluster(ClusterCapacity c) {
            cluster = c;
            return this;
        }

        public EndpointMetrics build() {
            return new EndpointMetrics(waiting, running, kv, runningAdapters, waitingAdapters, maxLora, blockSize,
                    totalBlocks, Double.NaN, Double.NaN, at, dispatched, cluster);
        }
    }
}
