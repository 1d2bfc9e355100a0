package io.inferencegateway.scheduling.latency;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.LatencyPrediction;

/**
 * A pool's online latency predictor: for a request on a candidate pod, its time to first token (TTFT) and time per
 * output token (TPOT), from what the gateway knows at pick time; learned from every response the gateway relays whole
 * (a stream's first token and time per token as they pass, a plain body's duration split between the two:
 * {@link #learnWhole}). The model and why it was chosen: docs/slo.md, "The predictor".
 *
 * <p>Two linear models shared by the pool's pods, each fitted by recursive least squares with forgetting, times a
 * speed factor per pod:
 * <ul>
 * <li>TTFT ≈ speed<sub>pod</sub> × (a + b·uncached prompt tokens + c·queued requests + d·running batch + e·KV use +
 * f·adapter not loaded + g·prompt tokens in flight): the prompt's own prefill, plus the queue it waits behind, plus
 * the batch it shares steps with, plus loading its LoRA adapter where the pod does not run it, plus the prefills this
 * gateway sent there that have not returned a first token yet (a queue counted in tokens, not requests);</li>
 * <li>TPOT ≈ speed<sub>pod</sub> × (a + b·running batch + c·KV use + d·queued requests): a decode step's time grows
 * with the sequences and context it carries, and with the prefills the scheduler mixes in.</li>
 * </ul>
 * The shared models learn the shape of the engine's costs from every pod; the speed factors (a moving average of
 * measured over predicted, in log space) learn that one pod is an older GPU, or was slowed down, within a few
 * responses of it. A pod never heard of starts as the pool's average pod, and a speed no response renews fades back
 * to the average (FADE_SAMPLES). Until the pool has {@value #MIN_SAMPLES} samples it predicts nothing (NaN), and the
 * gateway admits as if it had no predictor; a picker may still rank pods by the prior costs
 * ({@link #ttftEstimateMillis}).
 *
 * <p>Predictions read published coefficients without a lock; learning takes the predictor's lock (a few hundred
 * floating-point operations per response).
 */
public final class LatencyPredictor implements LatencyPrediction.Learner {

    /** Samples before the predictor's predictions are used. */
    public static final int MIN_SAMPLES = 20;
    /** The slots of the TTFT model's features, first in a prediction's; the TPOT model's follow. */
    public static final int TTFT_FEATURES = 7;
    static final int TPOT_FEATURES = 4;
    /** The slots a prediction's features take. */
    public static final int FEATURES = TTFT_FEATURES + TPOT_FEATURES;
    /** Old samples' weight halves after ~350 newer ones: the fit follows a fleet that changes over minutes. */
    private static final double FORGETTING = 0.998;
    /** How fast a pod's speed factor follows its measurements: ~10 responses to move most of the way. */
    private static final double SPEED_RATE = 0.15;
    /**
     * A pod's speed that no response of its renews fades towards the pool's average: to 1/e after this many responses
     * from the pool's other pods. A picker that goes by predicted time sends nothing to a pod it believes slow, so
     * that belief must fade by itself: after a few hundred responses the pod is tried again, and one slow response
     * (a cold start, a passing stall) does not shut it out for good.
     */
    private static final double FADE_SAMPLES = 200;
    /**
     * How fast the pool's average speed follows its pods' (~50 responses). The shared model and the speeds trade off:
     * where the model runs high every pod that answers learns to be faster than it, so a pod never heard of, or one
     * whose speed faded, must take that average, not the model's own scale, or it looks slow and gets nothing.
     */
    private static final double POOL_RATE = 0.02;
    /** The accuracy's moving window: ~200 responses. */
    private static final double ACCURACY_RATE = 0.005;
    /**
     * A plain body teaches one part of its duration alone when that part is predicted to be this share of it: what it
     * takes off is then at most a third of what it keeps, and so is an error in it.
     */
    private static final double DOMINANT = 0.75;
    /** A plain body may pull a model down to this fraction of its prediction, no further. */
    private static final double LEAST_SHARE = 0.25;
    private static final double MIN_MILLIS = 0.5;
    private static final int DEFAULT_OUTPUT_TOKENS = 128;
    private static final int DEFAULT_UNCACHED_PROMPT_TOKENS = 512;

