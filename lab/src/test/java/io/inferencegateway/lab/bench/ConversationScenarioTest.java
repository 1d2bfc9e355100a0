package io.inferencegateway.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.inferencegateway.lab.bench.workload.ConversationPlan;

class ConversationScenarioTest {

    private static final ConversationScenario SCENARIO = ConversationScenario.standard(ScenarioCatalog.DEFAULT_MODEL);

    @Test
    void theFleetsKvCacheHoldsAboutOnePointThreeTimesTheLiveConversationsContext() {
        ConversationPlan plan = SCENARIO.plan(CapacityProbe.PROBE_SEED, null);
        double live = plan.meanLiveContextTokens(SCENARIO.turnEstimate().toNanos());
        double fleetTokens = 16.0 * SCENARIO.fleet().kvBlocksPerPod() * SCENARIO.fleet().pods().size();
        assertThat(fleetTokens / live).isBetween(1.3, 1.31);
        // but one pod holds far less than all of them: spread over every pod, a conversation crowds out others
        assertThat(fleetTokens / SCENARIO.fleet().pods().size()).isLessThan(live / 2);
    }

    @Test
    void theSeedChangesTheConversationsButNotTheFleet() {
        assertThat(SCENARIO.plan(42, null)).isNotEqualTo(SCENARIO.plan(7, null));
        assertThat(ConversationScenario.standard(ScenarioCatalog.DEFAULT_MODEL).fleet()).isEqualTo(SCENARIO.fleet());
    }

    @Test
    void theTurnRateCountsEveryTurnOverTheConversationsExpectedLifetimes() {
        ConversationPlan plan = SCENARIO.plan(42, null);
        double rate = SCENARIO.turnRate(plan);
        // some 40 conversations live at once, a turn from each every ~4 s (3 s of thought, 1 s of answer)
        assertThat(rate).isBetween(5.0, 15.0);
        assertThat(plan.turnCount()).isGreaterThan(500);
    }
}
