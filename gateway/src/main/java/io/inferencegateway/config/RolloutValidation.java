package io.inferencegateway.config;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Checks {@code spec.modelRewrites[].rollout} (docs/rollouts.md, "Automatic canary") and applies its defaults. Errors
 * name the exact path, as every config error does.
 */
public final class RolloutValidation {

    /** Requests each side needs in a step before the step is judged: enough for a 1 % error-rate margin to mean something. */
    public static final int DEFAULT_MIN_SAMPLES = 100;
    /** How often the analysis runs: the longest a bad candidate serves before its breach is seen, once it has samples. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(10);
    /** The candidate's error and refusal rates may exceed the baseline's by one point (fractions). */
    public static final double DEFAULT_ERROR_RATE = 0.01;
    public static final double DEFAULT_REFUSAL_RATE = 0.01;
    /** The candidate's TTFT and TPOT p90 may be half as long again as the baseline's. */
    public static final double DEFAULT_TTFT_P90 = 1.5;
    public static final double DEFAULT_TPOT_P90 = 1.5;

    /** The steps of a rollout that names none: 1 %, 5 % and 25 % for 5, 5 and 10 minutes, then 100 %. */
    public static final List<RolloutConfig.Step> DEFAULT_STEPS = List.of(
            new RolloutConfig.Step(1, Duration.ofMinutes(5)), new RolloutConfig.Step(5, Duration.ofMinutes(5)),
            new RolloutConfig.Step(25, Duration.ofMinutes(10)), new RolloutConfig.Step(100, Duration.ZERO));

    private static final List<Object> STATES = List.of("running", "paused", "aborted");
    private static final int MAX_MIN_SAMPLES = 1_000_000_000;
    private static final double MAX_RATIO = 1000;

    private RolloutValidation() {
    }

    /**
     * The validated rollout at {@code path} (e.g. {@code spec.modelRewrites[0].rollout}), or null when there is none.
     * Its name is left null: the rewrite names it (ModelRewriteValidation).
     *
     * @param servedModels the model and adapter names the schedulers serve: baseline and candidate must be among them
     * @param rateLimits   whose Redis a rollout without its own {@code redisUrl} keeps its progress on
     */
    public static RolloutConfig rollout(String path, InferenceGatewayConfig.Rollout yaml, Set<String> servedModels,
            RateLimitConfig rateLimits) throws InvalidConfigException {
        if (yaml == null) {
            return null;
        }
        String baseline = served(ConfigChecks.required(yaml.baseline(), path + ".baseline"), path + ".baseline",
                servedModels);
        String candidate = served(ConfigChecks.required(yaml.candidate(), path + ".candidate"), path + ".candidate",
                servedModels);
        if (baseline.equals(candidate)) {
            throw new InvalidConfigException(path + ".candidate must differ from the baseline, got '" + candidate + "'");
        }
        RolloutConfig.RolloutState state = state(path + ".state", yaml.state());
        List<RolloutConfig.Step> steps = steps(path + ".steps", yaml.steps());
        RolloutConfig.Analysis analysis = analysis(path + ".analysis", yaml.analysis());
        URI redis = yaml.redisUrl() != null ? ConfigChecks.redisUri(yaml.redisUrl(), path + ".redisUrl")
                : rateLimits == null ? null : rateLimits.redisUrl();
        return new RolloutConfig(null, baseline, candidate, state, steps, analysis, redis);
    }

    private static String served(String model, String path, Set<String> servedModels) throws InvalidConfigException {
        if (!servedModels.contains(model)) {
            throw new InvalidConfigException(path + " '" + model + "' is not a model or adapter any scheduler serves");
        }
        return model;
    }

    private static RolloutConfig.RolloutState state(String path, String text) throws InvalidConfigException {
        if (text == null) {
            return RolloutConfig.RolloutState.RUNNING;
        }
        String s = text.strip();
        if (!STATES.contains(s)) {
            throw new InvalidConfigException(path + " must be one of running, paused, aborted; got '" + text + "'"
                    + ConfigChecks.didYouMean(s.toLowerCase(Locale.ROOT), STATES));
        }
        return RolloutConfig.RolloutState.valueOf(s.toUpperCase(Locale.ROOT));
    }