    private final String pool;
    private final RecursiveLeastSquares ttftFit = new RecursiveLeastSquares(new double[] {50, 60, 40, 20, 0, 10, 60},
            1e4,
            FORGETTING, 0);
    private final RecursiveLeastSquares tpotFit = new RecursiveLeastSquares(new double[] {10, 5, 5, 1}, 1e3,
            FORGETTING, TTFT_FEATURES);
    private final Map<Endpoint, Speed> speeds = new ConcurrentHashMap<>();
    private volatile double[] ttftCoefficients = published(ttftFit);
    private volatile double[] tpotCoefficients = published(tpotFit);
    private volatile double meanOutputTokens = DEFAULT_OUTPUT_TOKENS;
    private volatile double meanUncachedPromptTokens = DEFAULT_UNCACHED_PROMPT_TOKENS;
    private volatile long samples;
    /** The log speeds of the pool's average pod, over the responses learned (see POOL_RATE). */
    private volatile double poolTtftSpeed;
    private volatile double poolTpotSpeed;
    private final Accuracy ttftAccuracy = new Accuracy();
    private final Accuracy tpotAccuracy = new Accuracy();
    private final RankingConcordance ranking = new RankingConcordance();

    public LatencyPredictor(String pool) {
        this.pool = pool;
    }

    /** A pod's learned slowness relative to the pool's average pod, as logarithms (0: average). */
    private static final class Speed {
        volatile double ttft;
        volatile double tpot;
        volatile long ttftAt; // the pool's samples when it was last learned
        volatile long tpotAt;
        int ttftSamples; // under the predictor's lock
        int tpotSamples;

        /** A pod first heard of now: the pool's average pod. */
        Speed(double ttft, double tpot, long now) {
            this.ttft = ttft;
            this.tpot = tpot;
            this.ttftAt = now;
            this.tpotAt = now;
        }
    }

    /** Mean absolute percentage error and bias over the last ~200 predictions compared with a measurement. */
    public static final class Accuracy {
        private double absolute;
        private double signed;
        private long count;

        synchronized void add(double predicted, double measured) {
            double error = (predicted - measured) / measured;
            double rate = Math.max(ACCURACY_RATE, 1.0 / (count + 1)); // the plain mean until the window fills
            absolute += rate * (Math.abs(error) - absolute);
            signed += rate * (error - signed);
            count++;
        }

        /** Mean |predicted − measured| / measured, as a fraction; NaN before the first comparison. */
        public synchronized double mape() {
            return count == 0 ? Double.NaN : absolute;
        }

        /** Mean (predicted − measured) / measured: above 0 when predictions run high. NaN before the first. */
        public synchronized double bias() {
            return count == 0 ? Double.NaN : signed;
        }

        public synchronized long count() {
            return count;
        }
    }

    public String pool() {
        return pool;
    }

    /** Whether the predictor has learned enough for its predictions to be used. */
    public boolean ready() {
        return samples >= MIN_SAMPLES;
    }

    /** Responses it learned from so far: streams by their first token, plain bodies by their duration. */
    public long samples() {
        return samples;
    }

    public Accuracy ttftAccuracy() {
        return ttftAccuracy;
    }

    public Accuracy tpotAccuracy() {
        return tpotAccuracy;
    }

    /** How well its predictions ordered the pods, on pairs of recent requests. */
    public RankingConcordance ranking() {
        return ranking;
    }

    /** Time to first token on {@code pod} in milliseconds, from its {@link #features}; NaN while not {@link #ready}. */
    public double ttftMillis(Endpoint pod, double[] x) {
        return ready() ? ttftEstimateMillis(pod, x) : Double.NaN;
    }

