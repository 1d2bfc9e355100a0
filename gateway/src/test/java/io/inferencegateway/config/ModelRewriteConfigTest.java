package io.inferencegateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** spec.modelRewrites: what a valid rewrite becomes, and the exact message for each mistake (docs/rollouts.md). */
class ModelRewriteConfigTest {

    private static final String HEAD = """
            apiVersion: inferencegateway.io/v1alpha1
            kind: InferenceGatewayConfig
            metadata: {name: versions}
            spec:
              schedulers:
                - {name: one, modelName: llama-v1, endpoints: ['h:1'], loraAdapters: [sql-v1, sql-v2]}
                - {name: two, modelName: llama-v2, endpoints: ['h:2']}
              modelRewrites:
            """;

    private static GatewayConfig parse(String rewrites) throws InvalidConfigException {
        return ConfigLoader.parse(HEAD + rewrites);
    }

    @Test
    void aRewriteWithAHeaderRuleAndACatchAllKeepsItsRulesInOrderWithTheDefaults() throws Exception {
        GatewayConfig c = parse("""
                    - name: chat
                      rules:
                        - matches: [{headers: {X-Model-Version: v2}}]
                          targets: [{model: llama-v2}]
                        - targets: [{model: llama-v1, weight: 90}, {model: llama-v2, weight: 10}]
                """);

        ModelRewriteConfig chat = c.modelRewrites().get(0);
        assertThat(chat.name()).isEqualTo("chat");
        assertThat(chat.responseModel()).isEqualTo(ModelRewriteConfig.ResponseModel.TARGET);
        assertThat(chat.stickiness()).isEqualTo(ModelRewriteConfig.Stickiness.SESSION);
        assertThat(chat.rules().get(0).matches()).containsExactly(Map.of("x-model-version", "v2"));
        assertThat(chat.rules().get(0).targets()).containsExactly(new ModelRewriteConfig.WeightedVersion("llama-v2", 100));
        assertThat(chat.catchAll().targets()).containsExactly(new ModelRewriteConfig.WeightedVersion("llama-v1", 90),
                new ModelRewriteConfig.WeightedVersion("llama-v2", 10));
        assertThat(chat.targetModels()).containsExactly("llama-v2", "llama-v1");
        assertThat(chat.rollout()).isNull();
    }

    @Test
    void adaptersAreTargetsAndARolloutIsNamedAfterItsRewrite() throws Exception {
        GatewayConfig c = parse("""
                    - name: sql
                      responseModel: requested
                      stickiness: tenant
                      rules:
                        - targets: [{model: sql-v1, weight: 99}, {model: sql-v2, weight: 1}]
                      rollout: {baseline: sql-v1, candidate: sql-v2}
                """);

        ModelRewriteConfig sql = c.modelRewrites().get(0);
        assertThat(sql.responseModel()).isEqualTo(ModelRewriteConfig.ResponseModel.REQUESTED);
        assertThat(sql.stickiness()).isEqualTo(ModelRewriteConfig.Stickiness.TENANT);
        assertThat(sql.rollout().name()).isEqualTo("sql");
        assertThat(sql.rollout().baseline()).isEqualTo("sql-v1");
        assertThat(sql.rollout().candidate()).isEqualTo("sql-v2");
    }

    @Test
    void noModelRewritesIsAnEmptyList() throws Exception {
        assertThat(ConfigLoader.parse(HEAD.replace("  modelRewrites:\n", "")).modelRewrites()).isEmpty();
    }

    @Test
    void anUnknownFieldOfARewriteGetsADidYouMean() {
        assertThatThrownBy(() -> parse("    - {name: chat, stickyness: session, rules: [{targets: [{model: llama-v1}]}]}\n"))
                .hasMessage("spec.modelRewrites[0].stickyness is not a known field; did you mean stickiness?");
        assertThatThrownBy(() -> parse("    - {name: chat, rules: [{targets: [{model: llama-v1, wieght: 100}]}]}\n"))
                .hasMessage("spec.modelRewrites[0].rules[0].targets[0].wieght is not a known field; did you mean weight?");
    }

