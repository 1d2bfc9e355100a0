package io.inferencegateway.config;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Validates a model rewrite's {@code rollout} (docs/rollouts.md, "Automatic canary") for {@link ModelRewriteValidation}.
 * A first cut: the shape with sensible defaults; the deep checks come with the canary.
 */
public final class RolloutValidation {

    /** The steps of a rollout that names none. */
    static final List<RolloutConfig.Step> DEFAULT_STEPS = List.of(new RolloutConfig.Step(1, Duration.ofMinutes(5)),
            new RolloutConfig.Step(5, Duration.ofMinutes(5)), new RolloutConfig.Step(25, Duration.ofMinutes(10)),
            new RolloutConfig.Step(100, Duration.ZERO));
    static final RolloutConfig.Analysis DEFAULT_ANALYSIS = new RolloutConfig.Analysis(100, Duration.ofSeconds(30),
            0.01, 0.01, 1.2, 1.2);

    private RolloutValidation() {
    }

    /**
     * The rollout at {@code path} ({@code spec.modelRewrites[i].rollout}) of the rewrite named in its path.
     *
     * @param servedModels the models and adapters the pools serve
     * @param rateLimits   spec.rateLimits, whose Redis a rollout without a redisUrl keeps its progress in
     */
    public static RolloutConfig rollout(String path, InferenceGatewayConfig.Rollout yaml, Set<String> servedModels,
            RateLimitConfig rateLimits) throws InvalidConfigException {
        String baseline = ConfigLoader.required(yaml.baseline(), path + ".baseline");
        String candidate = ConfigLoader.required(yaml.candidate(), path + ".candidate");
        RolloutConfig.State state = RolloutConfig.State.RUNNING;
        if (yaml.state() != null) {
            try {
                state = RolloutConfig.State.valueOf(yaml.state().strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new InvalidConfigException(path + ".state must be running, paused or aborted, got '"
                        + yaml.state() + "'");
            }
        }
        List<RolloutConfig.Step> steps = DEFAULT_STEPS;
        if (yaml.steps() != null && !yaml.steps().isEmpty()) {
            steps = new ArrayList<>();
            for (int i = 0; i < yaml.steps().size(); i++) {
                InferenceGatewayConfig.RolloutStep s = yaml.steps().get(i);
                String at = path + ".steps[" + i + "]";
                if (s == null || s.weight() == null || s.weight() < 0 || s.weight() > 100) {
                    throw new InvalidConfigException(at + ".weight must be 0..100");
                }
                steps.add(new RolloutConfig.Step(s.weight(),
                        ConfigLoader.duration(s.duration(), at + ".duration", Duration.ZERO)));
            }
        }
        RolloutConfig.Analysis analysis = DEFAULT_ANALYSIS;
        InferenceGatewayConfig.RolloutAnalysis a = yaml.analysis();
        if (a != null) {
            RolloutConfig.Analysis d = DEFAULT_ANALYSIS;
            analysis = new RolloutConfig.Analysis(a.minSamples() == null ? d.minSamples() : a.minSamples(),
                    ConfigLoader.duration(a.interval(), path + ".analysis.interval", d.interval()),
                    a.errorRate() == null ? d.errorRate() : a.errorRate(),
                    a.refusalRate() == null ? d.refusalRate() : a.refusalRate(),
                    a.ttftP90() == null ? d.ttftP90() : a.ttftP90(), a.tpotP90() == null ? d.tpotP90() : a.tpotP90());
        }
        URI redis = yaml.redisUrl() == null ? rateLimits.redisUrl()
                : ConfigLoader.redisUri(path + ".redisUrl", yaml.redisUrl());
        String name = path; // the rewrite names the rollout; ModelRewriteValidation gives it its name
        return new RolloutConfig(name, baseline, candidate, state, steps, analysis, redis);
    }
}