    /** Time per output token on {@code pod} in milliseconds, from its {@link #features}; NaN while not ready. */
    public double tpotMillis(Endpoint pod, double[] x) {
        return ready() ? tpotEstimateMillis(pod, x) : Double.NaN;
    }

    /**
     * As {@link #ttftMillis}, also before the predictor is ready: then from the prior costs (docs/slo.md), which rank
     * pods by their load and cache well enough to pick by, though not to promise a target.
     */
    public double ttftEstimateMillis(Endpoint pod, double[] x) {
        return ttft(x, speeds.get(pod));
    }

    /** As {@link #tpotMillis}, also before the predictor is ready. */
    public double tpotEstimateMillis(Endpoint pod, double[] x) {
        return tpot(x, speeds.get(pod));
    }

    /**
     * The prediction for the pod chosen, from its {@link #features} (which it keeps: pass a fresh array), to learn
     * from once the request ends: made whether or not the predictor is ready (then its values are NaN), since that is
     * how it gets ready.
     */
    public LatencyPrediction prediction(Endpoint pod, double[] x, InferenceRequest request, long nowNanos) {
        return new LatencyPrediction(pod, ttftMillis(pod, x), tpotMillis(pod, x), outputTokens(request),
                request.stream(), nowNanos, x, this);
    }

    /**
     * A request shaped like the pool's recent ones, for a prediction that stands for the pool (the capacity summary):
     * a stream of the model, no adapter, whose prompt is the mean uncached prompt of the responses learned from and
     * whose output is their mean output.
     */
    public InferenceRequest typicalRequest(String model) {
        int promptTokens = (int) Math.round(meanUncachedPromptTokens);
        return InferenceRequest.builder(model).promptTokensEstimate(promptTokens).stream(true)
                .maxTokens((int) Math.round(meanOutputTokens)).build();
    }

    /** The output tokens to expect: what the pool's responses averaged, within the request's budget. */
    public int outputTokens(InferenceRequest request) {
        int mean = (int) Math.round(meanOutputTokens);
        return request.maxTokens() > 0 ? Math.min(request.maxTokens(), mean) : mean;
    }

    @Override
    public void learn(LatencyPrediction prediction, double ttftMillis, double tpotMillis, int outputTokens) {
        if (prediction.predicted()) {
            if (ttftMillis > 0) {
                ttftAccuracy.add(prediction.ttftMillis(), ttftMillis);
            }
            if (tpotMillis > 0) {
                tpotAccuracy.add(prediction.tpotMillis(), tpotMillis);
            }
        }
        double[] x = prediction.features();
        Speed speed = speed(prediction.endpoint());
        synchronized (this) {
            if (ttftMillis > 0) {
                learnTtft(x, speed, ttftMillis);
                if (prediction.predicted()) {
                    ranking.add(prediction.endpoint(), prediction.madeNanos(), 0, prediction.ttftMillis(), ttftMillis);
                }
            }
            if (tpotMillis > 0) {
                learnTpot(x, speed, tpotMillis);
            }
            if (outputTokens > 0) {
                learnOutput(outputTokens);
            }
            if (ttftMillis > 0) {
                counted(x);
            }
        }
    }

