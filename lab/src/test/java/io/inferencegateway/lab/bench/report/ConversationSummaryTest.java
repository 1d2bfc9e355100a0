package io.inferencegateway.lab.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.inferencegateway.lab.bench.load.ConversationRecording;
import io.inferencegateway.lab.bench.load.Outcome;
import io.inferencegateway.lab.bench.load.RequestResult;
import io.inferencegateway.lab.bench.workload.ChatMessage;
import io.inferencegateway.lab.bench.workload.ConversationPlan;
import io.inferencegateway.lab.bench.workload.RequestSpec;

class ConversationSummaryTest {

    private static final long MS = 1_000_000L;

    /** Two conversations of ten turns; each turn's prompt is 100 tokens (as the result records say). */
    private static ConversationPlan plan() {
        RequestSpec spec = new RequestSpec("m", List.of(ChatMessage.user("x".repeat(390))), 8, "conversation", "k");
        List<ConversationPlan.Conversation> cs = new ArrayList<>();
        for (int c = 0; c < 2; c++) {
            List<ConversationPlan.Turn> turns = new ArrayList<>();
            for (int t = 1; t <= 10; t++) {
                turns.add(new ConversationPlan.Turn(c * 10 + t - 1, c, t, 0, spec));
            }
            cs.add(new ConversationPlan.Conversation(c, 0, turns));
        }
        return new ConversationPlan(cs, 1);
    }

    private static RequestResult ok(int index, long ttftMs) {
        return new RequestResult(index, "m", "conversation", "k", 100, 8, 0, 0, Outcome.OK, 200, "", ttftMs * MS,
                new long[0], ttftMs * MS + 50 * MS, 8, 8, true);
    }

    @Test
    void ttftHitRateAndStickinessAreSplitByHowFarIntoItsConversationATurnIs() {
        ConversationPlan plan = plan();
        List<RequestResult> results = new ArrayList<>();
        String[] pods = new String[20];
        int[] cached = new int[20];
        int[] targets = new int[20];
        for (int i = 0; i < 20; i++) {
            int turn = i % 10 + 1;
            // turn 1 takes 100 ms and hits nothing; later turns take 10 ms per turn and hit 80 of 100 tokens
            results.add(ok(i, turn == 1 ? 100 : 10L * turn));
            cached[i] = turn == 1 ? 0 : 80;
            // conversation 0 stays on pod a; conversation 1 moves to pod b at turn 6
            pods[i] = i < 10 || turn < 6 ? "a" : "b";
            targets[i] = i % 2;
        }
        // the last turn of conversation 1 failed: no TTFT, no hit count, but its pod still known
        results.set(19, new RequestResult(19, "m", "conversation", "k", 100, 8, 0, 0, Outcome.HTTP_ERROR, 500, "HTTP 500",
                -1, new long[0], -1, 0, 0, false));
        ConversationSummary s = ConversationSummary.of("gpu-aware", "gpu-aware", 1,
                new ConversationRecording(plan, results, pods, cached, targets, 1.0, 0, 1));

        assertThat(s.turns()).isEqualTo(20);
        assertThat(s.errors()).isEqualTo(1);
        assertThat(s.bucket("1").turns()).isEqualTo(2);
        assertThat(s.bucket("1").ttft().p50Ms()).isEqualTo(100.0);
        assertThat(s.bucket("1").hitRate()).isZero();
        assertThat(s.bucket("2-4").ttft().p50Ms()).isEqualTo(30.0);
        assertThat(s.bucket("2-4").ttft().p99Ms()).isEqualTo(40.0);
        assertThat(s.bucket("5-8").turns()).isEqualTo(8);
        assertThat(s.bucket("9+").turns()).isEqualTo(4);
        assertThat(s.bucket("9+").ttft().count()).isEqualTo(3);
        assertThat(s.bucket("9+").hitRate()).isEqualTo(0.8);
        // 19 ok turns, 17 of them hitting 80 tokens of 100
        assertThat(s.hitRate()).isCloseTo(17 * 80 / 1900.0, within(1e-9));
        // 18 follow-up turns; one (conversation 1, turn 6) changed pod
        assertThat(s.samePod()).isCloseTo(17 / 18.0, within(1e-9));
        // targets alternate, so no turn followed its predecessor to the same replica
        assertThat(s.sameReplica()).isZero();
        // pod a served 15 of the 20 turns
        assertThat(s.busiestPod()).isEqualTo(0.75);
        // every prompt is 100 tokens (6 full blocks, 96 tokens, of it cacheable), so 18 follow-ups find 96 each
        assertThat(s.idealHitRate()).isCloseTo(18 * 96 / 2000.0, within(1e-9));
    }

    @Test
    void theMarkdownHasOneRowPerRunInEachTable() {
        ConversationPlan plan = plan();
        List<RequestResult> results = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            results.add(ok(i, 20));
        }
        ConversationRecording rec = new ConversationRecording(plan, results, new String[20], new int[20], new int[20],
                1.0, 0, 1);
        String md = ConversationReport.markdown("bench --scenarios conversations", "setup",
                List.of(ConversationSummary.of("least-request", "least-request", 1, rec),
                        ConversationSummary.of("gpu-aware-3x", "gpu-aware", 3, rec)));
        assertThat(md).contains("| least-request | 1 | 20 | 0 | 0.0 % (86.4 %) | - | - | - | - | 20 ms | 20 ms | 20 ms |");
        assertThat(md).contains("| gpu-aware-3x | 3 | 20 / 20 / 20 | 20 / 20 / 20 | 20 / 20 / 20 | 20 / 20 / 20 |");
        assertThat(md.lines().filter(l -> l.startsWith("| gpu-aware-3x"))).hasSize(3);
    }
}
