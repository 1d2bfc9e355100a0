package io.inferencegateway.lab.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.inferencegateway.lab.bench.fleet.Fleet;
import io.inferencegateway.lab.bench.fleet.FleetSpec;
import io.inferencegateway.lab.bench.fleet.SimulatorFleetLauncher;
import io.inferencegateway.lab.bench.workload.ConversationPlan;
import io.inferencegateway.lab.bench.workload.ConversationWorkload;
import io.inferencegateway.lab.bench.workload.IntRange;

/** Conversations played against real simulated pods over loopback, no gateway in between. */
class ConversationDriverTest {

    private static final ConversationWorkload WORKLOAD = new ConversationWorkload("m", IntRange.of(4), 64,
            new IntRange(32, 64), IntRange.of(8), Duration.ofMillis(200));

    @Test
    void eachTurnIsSentAfterThePreviousOneEndedAndFindsItsPromptInThePodsCache() throws Exception {
        ConversationPlan plan = WORKLOAD.plan(7, 20, Duration.ofSeconds(1), 3);
        FleetSpec spec = new FleetSpec("m", FleetSpec.pods(1), List.of(), 0, 2048, 16, 8192, 1.0);
        ConversationRecording rec;
        try (Fleet fleet = new SimulatorFleetLauncher().start(spec, 7); LoadGenerator generator = new LoadGenerator()) {
            rec = generator.run(plan, fleet.endpoints(), t -> true, LoadOptions.defaults(1.0), new LiveCounters());
        }
        assertThat(rec.results()).hasSize(12).allSatisfy(r -> assertThat(r.ok()).as(r.error()).isTrue());
        for (ConversationPlan.Conversation c : plan.conversations()) {
            for (int k = 1; k < c.turns().size(); k++) {
                RequestResult before = rec.results().get(c.turns().get(k - 1).index());
                RequestResult now = rec.results().get(c.turns().get(k).index());
                assertThat(now.intendedNanos()).isGreaterThanOrEqualTo(before.intendedNanos() + before.e2eNanos()
                        + c.turns().get(k).thinkNanos());
                // the whole previous prompt's full blocks are in the one pod's cache
                assertThat(rec.cachedTokens()[now.index()]).isGreaterThanOrEqualTo(before.promptTokens() / 16 * 16 - 16)
                        .isPositive();
            }
        }
        assertThat(rec.servedBy()).doesNotContainNull().containsOnly(rec.servedBy()[0]);
    }

    @Test
    void aCompletionIdNamesThePodByItsFirstSixteenHexDigits() {
        assertThat(ConversationDriver.podOf("chatcmpl-0123456789abcdef00000000000000ff")).isEqualTo("0123456789abcdef");
        assertThat(ConversationDriver.podOf("chatcmpl-abc")).isNull();
        assertThat(ConversationDriver.podOf(null)).isNull();
    }
}