    /**
     * A plain body's duration: total = TTFT + (output tokens − 1) × TPOT, so the total bounds the first token, and the
     * two parts are not measured apart. Which part it teaches depends on their shares of the total the pod is
     * predicted to take now:
     * <ul>
     * <li>the first token alone, as the total less the decode predicted, when the output was one token, when the first
     * token is predicted past the total (the bound proves it high), or when it is three quarters of the total or more
     * (a short answer);</li>
     * <li>the time per token alone, as the total less the first token predicted, over the tokens after it, when the
     * decode is three quarters or more (a long answer);</li>
     * <li>else both, each its prediction times the measured total over the predicted: the pod as a whole was that
     * much slower or faster, as its speed factor assumes.</li>
     * </ul>
     * The part taken off is then at most a third of the part taught, and so is its error in the sample. A sample never
     * exceeds what the total allows nor falls below a quarter of its prediction (the ratio of the third case stays
     * within a factor of four): one response cannot drive a model to nothing because the other part ran high. A body
     * whose usage counted no output tokens teaches nothing.
     */
    @Override
    public void learnWhole(LatencyPrediction prediction, double totalMillis, int outputTokens) {
        if (!(totalMillis > 0) || outputTokens < 1) {
            return;
        }
        int later = outputTokens - 1;
        double[] x = prediction.features();
        Speed speed = speed(prediction.endpoint());
        synchronized (this) {
            double ttft = ttft(x, speed);
            double tpot = tpot(x, speed);
            double whole = ttft + later * tpot;
            if (later == 0 || ttft >= totalMillis || ttft >= DOMINANT * whole) {
                learnTtft(x, speed, clamp(totalMillis - later * tpot, LEAST_SHARE * Math.min(ttft, totalMillis),
                        totalMillis));
            } else if (later * tpot >= DOMINANT * whole) {
                double most = totalMillis / later;
                learnTpot(x, speed, clamp((totalMillis - ttft) / later, LEAST_SHARE * Math.min(tpot, most), most));
            } else {
                double slower = clamp(totalMillis / whole, LEAST_SHARE, 1 / LEAST_SHARE);
                learnTtft(x, speed, Math.min(totalMillis, ttft * slower));
                learnTpot(x, speed, tpot * slower);
            }
            if (prediction.predicted()) {
                ranking.add(prediction.endpoint(), prediction.madeNanos(), outputTokens,
                        prediction.ttftMillis() + later * prediction.tpotMillis(), totalMillis);
            }
            learnOutput(outputTokens);
            counted(x);
        }
    }

    private static double clamp(double value, double least, double most) {
        return Math.max(least, Math.min(most, value));
    }

    /** The pod's speed, the pool's average pod's when it is first heard of. */
    private Speed speed(Endpoint pod) {
        return speeds.computeIfAbsent(pod, e -> new Speed(poolTtftSpeed, poolTpotSpeed, samples));
    }

    private void learnTtft(double[] x, Speed speed, double millis) { // under the lock, as the three below
        speed.ttft = learnOne(ttftFit, x, millis, faded(speed.ttft, speed.ttftAt, poolTtftSpeed),
                speed.ttftSamples++);
        speed.ttftAt = samples;
        poolTtftSpeed += POOL_RATE * (speed.ttft - poolTtftSpeed);
        ttftCoefficients = published(ttftFit);
    }

    private void learnTpot(double[] x, Speed speed, double millis) {
        speed.tpot = learnOne(tpotFit, x, millis, faded(speed.tpot, speed.tpotAt, poolTpotSpeed),
                speed.tpotSamples++);
        speed.tpotAt = samples;
        poolTpotSpeed += POOL_RATE * (speed.tpot - poolTpotSpeed);
        tpotCoefficients = published(tpotFit);
    }

    private void learnOutput(int outputTokens) {
        meanOutputTokens += 0.02 * (outputTokens - meanOutputTokens);
    }

    /** One more response learned from, whose features were {@code x}. */
    private void counted(double[] x) {
        meanUncachedPromptTokens += 0.02 * (x[1] * 1000 - meanUncachedPromptTokens); // x[1]: thousands of tokens
        samples++;
    }

    /**
     * One measurement: the pod's speed moves towards measured over the shared model's prediction (its first
     * measurements count as a plain mean with the pool's average as one more, so that a new pod's speed is known after
     * a few responses, does not skew the shared model meanwhile, and one outlier does not make it), then the shared model learns the measurement divided by the pod's speed (the
     * pool's average pod's time).
     *
     * @param learned the pod's measurements before this one
     * @return the pod's new log speed
     */
    private static double learnOne(RecursiveLeastSquares fit, double[] x, double measured, double logSpeed,
            int learned) {
        double shared = Math.max(MIN_MILLIS, fit.predict(x));
        double observed = Math.log(measured / shared);
        double rate = Math.max(SPEED_RATE, 1.0 / (learned + 2));
        double next = logSpeed + rate * (Math.max(-3, Math.min(3, observed)) - logSpeed);
        fit.update(x, measured / Math.exp(next));
        return next;
    }

