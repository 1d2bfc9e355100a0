package io.inferencegateway.scheduling.plugins;

import java.util.List;
import java.util.random.RandomGenerator;

import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.PickReason;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.Picker;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.SchedulingCycle;
import io.inferencegateway.scheduling.latency.LatencyPredictor;

/**
 * {@value #TYPE}: the endpoint where the request is predicted to finish its first token soonest, counting on each
 * candidate the prefill of the part of the prompt it does not cache, the queue and batch it joins, and the prompt
 * tokens this gateway sent there that it has not computed yet (the pool's latency predictor, from its prior costs
 * until it has learned). Cache reuse and queue wait are one cost in milliseconds, so a conversation stays on the pod
 * that holds it exactly while staying is faster.
 *
 * <ul>
 * <li>Every candidate predicted within {@code margin} (a share, default 0.2) of the fastest, or within the
 * predictor's recent first-token error where that is larger, counts as fast; among those the highest score total
 * wins (the scorers' affinity and load), the faster on a tie. So a session stays on its pod while that pod is merely
 * busy, and moves when another is predicted faster by more than the margin.</li>
 * <li>{@code missWeight} (0..10, default 1) counts what a miss costs the others: the candidate's prefill of the
 * uncached part, and the load of the request's adapter where it does not run, delay besides this request those that
 * will queue behind it there, about as many as wait there now; so (1 + its waiting requests) × {@code missWeight}
 * times that is added. Counting the request's own time alone (0), near capacity the picker moved prompts off their
 * cached pods so readily that the extra prefills tripled the queues of the shared-prefix bench; counting the prefill
 * once more without the queue behind it, they were still a third longer than the highest total's
 * (docs/benchmarks/conversations.md).</li>
 * <li>{@code decodeWeight} (0..1, default 0) adds that share of the predicted decode (output tokens × time per
 * token) to the time: 1 minimises the whole response, 0 the first token.</li>
 * <li>A request below critical priority with a first-token target, once the predictor is ready, is packed: onto the
 * candidate with the longest predicted time that still leaves half its target spare, so fast pods keep headroom for
 * tight targets; when none does, it is placed as above.</li>
 * <li>{@code temperature} above 0 (default 0) draws instead of taking the fast set's best: each candidate with weight
 * exp(−(time / fastest − 1) / temperature), for spread.</li>
 * </ul>
 *
 * When time overruled the scores' favourite the pick's reason says what made the chosen pod faster: its cache
 * ({@link PickReason#PREFIX_HIT}) or its load ({@link PickReason#LEAST_LOADED}); a packed pick is
 * {@link PickReason#LATENCY_TARGET}. Candidates without fresh metrics are taken only when no candidate has them.
 */
public final class PredictedTimePicker implements Picker {

    public static final String TYPE = "predicted-time-picker";
    public static final double DEFAULT_MARGIN = 0.2;
    public static final double DEFAULT_MISS_WEIGHT = 1;
    /** Takes {@code margin}, {@code missWeight}, {@code decodeWeight} and {@code temperature}. */
    public static final PluginType<Picker> PLUGIN = PluginType.picker(TYPE,
            p -> new PredictedTimePicker(p.pool().predictor(), p.number("margin", DEFAULT_MARGIN, 0, 10),
                    p.number("missWeight", DEFAULT_MISS_WEIGHT, 0, 10), p.number("decodeWeight", 0, 0, 1),
                    p.number("temperature", 0, 0, 10), p.random()));
    private static final double TIE = 1e-9;
    /** A packed request's predicted first token may take this share of its target, no more. */
    private static final double PACKED_SHARE = 0.5;

    private final LatencyPredictor predictor;
    private final double margin;
    private final double decodeWeight;
    private final double temperature;
    private final double missWeight;
    private final RandomGenerator random;

    public PredictedTimePicker(LatencyPredictor predictor, double margin, double missWeight, double decodeWeight,
            double temperature, RandomGenerator random) {
        this.predictor = predictor;
        this.margin = margin;
        this.missWeight = missWeight;
        this.decodeWeight = decodeWeight;
        this.temperature = temperature;
        this.random = random;
    }

