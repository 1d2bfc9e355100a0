package io.inferencegateway.lab.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.inferencegateway.lab.bench.load.RequestEncoder;

class ConversationWorkloadTest {

    private static final ConversationWorkload WORKLOAD = new ConversationWorkload("m", new IntRange(6, 16), 64,
            new IntRange(32, 160), new IntRange(24, 96), Duration.ofSeconds(3));

    private static ConversationPlan plan(long seed) {
        return WORKLOAD.plan(seed, 1.0, Duration.ofSeconds(80), 10_000);
    }

    @Test
    void theSameSeedGivesTheSameConversationsAndAnotherSeedOthers() {
        assertThat(plan(42)).isEqualTo(plan(42));
        assertThat(plan(43).conversations().get(0)).isNotEqualTo(plan(42).conversations().get(0));
    }

    @Test
    void conversationsStartAtPoissonArrivalsWithinTheSpan() {
        ConversationPlan plan = plan(42);
        List<ConversationPlan.Conversation> cs = plan.conversations();
        // 80 s at one a second: a count far outside 80 +- 4 standard deviations would mean a wrong rate
        assertThat(cs.size()).isBetween(45, 115);
        for (int i = 1; i < cs.size(); i++) {
            assertThat(cs.get(i).startNanos()).isGreaterThanOrEqualTo(cs.get(i - 1).startNanos());
        }
        assertThat(cs.get(cs.size() - 1).startNanos()).isLessThan(Duration.ofSeconds(80).toNanos());
        assertThat(WORKLOAD.plan(42, 1.0, Duration.ofSeconds(80), 5).conversations()).hasSize(5);
    }

    @Test
    void eachTurnsPromptIsThePreviousPromptItsAnswerAndANewQuestion() {
        for (ConversationPlan.Conversation c : plan(42).conversations()) {
            assertThat(c.turns().size()).isBetween(6, 16);
            List<ConversationPlan.Turn> turns = c.turns();
            assertThat(turns.get(0).spec().messages()).extracting(ChatMessage::role).containsExactly("system", "user");
            assertThat(turns.get(0).spec().messages().get(0).content()).startsWith("Conversation " + c.id() + ":");
            for (int k = 1; k < turns.size(); k++) {
                RequestSpec before = turns.get(k - 1).spec();
                List<ChatMessage> now = turns.get(k).spec().messages();
                assertThat(now).hasSize(before.messages().size() + 2);
                assertThat(now.subList(0, before.messages().size())).isEqualTo(before.messages());
                ChatMessage answer = now.get(before.messages().size());
                assertThat(answer.role()).isEqualTo("assistant");
                assertThat(answer.content()).hasSize(TokenContract.chars(before.maxTokens()));
                assertThat(now.get(now.size() - 1).role()).isEqualTo("user");
                assertThat(turns.get(k).spec().promptTokens()).isGreaterThan(before.promptTokens() + before.maxTokens());
            }
        }
    }

    @Test
    void everyTurnCarriesItsConversationsKeyAndNoTwoConversationsShareOne() {
        Set<String> keys = new HashSet<>();
        for (ConversationPlan.Conversation c : plan(42).conversations()) {
            String key = c.turns().get(0).spec().sessionKey();
            assertThat(key).isNotEmpty();
            assertThat(c.turns()).allSatisfy(t -> assertThat(t.spec().sessionKey()).isEqualTo(key));
            assertThat(keys.add(key)).isTrue();
        }
        String body = new String(RequestEncoder.encode(plan(42).conversations().get(3).turns().get(2).spec()),
                StandardCharsets.UTF_8);
        assertThat(body).contains("\"prompt_cache_key\":\"conv-3\"");
    }

    @Test
    void aWorkloadNamedByUserPutsTheConversationsIdInTheUserFieldInstead() {
        ConversationWorkload byUser = new ConversationWorkload("m", new IntRange(2, 3), 64, new IntRange(32, 160),
                new IntRange(24, 96), Duration.ofSeconds(3), ConversationWorkload.NamedBy.USER);
        ConversationPlan.Conversation c = byUser.plan(42, 1.0, Duration.ofSeconds(10), 10).conversations().get(1);
        assertThat(c.turns()).allSatisfy(t -> {
            assertThat(t.spec().user()).isEqualTo("conv-1");
            assertThat(t.spec().sessionKey()).isEmpty();
        });
        String body = new String(RequestEncoder.encode(c.turns().get(1).spec()), StandardCharsets.UTF_8);
        assertThat(body).contains("\"user\":\"conv-1\"").doesNotContain("prompt_cache_key");
        assertThat(byUser.describe()).endsWith("user per conversation");
        assertThat(new String(RequestEncoder.encode(plan(42).conversations().get(0).turns().get(0).spec()),
                StandardCharsets.UTF_8)).as("the default names it by prompt_cache_key only")
                .doesNotContain("\"user\":\"conv");
    }

    @Test
    void thinkTimeIsZeroBeforeTheFirstTurnAndExponentialWithTheConfiguredMeanBetweenTurns() {
        double sum = 0;
        int n = 0;
        for (ConversationPlan.Conversation c : plan(42).conversations()) {
            assertThat(c.turns().get(0).thinkNanos()).isZero();
            for (ConversationPlan.Turn t : c.turns().subList(1, c.turns().size())) {
                assertThat(t.thinkNanos()).isPositive();
                sum += t.thinkNanos();
                n++;
            }
        }
        // some 800 draws: their mean is within 10 % of 3 s unless the distribution is wrong
        assertThat(sum / n / 1e9).isBetween(2.7, 3.3);
    }

    @Test
    void liveContextCountsTheTurnEachConversationIsOnWhileItLasts() {
        RequestSpec first = new RequestSpec("m", List.of(ChatMessage.user("x".repeat(390))), 10, "c", "k");
        RequestSpec second = new RequestSpec("m", List.of(ChatMessage.user("x".repeat(790))), 10, "c", "k");
        long s = 1_000_000_000L;
        // starts at 10 s; turn 1 lasts 1 s, 4 s of thought, turn 2 from 15 s to 16 s; the span's second half is 10-20 s
        ConversationPlan plan = new ConversationPlan(List.of(new ConversationPlan.Conversation(0, 10 * s, List.of(
                new ConversationPlan.Turn(0, 0, 1, 0, first), new ConversationPlan.Turn(1, 0, 2, 4 * s, second)))),
                20 * s);
        // samples at 10..19 s: 10-14 hold turn 1 (100 + 10 tokens), 15 holds turn 2 (200 + 10), 16-19 nothing
        assertThat(plan.meanLiveContextTokens(s)).isEqualTo((5 * 110 + 210) / 10.0);
    }
}
