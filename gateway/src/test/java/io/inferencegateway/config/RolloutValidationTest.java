package io.inferencegateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.config.InferenceGatewayConfig.Rollout;
import io.inferencegateway.config.InferenceGatewayConfig.RolloutAnalysis;
import io.inferencegateway.config.InferenceGatewayConfig.RolloutStep;

/** spec.modelRewrites[].rollout: its defaults, and the exact message for each mistake. */
class RolloutValidationTest {

    static final String AT = "spec.modelRewrites[0].rollout";
    static final Set<String> SERVED = Set.of("llama-v1", "llama-v2", "sql-v1");
    static final List<RolloutStep> STEPS = List.of(new RolloutStep(5, "1m"), new RolloutStep(100, null));

    static RolloutConfig validate(Rollout r) throws InvalidConfigException {
        return RolloutValidation.rollout(AT, r, SERVED, RateLimitConfig.DEFAULT);
    }

    static Rollout steps(List<RolloutStep> steps) {
        return new Rollout("llama-v1", "llama-v2", null, steps, null, null);
    }

    static Rollout analysis(Integer minSamples, String interval, Double errorRate, Double refusalRate, Double ttft,
            Double tpot) {
        return new Rollout("llama-v1", "llama-v2", null, STEPS,
                new RolloutAnalysis(minSamples, interval, errorRate, refusalRate, ttft, tpot), null);
    }

    @Test
    void aRolloutWithOnlyItsVersionsGetsTheDefaults() throws Exception {
        RolloutConfig r = validate(new Rollout("llama-v1", "llama-v2", null, null, null, null));
        assertThat(r.state()).isEqualTo(RolloutConfig.RolloutState.RUNNING);
        assertThat(r.steps()).extracting(RolloutConfig.Step::weight).containsExactly(1, 5, 25, 100);
        assertThat(r.analysis()).isEqualTo(new RolloutConfig.Analysis(100, Duration.ofSeconds(10), 0.01, 0.01, 1.5,
                1.5));
        assertThat(r.redisUrl()).isNull();
    }

    @Test
    void itsProgressIsKeptOnItsOwnRedisElseTheRateLimitsOne() throws Exception {
        RateLimitConfig shared = new RateLimitConfig(URI.create("redis://limits:6379"), true,
                RateLimitConfig.DEFAULT_REDIS_TIMEOUT, 1024, Duration.ofMinutes(1));
        assertThat(RolloutValidation.rollout(AT, steps(STEPS), SERVED, shared).redisUrl())
                .isEqualTo(URI.create("redis://limits:6379"));
        Rollout own = new Rollout("llama-v1", "llama-v2", "paused", STEPS, null, "redis://canary:6379");
        RolloutConfig r = RolloutValidation.rollout(AT, own, SERVED, shared);
        assertThat(r.redisUrl()).isEqualTo(URI.create("redis://canary:6379"));
        assertThat(r.state()).isEqualTo(RolloutConfig.RolloutState.PAUSED);
        assertThat(r.steps()).containsExactly(new RolloutConfig.Step(5, Duration.ofMinutes(1)),
                new RolloutConfig.Step(100, Duration.ZERO));
    }