    @Override
    public EndpointState pick(SchedulingCycle cycle, List<EndpointState> endpoints, double[] totals) {
        int n = endpoints.size();
        InferenceRequest request = cycle.request();
        double[] scratch = cycle.doubleScratch(LatencyPredictor.FEATURES + 2 * n);
        int at = LatencyPredictor.FEATURES; // times from here, then first-token times
        int outputTokens = predictor.outputTokens(request);
        double fastest = Double.POSITIVE_INFINITY;
        int favourite = 0;
        for (int i = 0; i < n; i++) {
            EndpointState s = endpoints.get(i);
            double time = Double.POSITIVE_INFINITY;
            double ttft = Double.NaN;
            if (s.fresh()) {
                int cached = Math.max(s.cachedTokens(), cycle.expectedCachedTokens(i));
                LatencyLearner.features(s, request, request.promptTokensEstimate() - cached, scratch);
                ttft = predictor.ttftEstimateMillis(s.endpoint(), scratch);
                time = decodeWeight == 0 ? ttft
                        : ttft + decodeWeight * outputTokens * predictor.tpotEstimateMillis(s.endpoint(), scratch);
                if (missWeight > 0) {
                    LatencyPredictor.warm(scratch);
                    double miss = ttft - predictor.ttftEstimateMillis(s.endpoint(), scratch);
                    time += missWeight * (1 + s.waiting()) * miss;
                }
            }
            scratch[at + i] = time;
            scratch[at + n + i] = ttft;
            fastest = Math.min(fastest, time);
            if (totals[i] > totals[favourite] + TIE) {
                favourite = i;
            }
        }
        if (fastest == Double.POSITIVE_INFINITY) {
            return endpoints.get(favourite); // nothing to predict by: the scores decide
        }
        int chosen = packed(cycle, request, scratch, at + n, n);
        if (chosen >= 0) {
            cycle.pickedBecause(PickReason.LATENCY_TARGET);
            return endpoints.get(chosen);
        }
        chosen = temperature > 0 ? drawn(scratch, at, n, fastest)
                : fastOne(scratch, at, n, fastest * (1 + margin()), totals);
        if (chosen != favourite) {
            boolean cache = cycle.expectedCachedTokens(chosen) > cycle.expectedCachedTokens(favourite)
                    || endpoints.get(chosen).cachedTokens() > endpoints.get(favourite).cachedTokens();
            cycle.pickedBecause(cache ? PickReason.PREFIX_HIT : PickReason.LEAST_LOADED);
        }
        return endpoints.get(chosen);
    }

    /**
     * The margin, or the predictor's recent error on the first token when that is larger: a pod predicted faster by
     * less than the predictor errs is not known to be faster, and the scores decide.
     */
    private double margin() {
        double error = predictor.ttftAccuracy().mape();
        return error > margin ? error : margin; // also when NaN: nothing measured yet
    }

    /** Among the candidates predicted within {@code bound}: the highest total, the faster on a tie. */
    private int fastOne(double[] scratch, int at, int n, double bound, double[] totals) {
        int best = -1;
        for (int i = 0; i < n; i++) {
            double time = scratch[at + i];
            if (time <= bound && (best < 0 || totals[i] > totals[best] + TIE
                    || totals[i] >= totals[best] - TIE && time < scratch[at + best])) {
                best = i;
            }
        }
        return best;
    }

    /** A draw with weight exp(−(time / fastest − 1) / temperature) per candidate. */
    private int drawn(double[] scratch, int at, int n, double fastest) {
        double sum = 0;
        for (int i = 0; i < n; i++) {
            double w = Math.exp(-(scratch[at + i] / fastest - 1) / temperature); // 0 for an unpredicted candidate
            scratch[at + i] = w;
            sum += w;
        }
        double r = random.nextDouble() * sum;
        int last = 0;
        for (int i = 0; i < n; i++) {
            if (scratch[at + i] > 0) {
                last = i;
                r -= scratch[at + i];
                if (r < 0) {
                    return i;
                }
            }
        }
        return last;
    }

    /**
     * For a request below critical priority with a first-token target and a ready predictor: the candidate with the
     * longest predicted first token within half the target; -1 when none or not such a request.
     */
    private int packed(SchedulingCycle cycle, InferenceRequest request, double[] scratch, int ttftAt, int n) {
        long target = cycle.targets().ttftMillis();
        if (target == 0 || request.priority() > 0 || !predictor.ready()) {
            return -1;
        }
        double room = PACKED_SHARE * target;
        int best = -1;
        for (int i = 0; i < n; i++) {
            double ttft = scratch[ttftAt + i];
            if (ttft <= room && (best < 0 || ttft > scratch[ttftAt + best])) {
                best = i;
            }
        }
        return best;
    }

    @Override
    public String toString() {
        if (margin == DEFAULT_MARGIN && missWeight == DEFAULT_MISS_WEIGHT && decodeWeight == 0 && temperature == 0) {
            return TYPE;
        }
        return TYPE + "{margin=" + margin + ", missWeight=" + missWeight + ", decodeWeight=" + decodeWeight
                + ", temperature=" + temperature + "}";
    }
}
