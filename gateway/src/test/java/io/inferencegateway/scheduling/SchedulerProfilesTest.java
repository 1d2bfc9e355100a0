package io.inferencegateway.scheduling;

import static io.inferencegateway.scheduling.Scenarios.MODEL;
import static io.inferencegateway.scheduling.Scenarios.base;
import static io.inferencegateway.scheduling.Scenarios.cycle;
import static io.inferencegateway.scheduling.Scenarios.prompt;
import static io.inferencegateway.scheduling.Scenarios.scrape;
import static io.inferencegateway.scheduling.Scenarios.states;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.config.InvalidConfigException;
import io.inferencegateway.scheduling.framework.EndpointState;
import io.inferencegateway.scheduling.framework.SchedulerProfile;
import io.inferencegateway.scheduling.framework.SchedulingCycle;
import io.inferencegateway.scheduling.framework.Scorer;
import io.inferencegateway.scheduling.plugins.PrefixCacheScorer;

/** A profile built from the plugin form: the parameters written in the config reach the plugins. */
class SchedulerProfilesTest {

    private static SchedulerProfile profile(String scheduler, java.util.random.RandomGenerator random)
            throws InvalidConfigException {
        String yaml = """
                apiVersion: inferencegateway.io/v1alpha1
                kind: InferenceGatewayConfig
                metadata: {name: t}
                spec:
                  schedulers:
                    - modelName: %s
                      endpoints: ["h:1"]
                """.formatted(MODEL) + scheduler.indent(6);
        return SchedulerProfiles.build(ConfigLoader.parse(yaml).pools().get(0).endpointPicker(), random);
    }

    private static SchedulerProfile profile(String scheduler) throws InvalidConfigException {
        return profile(scheduler, new ScriptedRandom());
    }

    /** pod 1: queue 2, KV 0.1 (the most free cache); pod 2: queue 0, KV 0.5. */
    private final List<EndpointState> pods = states(scrape(2, 0, 0.1), scrape(0, 0, 0.5));

    private static EndpointState pick(SchedulerProfile profile, List<EndpointState> pods) {
        return profile.run(cycle(base("hi")), pods);
    }

    @Test
    void theQueueThresholdOfTheSaturationFilterIsTheConfiguredOne() throws Exception {
        String kvOnly = "plugins: [{type: saturation-filter%s}, {type: kv-cache-scorer}]";
        assertThat(pick(profile(kvOnly.formatted("")), pods)).as("default 5: pod 1 is not saturated")
                .isSameAs(pods.get(0));
        assertThat(pick(profile(kvOnly.formatted(", parameters: {queueDepthThreshold: 2}")), pods))
                .as("at 2 waiting pod 1 is saturated").isSameAs(pods.get(1));
    }

    @Test
    void theKvThresholdOfTheSaturationFilterIsTheConfiguredOne() throws Exception {
        String queueOnly = "plugins: [{type: saturation-filter%s}, {type: queue-scorer}]";
        assertThat(pick(profile(queueOnly.formatted("")), pods)).isSameAs(pods.get(1));
        assertThat(pick(profile(queueOnly.formatted(", parameters: {kvCacheThreshold: 0.4}")), pods))
                .as("at KV 0.4 pod 2 is saturated").isSameAs(pods.get(0));
    }

    @Test
    void thePrefixScorerCutsPromptsAsConfigured() throws Exception {
        Scorer byDefault = onlyScorer(profile("plugins: [{type: prefix-cache-scorer}]"));
        Scorer twoBlocks = onlyScorer(profile("plugins: [{type: prefix-cache-scorer, parameters: {maxBlocks: 2}}]"));
        Scorer wideBlocks = onlyScorer(profile(
                "plugins: [{type: prefix-cache-scorer, parameters: {blockSize: 128}}]"));
        String doc = prompt("doc", 10);
        String sameStart = doc.substring(0, 2 * 64) + prompt("other", 8); // shares the first two 64-char blocks
        for (Scorer s : List.of(byDefault, twoBlocks, wideBlocks)) {
            ((PrefixCacheScorer) s).committed(cycle(base(doc)), pods.get(0));
        }

        assertThat(score(byDefault, sameStart)).as("2 of 10 blocks").isCloseTo(0.2, within(1e-9));
        assertThat(score(twoBlocks, sameStart)).as("only 2 blocks hashed: both held").isCloseTo(1.0, within(1e-9));
        assertThat(score(wideBlocks, sameStart)).as("1 of 5 128-char blocks").isCloseTo(0.2, within(1e-9));
        assertThat(score(wideBlocks, doc.substring(0, 64 + 63))).as("shorter than one 128-char block").isZero();
    }

    @Test
    void theWeightedRandomPickerDrawsFromThePolicysRandomSource() throws Exception {
        ScriptedRandom random = new ScriptedRandom().scriptDoubles(0.9);
        SchedulerProfile p = profile("plugins: [{type: queue-scorer}, {type: weighted-random-picker}]", random);
        // queue scores 0 and 1: all weight on pod 2, whatever the draw
        assertThat(pick(p, pods)).isSameAs(pods.get(1));
        assertThat(random.draws()).isEqualTo(1);
    }

    @Test
    void aScorerWeighingZeroIsNotBuiltAndFiltersRunInTheOrderWritten() throws Exception {
        SchedulerProfile p = profile("""
                plugins:
                  - {type: lora-affinity-filter}
                  - {type: saturation-filter}
                  - {type: prefix-cache-scorer}
                  - {type: queue-scorer, name: q}
                schedulingProfiles:
                  - name: p
                    plugins:
                      - {pluginRef: lora-affinity-filter}
                      - {pluginRef: prefix-cache-scorer, weight: 0}
                      - {pluginRef: saturation-filter}
                      - {pluginRef: q, weight: 1.5}
                """);
        assertThat(p).hasToString("filters=[lora-affinity-filter, saturation-filter] scorers=[queue-scorer×1.5] "
                + "picker=max-score-picker");
        assertThat(p.scorers()).as("a scorer at weight 0 is not built: no prefix index").hasSize(1);
    }

    private static Scorer onlyScorer(SchedulerProfile p) {
        assertThat(p.scorers()).hasSize(1);
        return p.scorers().get(0).scorer();
    }

    /** Pod 1's score for a prompt. */
    /** Pod 1's score for {@code prompt}, the prefix scorer's producer having counted first, as per request. */
    private double score(Scorer s, String prompt) {
        SchedulingCycle c = cycle(base(prompt), scrape(2, 0, 0.1), scrape(0, 0, 0.5));
        ((PrefixCacheScorer) s).produce(c);
        double[] scores = new double[c.states().size()];
        s.score(c, c.states(), scores);
        return scores[0];
    }
}
