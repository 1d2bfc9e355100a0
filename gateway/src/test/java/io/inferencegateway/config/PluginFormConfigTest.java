package io.inferencegateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The {@code plugins}/{@code schedulingProfiles} form of a scheduler: defaults, and every way to get it wrong. */
class PluginFormConfigTest {

    private static final String HEAD = """
            apiVersion: inferencegateway.io/v1alpha1
            kind: InferenceGatewayConfig
            metadata: {name: t}
            spec:
              schedulers:
                - modelName: m
                  endpoints: ["h:1"]
            """;

    private static PoolConfig parse(String scheduler) throws InvalidConfigException {
        return ConfigLoader.parse(HEAD + scheduler.indent(6)).pools().get(0);
    }

    @Test
    void pluginsWithParametersAndAProfileAreReadAsWritten() throws Exception {
        PoolConfig p = parse("""
                plugins:
                  - {type: queue-scorer}
                  - {type: prefix-cache-scorer, name: prefix, parameters: {blockSize: 128, maxBlocks: 64}}
                  - {type: saturation-filter, parameters: {queueDepthThreshold: 8, kvCacheThreshold: 0.9}}
                  - {type: max-score-picker}
                schedulingProfiles:
                  - name: default
                    plugins:
                      - {pluginRef: saturation-filter}
                      - {pluginRef: queue-scorer, weight: 2}
                      - {pluginRef: prefix, weight: 3.5}
                      - {pluginRef: max-score-picker}
                """);
        EndpointPickerConfig picker = p.endpointPicker();
        assertThat(picker.plugins()).containsExactly(
                PluginConfig.of("queue-scorer"),
                new PluginConfig("prefix", "prefix-cache-scorer", Map.of("blockSize", 128, "maxBlocks", 64)),
                new PluginConfig("saturation-filter", "saturation-filter",
                        Map.of("queueDepthThreshold", 8, "kvCacheThreshold", 0.9)),
                PluginConfig.of("max-score-picker"));
        assertThat(picker.profile()).isEqualTo(new ProfileConfig("default", java.util.List.of(
                new ProfileConfig.ProfileEntry("saturation-filter", 0), new ProfileConfig.ProfileEntry("queue-scorer", 2),
                new ProfileConfig.ProfileEntry("prefix", 3.5), new ProfileConfig.ProfileEntry("max-score-picker", 0))));
    }

    @Test
    void withoutProfilesOneProfileRunsEveryPluginInOrderScorersWeighOneAndMaxScorePicks() throws Exception {
        PoolConfig p = parse("""
                plugins:
                  - {type: saturation-filter}
                  - {type: kv-cache-scorer}
                  - {type: queue-scorer}
                """);
        assertThat(p.endpointPicker().profile()).isEqualTo(new ProfileConfig("default", java.util.List.of(
                new ProfileConfig.ProfileEntry("saturation-filter", 0), new ProfileConfig.ProfileEntry("kv-cache-scorer", 1),
                new ProfileConfig.ProfileEntry("queue-scorer", 1), new ProfileConfig.ProfileEntry("max-score-picker", 0))));
        assertThat(p.endpointPicker().plugin("max-score-picker")).isEqualTo(PluginConfig.of("max-score-picker"));
    }

    @Test
    void twoInstancesOfOneTypeAreFineUnderTheirOwnNames() throws Exception {
        PoolConfig p = parse("""
                plugins:
                  - {type: prefix-cache-scorer, name: short-blocks, parameters: {blockSize: 32}}
                  - {type: prefix-cache-scorer, name: long-blocks, parameters: {blockSize: 256}}
                  - {type: weighted-random-picker}
                """);
        assertThat(p.endpointPicker().profile().plugins()).extracting(ProfileConfig.ProfileEntry::pluginRef)
                .containsExactly("short-blocks", "long-blocks", "weighted-random-picker");
    }

