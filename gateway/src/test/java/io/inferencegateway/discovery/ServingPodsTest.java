package io.inferencegateway.discovery;

import static io.inferencegateway.discovery.TestPods.LLAMA;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;

class ServingPodsTest {

    static Stream<Arguments> readiness() {
        Pod serving = TestPods.serving("p", "ns", "10.0.0.7", LLAMA);
        return Stream.of(
                Arguments.of("running and ready", serving, "10.0.0.7"),
                Arguments.of("pending", TestPods.pod("p", "ns", "10.0.0.7", LLAMA, "Pending", "False"), null),
                Arguments.of("running, readiness probe failing", TestPods.withReady(serving, "False"), null),
                Arguments.of("running, readiness unknown", TestPods.withReady(serving, "Unknown"), null),
                Arguments.of("running, no Ready condition yet", TestPods.pod("p", "ns", "10.0.0.7", LLAMA, "Running", null),
                        null),
                Arguments.of("terminating while still ready", TestPods.terminating(serving), null),
                Arguments.of("succeeded", TestPods.pod("p", "ns", "10.0.0.7", LLAMA, "Succeeded", "False"), null),
                Arguments.of("failed", TestPods.pod("p", "ns", "10.0.0.7", LLAMA, "Failed", "False"), null),
                Arguments.of("ready but no IP yet", TestPods.pod("p", "ns", null, LLAMA, "Running", "True"), null),
                Arguments.of("no status at all", new PodBuilder().withNewMetadata().withName("p").endMetadata().build(),
                        null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("readiness")
    void servesOnlyWhenRunningReadyAndNotTerminating(String scenario, Pod pod, String expectedIp) {
        assertThat(ServingPods.servingIp(pod)).isEqualTo(expectedIp);
    }

    static Stream<Arguments> selection() {
        return Stream.of(
                Arguments.of("every label, same namespace", "ns", Map.of("app", "llama", "tier", "gpu", "x", "y"), true),
                Arguments.of("one label missing", "ns", Map.of("app", "llama"), false),
                Arguments.of("one label different", "ns", Map.of("app", "llama", "tier", "cpu"), false),
                Arguments.of("other namespace", "other", LLAMA, false),
                Arguments.of("no labels", "ns", Map.of(), false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("selection")
    void selectedByEveryLabelInTheNamespace(String scenario, String podNamespace, Map<String, String> labels,
            boolean selected) {
        Pod pod = TestPods.serving("p", podNamespace, "10.0.0.7", labels);

        assertThat(ServingPods.selectedBy(pod, "ns", LLAMA)).isEqualTo(selected);
    }
}