    private static List<RolloutConfig.Step> steps(String path, List<InferenceGatewayConfig.RolloutStep> yaml)
            throws InvalidConfigException {
        if (yaml == null) {
            return DEFAULT_STEPS;
        }
        if (yaml.isEmpty()) {
            throw new InvalidConfigException(path + " must list at least one step (the last with weight 100)");
        }
        List<RolloutConfig.Step> steps = new ArrayList<>();
        int previous = 0;
        for (int i = 0; i < yaml.size(); i++) {
            String at = path + "[" + i + "]";
            InferenceGatewayConfig.RolloutStep s = yaml.get(i);
            if (s == null || s.weight() == null) {
                throw new InvalidConfigException(at + ".weight is required");
            }
            int w = s.weight();
            if (w <= 0 || w > 100) {
                throw new InvalidConfigException(at + ".weight must be 1..100 (percent), got " + w);
            }
            if (w <= previous) {
                throw new InvalidConfigException(at + ".weight must be more than the step before's " + previous
                        + ", got " + w);
            }
            previous = w;
            boolean last = i == yaml.size() - 1;
            if (last && w != 100) {
                throw new InvalidConfigException(at + ".weight must be 100: the last step is the promotion, got " + w);
            }
            Duration d;
            if (last) {
                if (s.duration() != null) {
                    throw new InvalidConfigException(at + ".duration must not be set: the last step (100) is the "
                            + "promotion and lasts");
                }
                d = Duration.ZERO;
            } else {
                d = ConfigChecks.duration(ConfigChecks.required(s.duration(), at + ".duration"), at + ".duration",
                        null);
            }
            steps.add(new RolloutConfig.Step(w, d));
        }
        return steps;
    }

    private static RolloutConfig.Analysis analysis(String path, InferenceGatewayConfig.RolloutAnalysis a)
            throws InvalidConfigException {
        if (a == null) {
            return new RolloutConfig.Analysis(DEFAULT_MIN_SAMPLES, DEFAULT_INTERVAL, DEFAULT_ERROR_RATE,
                    DEFAULT_REFUSAL_RATE, DEFAULT_TTFT_P90, DEFAULT_TPOT_P90);
        }
        int minSamples = ConfigChecks.intIn(a.minSamples(), DEFAULT_MIN_SAMPLES, 1, MAX_MIN_SAMPLES,
                path + ".minSamples");
        Duration interval = ConfigChecks.duration(a.interval(), path + ".interval", DEFAULT_INTERVAL,
                ConfigChecks.MIN_POLL_INTERVAL, ConfigChecks.MAX_POLL_INTERVAL);
        return new RolloutConfig.Analysis(minSamples, interval,
                margin(a.errorRate(), DEFAULT_ERROR_RATE, path + ".errorRate"),
                margin(a.refusalRate(), DEFAULT_REFUSAL_RATE, path + ".refusalRate"),
                ratio(a.ttftP90(), DEFAULT_TTFT_P90, path + ".ttftP90"),
                ratio(a.tpotP90(), DEFAULT_TPOT_P90, path + ".tpotP90"));
    }

    /** A rate margin: a fraction 0..1 the candidate's rate may exceed the baseline's by. */
    private static double margin(Double value, double fallback, String path) throws InvalidConfigException {
        if (value == null) {
            return fallback;
        }
        if (!(value >= 0 && value <= 1)) {
            throw new InvalidConfigException(path + " must be a fraction 0..1 (0.01 = one point), got " + value);
        }
        return value;
    }

    /** A latency margin: how many times the baseline's p90 the candidate's may be. */
    private static double ratio(Double value, double fallback, String path) throws InvalidConfigException {
        if (value == null) {
            return fallback;
        }
        if (!(value >= 1 && value <= MAX_RATIO)) {
            throw new InvalidConfigException(path + " must be a ratio 1.." + (int) MAX_RATIO
                    + " of the baseline's p90, got " + value);
        }
        return value;
    }
}