    static Stream<Arguments> mistakes() {
        return Stream.of(
                Arguments.of("unknown plugin type", """
                        plugins: [{type: fastest-scorer}]
                        """, "spec.schedulers[0].plugins[0].type 'fastest-scorer' is not a known plugin type "
                        + "(saturation-filter, "), // then every registered type
                Arguments.of("plugin without a type", """
                        plugins: [{name: q}]
                        """, "spec.schedulers[0].plugins[0].type is required"),
                Arguments.of("unknown parameter", """
                        plugins: [{type: queue-scorer}, {type: saturation-filter, parameters: {queueDepth: 3}}]
                        """, "spec.schedulers[0].plugins[1].parameters.queueDepth is not a parameter of this plugin "
                        + "(it takes queueDepthThreshold, kvCacheThreshold)"),
                Arguments.of("a parameter for a plugin that takes none", """
                        plugins: [{type: queue-scorer, parameters: {window: 3}}]
                        """, "spec.schedulers[0].plugins[0].parameters.window is not a parameter of this plugin "
                        + "(it takes none)"),
                Arguments.of("the staleness threshold is the pool's, not the filter's", """
                        plugins: [{type: saturation-filter, parameters: {metricsStalenessThreshold: 200ms}}]
                        """, "spec.schedulers[0].plugins[0].parameters.metricsStalenessThreshold is not a parameter"),
                Arguments.of("KV threshold above 1", """
                        plugins: [{type: queue-scorer}, {type: saturation-filter, parameters: {kvCacheThreshold: 1.5}}]
                        """, "spec.schedulers[0].plugins[1].parameters.kvCacheThreshold must be between 0 and 1 "
                        + "(above 0, at most 1), got 1.5"),
                Arguments.of("KV threshold 0", """
                        plugins: [{type: saturation-filter, parameters: {kvCacheThreshold: 0}}]
                        """, "spec.schedulers[0].plugins[0].parameters.kvCacheThreshold must be between 0 and 1"),
                Arguments.of("KV threshold in words", """
                        plugins: [{type: saturation-filter, parameters: {kvCacheThreshold: high}}]
                        """, "spec.schedulers[0].plugins[0].parameters.kvCacheThreshold must be a number, got 'high'"),
                Arguments.of("queue threshold 0", """
                        plugins: [{type: saturation-filter, parameters: {queueDepthThreshold: 0}}]
                        """, "spec.schedulers[0].plugins[0].parameters.queueDepthThreshold must be an integer between 1 "
                        + "and 2147483647, got 0"),
                Arguments.of("queue threshold not whole", """
                        plugins: [{type: saturation-filter, parameters: {queueDepthThreshold: 2.5}}]
                        """, "spec.schedulers[0].plugins[0].parameters.queueDepthThreshold must be an integer, got 2.5"),
                Arguments.of("queue threshold beyond int", """
                        plugins: [{type: saturation-filter, parameters: {queueDepthThreshold: 99999999999}}]
                        """, "spec.schedulers[0].plugins[0].parameters.queueDepthThreshold must be an integer between"),
                Arguments.of("parameter without a value", """
                        plugins: [{type: saturation-filter, parameters: {queueDepthThreshold: }}]
                        """, "spec.schedulers[0].plugins[0].parameters.queueDepthThreshold has no value"),
                Arguments.of("a margin of the time picker out of range", """
                        plugins: [{type: queue-scorer}, {type: predicted-time-picker, parameters: {margin: 20}}]
                        """, "spec.schedulers[0].plugins[1].parameters.margin must be between 0.0 and 10.0, got 20.0"),
                Arguments.of("prefix block not a multiple of 16", """
                        plugins: [{type: prefix-cache-scorer, parameters: {blockSize: 60}}]
                        """, "spec.schedulers[0].plugins[0].parameters.blockSize must be a multiple of 16, got 60"),
                Arguments.of("prefix hashes too much of the prompt", """
                        plugins: [{type: prefix-cache-scorer, parameters: {blockSize: 4096, maxBlocks: 4096}}]
                        """, "spec.schedulers[0].plugins[0].parameters.maxBlocks × blockSize must be at most 1048576 "
                        + "characters, got 4096 × 4096"),
                Arguments.of("prefix index smaller than its pods", """
                        plugins: [{type: prefix-cache-scorer, parameters: {maxIndexEntries: 100}}]
                        """, "spec.schedulers[0].plugins[0].parameters.maxIndexEntries must be at least "
                        + "maxIndexEndpoints (4096), got 100"),
                Arguments.of("parameters not a map", """
                        plugins: [{type: queue-scorer, parameters: [1, 2]}]
                        """, "spec.schedulers[0].plugins[0].parameters has the wrong type"),
                Arguments.of("duplicate name", """
                        plugins: [{type: queue-scorer, name: a}, {type: kv-cache-scorer, name: a}]
                        """, "spec.schedulers[0].plugins[1] name 'a' duplicates spec.schedulers[0].plugins[0]"),
                Arguments.of("one type twice without names", """
                        plugins: [{type: queue-scorer}, {type: queue-scorer}]
                        """, "spec.schedulers[0].plugins[1] name 'queue-scorer' duplicates spec.schedulers[0].plugins[0] "
                        + "(a plugin's name defaults to its type: give one of them a name)"),
                Arguments.of("blank name", """
                        plugins: [{type: queue-scorer, name: ' '}]
                        """, "spec.schedulers[0].plugins[0].name is required"),
                Arguments.of("dangling pluginRef", """
                        plugins: [{type: queue-scorer}]
                        schedulingProfiles: [{name: p, plugins: [{pluginRef: queue-scorer}, {pluginRef: prefix}]}]
                        """, "spec.schedulers[0].schedulingProfiles[0].plugins[1].pluginRef 'prefix' names no plugin in "
                        + "spec.schedulers[0].plugins (queue-scorer)"),
                Arguments.of("profile entry without pluginRef", """
                        plugins: [{type: queue-scorer}]
                        schedulingProfiles: [{name: p, plugins: [{weight: 2}]}]
                        """, "spec.schedulers[0].schedulingProfiles[0].plugins[0].pluginRef is required"),
                Arguments.of("one plugin twice in the profile", """
                        plugins: [{type: queue-scorer}]
                        schedulingProfiles: [{name: p, plugins: [{pluginRef: queue-scorer}, {pluginRef: queue-scorer}]}]
                        """, "spec.schedulers[0].schedulingProfiles[0].plugins[1].pluginRef 'queue-scorer' is already in "
                        + "the profile at spec.schedulers[0].schedulingProfiles[0].plugins[0]"),
                Arguments.of("weight on a filter", """
                        plugins: [{type: saturation-filter}]
                        schedulingProfiles: [{name: p, plugins: [{pluginRef: saturation-filter, weight: 2}]}]
                        """, "spec.schedulers[0].schedulingProfiles[0].plugins[0].weight applies to scorers only; "
                        + "'saturation-filter' is a filter"),
                Arguments.of("weight on a picker", """
                        plugins: [{type: max-score-picker}]
                        schedulingProfiles: [{name: p, plugins: [{pluginRef: max-score-picker, weight: 1}]}]
                        """, "spec.schedulers[0].schedulingProfiles[0].plugins[0].weight applies to scorers only; "
                        + "'max-score-picker' is a picker"),
                Arguments.of("negative weight", """
                        plugins: [{type: queue-scorer}]
                        schedulingProfiles: [{name: p, plugins: [{pluginRef: queue-scorer, weight: -1}]}]
                        """, "spec.schedulers[0].schedulingProfiles[0].plugins[0].weight must be a non-negative number, "
                        + "got -1.0"),
                Arguments.of("weight in words", """
                        plugins: [{type: queue-scorer}]
                        schedulingProfiles: [{name: p, plugins: [{pluginRef: queue-scorer, weight: heavy}]}]
                        """, "spec.schedulers[0].schedulingProfiles[0].plugins[0].weight has the wrong type"),
                Arguments.of("two pickers", """
                        plugins: [{type: max-score-picker}, {type: weighted-random-picker}]
                        """, "spec.schedulers[0].plugins[1].pluginRef 'weighted-random-picker' is a second picker "
                        + "(after 'max-score-picker'); a profile has one"),
                Arguments.of("two profiles", """
                        plugins: [{type: queue-scorer}]
                        schedulingProfiles:
                          - {name: a, plugins: [{pluginRef: queue-scorer}]}
                          - {name: b, plugins: [{pluginRef: queue-scorer}]}
                        """, "spec.schedulers[0].schedulingProfiles lists 2 profiles; this gateway runs exactly one"),
                Arguments.of("profile without a name", """
                        plugins: [{type: queue-scorer}]
                        schedulingProfiles: [{plugins: [{pluginRef: queue-scorer}]}]
                        """, "spec.schedulers[0].schedulingProfiles[0].name is required"),
                Arguments.of("profile without plugins", """
                        plugins: [{type: queue-scorer}]
                        schedulingProfiles: [{name: p}]
                        """, "spec.schedulers[0].schedulingProfiles[0].plugins must list at least one pluginRef"),
                Arguments.of("a plugin the profile does not use", """
                        plugins: [{type: queue-scorer}, {type: kv-cache-scorer}]
                        schedulingProfiles: [{name: p, plugins: [{pluginRef: queue-scorer}]}]
                        """, "spec.schedulers[0].plugins[1] 'kv-cache-scorer' is not used by "
                        + "spec.schedulers[0].schedulingProfiles[0] 'p': add it to the profile or remove it"),
                Arguments.of("the default picker's name taken by a scorer", """
                        plugins: [{type: queue-scorer, name: max-score-picker}]
                        """, "spec.schedulers[0].plugins[0] is named 'max-score-picker', the name of the picker a profile "
                        + "without one gets"),
                Arguments.of("profiles without plugins", """
                        schedulingProfiles: [{name: p, plugins: [{pluginRef: queue-scorer}]}]
                        """, "spec.schedulers[0].plugins must list at least one plugin"),
                Arguments.of("an empty plugin list", """
                        plugins: []
                        """, "spec.schedulers[0].plugins must list at least one plugin"),
                Arguments.of("weights and plugins together", """
                        weights: {queue: 1}
                        plugins: [{type: queue-scorer}]
                        """, "spec.schedulers[0] sets both weights/profile and plugins/schedulingProfiles"),
                Arguments.of("a profile preset and plugins together", """
                        profile: latency
                        plugins: [{type: queue-scorer}]
                        """, "spec.schedulers[0] sets both weights/profile and plugins/schedulingProfiles"),
                Arguments.of("unknown field in a plugin", """
                        plugins: [{type: queue-scorer, weight: 2}]
                        """, "spec.schedulers[0].plugins[0].weight is not a known field"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mistakes")
    void aMistakeIsRejectedNamingItsPath(String scenario, String scheduler, String expected) {
        assertThatThrownBy(() -> parse(scheduler))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageStartingWith(expected);
    }
}