    /**
     * The fit's coefficients as predictions use them: a feature's cost never below 0. More load never makes a pod faster;
     * a negative cost is the fit confounding load with something it does not see (the gateway sends more to the pods
     * it finds fast, so their queues look cheap), and a picker that believed it would herd onto the busiest pod.
     */
    private static double[] published(RecursiveLeastSquares fit) {
        double[] c = fit.coefficients();
        for (int i = 1; i < c.length; i++) { // [0] is the intercept
            c[i] = Math.max(0, c[i]);
        }
        return c;
    }

    /** Forgets the speed of pods that left the pool. */
    public void retain(Collection<Endpoint> current) {
        speeds.keySet().retainAll(current);
    }

    /** How many pods' speeds are held (bounded by the pool's pods). */
    public int podsKnown() {
        return speeds.size();
    }

    private double ttft(double[] x, Speed speed) {
        double pool = poolTtftSpeed;
        return scaled(RecursiveLeastSquares.dot(ttftCoefficients, x, 0),
                speed == null ? pool : faded(speed.ttft, speed.ttftAt, pool));
    }

    private double tpot(double[] x, Speed speed) {
        double pool = poolTpotSpeed;
        return scaled(RecursiveLeastSquares.dot(tpotCoefficients, x, TTFT_FEATURES),
                speed == null ? pool : faded(speed.tpot, speed.tpotAt, pool));
    }

    /**
     * A log speed learned when the pool had {@code at} samples, faded towards the pool's average {@code pool} by those
     * learned since (see FADE_SAMPLES).
     */
    private double faded(double logSpeed, long at, double pool) {
        long since = samples - at;
        return since <= 0 ? logSpeed : pool + (logSpeed - pool) * Math.exp(-since / FADE_SAMPLES);
    }

    /** The shared fit's milliseconds at a pod of speed {@code logSpeed}. */
    private static double scaled(double shared, double logSpeed) {
        return Math.max(MIN_MILLIS, shared) * Math.exp(logSpeed);
    }

    /**
     * Both models' features of a request on one pod, in {@code x} (at least {@link #FEATURES} slots): TTFT's first,
     * then TPOT's.
     *
     * @param uncachedTokens the prompt tokens the pod must compute (the prompt less what it probably caches)
     * @param prefillingTokens prompt tokens sent there before that it has not computed yet
     * @param kvUsage        the pod's KV-cache use 0..1, NaN when unknown
     * @param adapterMissing whether the request's LoRA adapter is not running there
     */
    public static void features(double[] x, int waiting, int running, double kvUsage, int uncachedTokens,
            int prefillingTokens, boolean adapterMissing) {
        double kv = Double.isNaN(kvUsage) ? 0 : kvUsage;
        x[0] = 1;
        x[1] = Math.max(0, uncachedTokens) / 1000.0;
        x[2] = waiting;
        x[3] = running / 32.0;
        x[4] = kv;
        x[5] = adapterMissing ? 1 : 0;
        x[6] = Math.max(0, prefillingTokens) / 1000.0;
        x[7] = 1;
        x[8] = running / 32.0;
        x[9] = kv;
        x[10] = waiting;
    }

    /** Makes {@link #features} {@code x} those of a pod that holds the whole prompt and runs the request's adapter. */
    public static void warm(double[] x) {
        x[1] = 0;
        x[5] = 0;
    }

    /** Sets the uncached prompt tokens of {@link #features} {@code x}: what the pod turned out to compute. */
    public static void uncachedTokens(double[] x, int tokens) {
        x[1] = Math.max(0, tokens) / 1000.0;
    }

    @Override
    public String toString() {
        return "latency-predictor[" + pool + ", " + samples + " samples]";
    }
}
