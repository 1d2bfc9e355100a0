package io.inferencegateway.lab.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.inferencegateway.lab.bench.workload.ChatMessage;
import io.inferencegateway.lab.bench.workload.RequestSpec;
import io.inferencegateway.lab.bench.workload.SloClass;

/** The priority and latency-target headers a planned request goes out with. */
class RequestHeadersTest {

    private static final SloClass INTERACTIVE = new SloClass("interactive", Duration.ofMillis(500),
            Duration.ofMillis(50));

    private static RequestSpec spec(String priority, SloClass slo) {
        return new RequestSpec("m", List.of(ChatMessage.user("hello")), 8, "unique", "", priority, slo);
    }

    @ParameterizedTest(name = "time scale {0}: TTFT {1} ms, TPOT {2} ms of wall time")
    @CsvSource({
        "1.0,   500,  50",  // simulated time is wall time
        "0.25,  2000, 200", // the fleet runs 4x slower than real hardware: targets stretch with it
        "0.08,  6250, 625",
        "8.0,   63,   6",   // 62.5 and 6.25 ms round to the nearest whole millisecond
    })
    void targetsGoOutInWallMillisecondsBesideThePriority(double timeScale, String ttftMs, String tpotMs) {
        assertThat(RequestHeaders.of(spec("critical", INTERACTIVE), timeScale)).containsExactly(
                entry("x-gateway-priority", "critical"), entry("x-slo-ttft-ms", ttftMs), entry("x-slo-tpot-ms", tpotMs));
    }

    @Test
    void aClassWithoutATpotTargetSendsNoTpotHeader() {
        assertThat(RequestHeaders.of(spec("sheddable", SloClass.ttft("batch", Duration.ofSeconds(20))), 0.5))
                .containsExactly(entry("x-gateway-priority", "sheddable"), entry("x-slo-ttft-ms", "40000"));
    }

    @Test
    void aTargetNeverRoundsDownToZero() {
        assertThat(RequestHeaders.of(spec("", SloClass.ttft("tiny", Duration.ofNanos(100_000))), 100))
                .containsExactly(entry("x-slo-ttft-ms", "1"));
    }

    @Test
    void aRequestWithNeitherPriorityNorTargetsCarriesNoHeaders() {
        assertThat(RequestHeaders.of(spec("", SloClass.NONE), 1.0)).isEmpty();
        assertThat(RequestHeaders.of(new RequestSpec("m", List.of(ChatMessage.user("hi")), 8, "unique", ""), 1.0))
                .isEmpty();
    }
}