    static Stream<Arguments> mistakes() {
        String ok = "rules: [{targets: [{model: llama-v1}]}]";
        return Stream.of(
                Arguments.of("no name", "    - {" + ok + "}\n", "spec.modelRewrites[0].name is required"),
                Arguments.of("a name twice", "    - {name: chat, " + ok + "}\n    - {name: chat, " + ok + "}\n",
                        "spec.modelRewrites[1].name 'chat' duplicates spec.modelRewrites[0].name"),
                Arguments.of("unknown responseModel", "    - {name: chat, responseModel: client, " + ok + "}\n",
                        "spec.modelRewrites[0].responseModel must be target or requested, got 'client'"),
                Arguments.of("unknown stickiness", "    - {name: chat, stickiness: user, " + ok + "}\n",
                        "spec.modelRewrites[0].stickiness must be session, tenant or request, got 'user'"),
                Arguments.of("no rules", "    - {name: chat, rules: []}\n",
                        "spec.modelRewrites[0].rules must list at least one rule"),
                Arguments.of("a rule without targets", "    - {name: chat, rules: [{targets: []}]}\n",
                        "spec.modelRewrites[0].rules[0].targets must list at least one target"),
                Arguments.of("weights that do not sum", "    - {name: chat, rules: ["
                        + "{matches: [{headers: {x-v: '2'}}], targets: [{model: llama-v2}]}, "
                        + "{targets: [{model: llama-v1, weight: 80}, {model: llama-v2, weight: 10}]}]}\n",
                        "spec.modelRewrites[0].rules[1].targets: weights sum to 90, not 100"),
                Arguments.of("a zero weight", "    - {name: chat, rules: [{targets: "
                        + "[{model: llama-v1, weight: 100}, {model: llama-v2, weight: 0}]}]}\n",
                        "spec.modelRewrites[0].rules[0].targets[1].weight must be a positive integer, got 0"),
                Arguments.of("a missing weight among several", "    - {name: chat, rules: [{targets: "
                        + "[{model: llama-v1, weight: 100}, {model: llama-v2}]}]}\n",
                        "spec.modelRewrites[0].rules[0].targets[1].weight is required when a rule has several targets"),
                Arguments.of("an unknown target, close to a served one", "    - {name: chat, rules: [{targets: "
                        + "[{model: llama-v1, weight: 50}, {model: llama-v3, weight: 50}]}]}\n",
                        "spec.modelRewrites[0].rules[0].targets[1].model 'llama-v3' is not a model or adapter of "
                                + "spec.schedulers; did you mean llama-v1?"),
                Arguments.of("an unknown target, close to nothing", "    - {name: chat, rules: [{targets: "
                        + "[{model: gpt-4o}]}]}\n",
                        "spec.modelRewrites[0].rules[0].targets[0].model 'gpt-4o' is not a model or adapter of "
                                + "spec.schedulers"),
                Arguments.of("a target twice", "    - {name: chat, rules: [{targets: "
                        + "[{model: llama-v1, weight: 50}, {model: llama-v1, weight: 50}]}]}\n",
                        "spec.modelRewrites[0].rules[0].targets[1].model 'llama-v1' duplicates targets[0]"),
                Arguments.of("a match without headers", "    - {name: chat, rules: [{matches: [{headers: {}}], "
                        + "targets: [{model: llama-v2}]}, {targets: [{model: llama-v1}]}]}\n",
                        "spec.modelRewrites[0].rules[0].matches[0].headers must name at least one header"),
                Arguments.of("only rules with matches", "    - {name: chat, rules: [{matches: [{headers: {x-v: '2'}}], "
                        + "targets: [{model: llama-v2}]}]}\n",
                        "spec.modelRewrites[0].rules: every rule has matches, so a request that matches none would "
                                + "have nowhere to go; end with a rule without matches"),
                Arguments.of("a rule after the catch-all", "    - {name: chat, rules: [{targets: [{model: llama-v1}]}, "
                        + "{matches: [{headers: {x-v: '2'}}], targets: [{model: llama-v2}]}]}\n",
                        "spec.modelRewrites[0].rules[1] is never tried: rules[0] has no matches and takes every "
                                + "request that reaches it"),
                Arguments.of("a rollout candidate the catch-all does not target", "    - {name: chat, rules: [{targets: "
                        + "[{model: llama-v1}]}], rollout: {baseline: llama-v1, candidate: llama-v2}}\n",
                        "spec.modelRewrites[0].rollout.candidate 'llama-v2' is not a target of rules[0], the rule "
                                + "without matches"),
                Arguments.of("a rollout baseline only a header rule targets", "    - {name: chat, rules: ["
                        + "{matches: [{headers: {x-v: '1'}}], targets: [{model: llama-v1}]}, "
                        + "{targets: [{model: llama-v2}]}], rollout: {baseline: llama-v1, candidate: llama-v2}}\n",
                        "spec.modelRewrites[0].rollout.baseline 'llama-v1' is not a target of rules[1], the rule "
                                + "without matches"),
                Arguments.of("a rollout beside a third target", "    - {name: chat, rules: [{targets: "
                        + "[{model: llama-v1, weight: 80}, {model: llama-v2, weight: 10}, {model: sql-v1, weight: 10}]}], "
                        + "rollout: {baseline: llama-v1, candidate: llama-v2}}\n",
                        "spec.modelRewrites[0].rules[0].targets must be the rollout's baseline and candidate alone, "
                                + "got 3 targets"),
                Arguments.of("overlapping rollouts", "    - {name: a, rules: [{targets: "
                        + "[{model: llama-v1, weight: 90}, {model: llama-v2, weight: 10}]}], "
                        + "rollout: {baseline: llama-v1, candidate: llama-v2}}\n"
                        + "    - {name: b, rules: [{targets: [{model: sql-v1, weight: 90}, {model: llama-v2, weight: 10}]}], "
                        + "rollout: {baseline: sql-v1, candidate: llama-v2}}\n",
                        "spec.modelRewrites[1].rollout.candidate 'llama-v2' is the candidate of "
                                + "spec.modelRewrites[0].rollout too; one rollout judges a candidate"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void aMistakeIsRefusedWithItsPath(String scenario, String rewrites, String message) {
        assertThatThrownBy(() -> parse(rewrites)).isInstanceOf(InvalidConfigException.class).hasMessage(message);
    }

    @Test
    void aRewriteMayCarryTheNameOfAServedModelAndSendPartOfItsTrafficToItself() throws Exception {
        GatewayConfig c = parse("""
                    - name: llama-v1
                      rules:
                        - targets: [{model: llama-v1, weight: 95}, {model: sql-v2, weight: 5}]
                """);

        assertThat(c.modelRewrites()).singleElement()
                .satisfies(r -> assertThat(r.targetModels()).isEqualTo(List.of("llama-v1", "sql-v2")));
    }
}
