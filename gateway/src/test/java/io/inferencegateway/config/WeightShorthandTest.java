package io.inferencegateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.config.WeightShorthand.WeightKey;

/**
 * The table behind both weights shorthands. How a scheduler's {@code weights:} reads, and the plugin lists they stand
 * for, are specified through the loader (ConfigLoaderTest, GlobalSchedulerConfigTest); here, that each table and its
 * record agree.
 */
class WeightShorthandTest {

    static Stream<Arguments> shorthands() {
        return Stream.of(
                Arguments.of(Weights.class, Weights.SHORTHAND, Weights.DEFAULT.asMap(), Weights.DEFAULT.endpointPicker()),
                Arguments.of(GlobalWeights.class, GlobalWeights.SHORTHAND, GlobalWeights.DEFAULT.asMap(),
                        GlobalWeights.DEFAULT.endpointPicker()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shorthands")
    void aTableHasOneKeyPerComponentOfItsRecordInTheRecordsOrder(Class<?> record, WeightShorthand table,
            Map<String, Integer> defaults, EndpointPickerConfig picker) {
        assertThat(table.names()).containsExactlyElementsOf(
                Arrays.stream(record.getRecordComponents()).map(RecordComponent::getName).toList());
        assertThat(defaults).isEqualTo(table.defaults());
        assertThat(picker).isEqualTo(table.endpointPicker(table.defaults()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shorthands")
    void anUnknownKeyIsRefused(Class<?> record, WeightShorthand table, Map<String, Integer> defaults,
            EndpointPickerConfig picker) {
        assertThatThrownBy(() -> table.with(defaults, "speed", 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown weight speed");
    }

    @Test
    void aTableWhoseNamesMissAKeyIsRefused() {
        assertThatThrownBy(() -> new WeightShorthand("a pool", "", List.of("a"), List.of(),
                List.of(new WeightKey("a", "a-scorer", 1, null), new WeightKey("b", "b-scorer", 1, null))))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