    static Stream<Arguments> mistakes() {
        return Stream.of(
                Arguments.of("no baseline", new Rollout(null, "llama-v2", null, STEPS, null, null),
                        AT + ".baseline is required"),
                Arguments.of("a candidate nobody serves", new Rollout("llama-v1", "llama-v3", null, STEPS, null, null),
                        AT + ".candidate 'llama-v3' is not a model or adapter any scheduler serves"),
                Arguments.of("the baseline as candidate", new Rollout("llama-v1", "llama-v1", null, STEPS, null, null),
                        AT + ".candidate must differ from the baseline, got 'llama-v1'"),
                Arguments.of("a misspelt state", new Rollout("llama-v1", "llama-v2", "pasued", STEPS, null, null),
                        AT + ".state must be one of running, paused, aborted; got 'pasued'; did you mean paused?"),
                Arguments.of("a state of its own", new Rollout("llama-v1", "llama-v2", "stopped", STEPS, null, null),
                        AT + ".state must be one of running, paused, aborted; got 'stopped'"),
                Arguments.of("no steps", steps(List.of()),
                        AT + ".steps must list at least one step (the last with weight 100)"),
                Arguments.of("a step without weight", steps(List.of(new RolloutStep(null, "1m"),
                        new RolloutStep(100, null))), AT + ".steps[0].weight is required"),
                Arguments.of("a zero weight", steps(List.of(new RolloutStep(0, "1m"), new RolloutStep(100, null))),
                        AT + ".steps[0].weight must be 1..100 (percent), got 0"),
                Arguments.of("a weight over 100", steps(List.of(new RolloutStep(101, null))),
                        AT + ".steps[0].weight must be 1..100 (percent), got 101"),
                Arguments.of("weights that go down", steps(List.of(new RolloutStep(25, "1m"),
                        new RolloutStep(5, "1m"), new RolloutStep(100, null))),
                        AT + ".steps[1].weight must be more than the step before's 25, got 5"),
                Arguments.of("a last step short of 100", steps(List.of(new RolloutStep(5, "1m"),
                        new RolloutStep(50, "1m"))),
                        AT + ".steps[1].weight must be 100: the last step is the promotion, got 50"),
                Arguments.of("a step without duration", steps(List.of(new RolloutStep(5, null),
                        new RolloutStep(100, null))), AT + ".steps[0].duration is required"),
                Arguments.of("a duration past a day", steps(List.of(new RolloutStep(5, "25h"),
                        new RolloutStep(100, null))), AT + ".steps[0].duration must be at most 24h, got '25h'"),
                Arguments.of("a duration without unit", steps(List.of(new RolloutStep(5, "10"),
                        new RolloutStep(100, null))), AT + ".steps[0].duration '10' has no valid unit (ms, s, m, h)"),
                Arguments.of("a duration on the last step", steps(List.of(new RolloutStep(5, "1m"),
                        new RolloutStep(100, "1m"))),
                        AT + ".steps[1].duration must not be set: the last step (100) is the promotion and lasts"),
                Arguments.of("no samples", analysis(0, null, null, null, null, null),
                        AT + ".analysis.minSamples must be 1..1000000000, got 0"),
                Arguments.of("an interval too short", analysis(null, "1ms", null, null, null, null),
                        AT + ".analysis.interval must be 10ms..1h, got '1ms'"),
                Arguments.of("a negative error margin", analysis(null, null, -0.01, null, null, null),
                        AT + ".analysis.errorRate must be a fraction 0..1 (0.01 = one point), got -0.01"),
                Arguments.of("a refusal margin in percent", analysis(null, null, null, 5.0, null, null),
                        AT + ".analysis.refusalRate must be a fraction 0..1 (0.01 = one point), got 5.0"),
                Arguments.of("a TTFT ratio under 1", analysis(null, null, null, null, 0.9, null),
                        AT + ".analysis.ttftP90 must be a ratio 1..1000 of the baseline's p90, got 0.9"),
                Arguments.of("a TPOT ratio that is no number", analysis(null, null, null, null, null, Double.NaN),
                        AT + ".analysis.tpotP90 must be a ratio 1..1000 of the baseline's p90, got NaN"),
                Arguments.of("a Redis that is no URL", new Rollout("llama-v1", "llama-v2", null, STEPS, null,
                        "http://redis:6379"), AT + ".redisUrl must be a redis:// or rediss:// URL, got "
                                + "'http://redis:6379'"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void aMistakeIsRefusedWithItsPath(String scenario, Rollout rollout, String message) {
        assertThatThrownBy(() -> validate(rollout)).isInstanceOf(InvalidConfigException.class).hasMessage(message);
    }
}
