package io.inferencegateway.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.inferencegateway.lab.bench.load.RequestEncoder;
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

    private static final ConversationScenario LONG =
            ConversationScenario.longConversations(ScenarioCatalog.DEFAULT_MODEL);

    @Test
    void bothConversationScenariosAreKnownByName() {
        assertThat(ConversationScenario.NAMES).containsExactly("conversations", "long-conversations");
        assertThat(ConversationScenario.byName("conversations", ScenarioCatalog.DEFAULT_MODEL)).get()
                .isEqualTo(SCENARIO);
        assertThat(ConversationScenario.byName("long-conversations", ScenarioCatalog.DEFAULT_MODEL)).get()
                .extracting(ConversationScenario::name).isEqualTo("long-conversations");
        assertThat(ConversationScenario.byName("slo", ScenarioCatalog.DEFAULT_MODEL)).isEmpty();
        assertThat(ScenarioCatalog.defaultNames()).as("run only when named")
                .doesNotContainAnyElementsOf(ConversationScenario.NAMES);
    }

    @Test
    void conversationsCompareRoundRobinLeastRequestTheDefaultAndThePredictedTimePicker() {
        assertThat(ConversationScenario.POLICIES).containsExactly("round-robin", "least-request",
                "gpu-aware", "gpu-aware-predicted-time");
    }

    @Test
    void longConversationsAreNinetySixChatsOnEightPodsEachWithItsOwnThousandWordSystemPromptAndUser() {
        ConversationPlan plan = LONG.plan(42, null);
        assertThat(LONG.fleet().pods()).hasSize(8);
        assertThat(plan.conversations()).hasSize(96);
        // all started within the first seconds: with 6-12 turns of ~4.5 s each, all 96 run side by side
        assertThat(plan.conversations().get(95).startNanos()).isLessThan(Duration.ofSeconds(15).toNanos());
        Set<String> systemPrompts = new HashSet<>();
        Set<String> users = new HashSet<>();
        for (ConversationPlan.Conversation c : plan.conversations()) {
            assertThat(c.turns().size()).isBetween(6, 12);
            String system = c.turns().get(0).spec().messages().get(0).content();
            assertThat(system.split(" +").length).as("words").isBetween(900, 1100);
            systemPrompts.add(system);
            String user = c.turns().get(0).spec().user();
            assertThat(c.turns()).allSatisfy(t -> {
                assertThat(t.spec().user()).isEqualTo(user);
                assertThat(t.spec().sessionKey()).as("no prompt_cache_key: the user field names it").isEmpty();
            });
            users.add(user);
        }
        assertThat(systemPrompts).as("a system prompt of its own each").hasSize(96);
        assertThat(users).hasSize(96);
        String body = new String(RequestEncoder.encode(plan.conversations().get(3).turns().get(1).spec()),
                StandardCharsets.UTF_8);
        assertThat(body).contains("\"user\":\"conv-3\"").doesNotContain("prompt_cache_key");
    }

    @Test
    void longConversationsKvCacheCannotHoldEveryLiveHistoryEvenWithEachConversationOnOnePod() {
        ConversationPlan plan = LONG.plan(CapacityProbe.PROBE_SEED, null);
        long lastStart = plan.conversations().get(plan.conversations().size() - 1).startNanos();
        double live = plan.meanLiveContextTokens(LONG.turnEstimate().toNanos(), lastStart,
                lastStart + Duration.ofSeconds(30).toNanos());
        double fleetTokens = 16.0 * LONG.fleet().kvBlocksPerPod() * LONG.fleet().pods().size();
        assertThat(fleetTokens / live).isBetween(0.8, 0.81);
        // the system prompts alone fit: what overflows is the histories they open
        assertThat(96 * 1400.0).isLessThan(fleetTokens);
    }

    @Test
    void oneLongConversationsRunTakesAFewWallMinutesAtTheDefaultTimeScale() {
        ConversationPlan plan = LONG.plan(42, null);
        double timeScale = Math.min(ConversationBench.MAX_TIME_SCALE, TimeScaleChooser.choose(LONG.turnRate(plan),
                LONG.workload().answerTokens().mean(), 2000));
        long end = 0;
        for (ConversationPlan.Conversation c : plan.conversations()) {
            long t = c.startNanos();
            for (ConversationPlan.Turn turn : c.turns()) {
                t += turn.thinkNanos() + LONG.turnEstimate().toNanos();
            }
            end = Math.max(end, t);
        }
        assertThat(end / 1e9 / timeScale).as("wall seconds, if turns last what the scenario estimates").isLessThan(150);
    }
}
