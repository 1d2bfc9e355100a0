package io.inferencegateway.lab.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

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
        assertThat(md).contains("| least-request | 1 | 20 | 0 | 0.0 % (86.4 %) | - | - | - | - | - | 20 ms | 20 ms "
                + "| 20 ms | 20 ms | - | - | - |");
        assertThat(md).contains("| gpu-aware-3x | 3 | 20 / 20 / 20 | 20 / 20 / 20 | 20 / 20 / 20 | 20 / 20 / 20 |");
        assertThat(md.lines().filter(l -> l.startsWith("| gpu-aware-3x"))).hasSize(3);
    }

    /** A run of {@link #plan()}: every turn OK with the given TTFT, served by the given pod, all to replica 0. */
    private static ConversationRecording run(long[] ttftMs, String[] pods) {
        List<RequestResult> results = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            results.add(ok(i, ttftMs[i]));
        }
        return new ConversationRecording(plan(), results, pods, new int[20], new int[20], 1.0, 0, 1);
    }

    private static long[] ttfts(long all) {
        long[] t = new long[20];
        Arrays.fill(t, all);
        return t;
    }

    /** Conversation 0 on pod a, conversation 1 on pod b for turns 1-2 and pod a after: a 18, b 2. */
    private static String[] mostlyOnA() {
        String[] pods = new String[20];
        for (int i = 0; i < 20; i++) {
            pods[i] = i == 10 || i == 11 ? "b" : "a";
        }
        return pods;
    }

    @Test
    void turnsPerPodIsTheBusiestPodsTurnsOverTheIdlestPodsAmongTheFleetsPods() {
        ConversationRecording rec = run(ttfts(20), mostlyOnA());
        ConversationSummary two = ConversationSummary.of("gpu-aware", "gpu-aware", 1, rec, 2, 0);
        assertThat(two.busiestPodTurns()).isEqualTo(18);
        assertThat(two.idlestPodTurns()).isEqualTo(2);
        assertThat(two.podTurnsMaxOverMin()).isEqualTo(9.0);
        assertThat(ConversationReport.podTurns(two)).isEqualTo("18 / 2 = 9.00");

        // a third pod in the fleet served nothing: the idlest pod's 0 turns make the spread infinite, not 9
        ConversationSummary three = ConversationSummary.of("gpu-aware", "gpu-aware", 1, rec, 3, 0);
        assertThat(three.idlestPodTurns()).isZero();
        assertThat(three.podTurnsMaxOverMin()).isInfinite();
        assertThat(ConversationReport.podTurns(three)).isEqualTo("18 / 0 = ∞");

        // an even split is 1; turns whose pod is unknown count for no pod
        String[] even = new String[20];
        for (int i = 0; i < 20; i++) {
            even[i] = i == 0 ? null : i < 10 ? "a" : "b";
        }
        ConversationSummary split = ConversationSummary.of("x", "x", 1, run(ttfts(20), even), 2, 0);
        assertThat(split.busiestPodTurns()).isEqualTo(10);
        assertThat(split.idlestPodTurns()).isEqualTo(9);
        assertThat(split.podTurnsMaxOverMin()).isCloseTo(10 / 9.0, within(1e-12));

        ConversationSummary unknown = ConversationSummary.of("x", "x", 1, run(ttfts(20), new String[20]), 2, 0);
        assertThat(unknown.podTurnsMaxOverMin()).isNaN();
        assertThat(ConversationReport.podTurns(unknown)).isEqualTo("-");
    }

    @Test
    void meanAndP99AreRatiosToRoundRobinWithAsManyReplicasAndTheGoalNeedsAllThree() {
        ConversationSummary roundRobin = ConversationSummary.of("round-robin", "round-robin", 1,
                run(ttfts(40), mostlyOnA()), 2, 0);
        // 18 turns at 10 ms and 2 at 40 ms: mean 13 ms, p99 (the 20th of 20) 40 ms; 17 of 18 follow-ups on their pod
        long[] fast = ttfts(10);
        fast[3] = 40;
        fast[15] = 40;
        ConversationSummary gpuAware = ConversationSummary.of("gpu-aware", "gpu-aware", 1, run(fast, mostlyOnA()), 2,
                0);
        // everything at half round-robin's, but conversations moved every turn: pods alternate a, b, a, b ...
        String[] alternating = new String[20];
        for (int i = 0; i < 20; i++) {
            alternating[i] = i % 2 == 0 ? "a" : "b";
        }
        ConversationSummary leastRequest = ConversationSummary.of("least-request", "least-request", 1,
                run(ttfts(20), alternating), 2, 0);
        // three replicas and no round-robin run with three: nothing to compare with
        ConversationSummary threeReplicas = ConversationSummary.of("gpu-aware-3x", "gpu-aware", 3,
                run(ttfts(10), mostlyOnA()), 2, 0);

        List<ConversationComparison> compared = ConversationComparison.of(
                List.of(roundRobin, gpuAware, leastRequest, threeReplicas));

        assertThat(compared.get(0).ttftMeanVsRoundRobin()).isEqualTo(1.0);
        assertThat(compared.get(0).meetsGoal()).as("round-robin is the baseline, not a candidate").isNull();
        assertThat(gpuAware.ttft().meanMs()).isEqualTo(13.0);
        assertThat(compared.get(1).ttftMeanVsRoundRobin()).isCloseTo(13 / 40.0, within(1e-12));
        assertThat(compared.get(1).ttftP99VsRoundRobin()).isEqualTo(1.0);
        assertThat(gpuAware.samePod()).isCloseTo(17 / 18.0, within(1e-12));
        assertThat(compared.get(1).meetsGoal()).as("mean 0.325x, p99 1.0x, same pod 94 %").isTrue();
        assertThat(compared.get(2).ttftMeanVsRoundRobin()).isEqualTo(0.5);
        assertThat(compared.get(2).ttftP99VsRoundRobin()).isEqualTo(0.5);
        assertThat(compared.get(2).meetsGoal()).as("same pod 0 %").isFalse();
        assertThat(compared.get(3).ttftMeanVsRoundRobin()).isNaN();
        assertThat(compared.get(3).meetsGoal()).isNull();

        String md = ConversationReport.markdown("bench", "setup", List.of(roundRobin, gpuAware, leastRequest));
        assertThat(md).contains("| gpu-aware | 1 | 20 | 0 |")
                .contains("| 18 / 2 = 9.00 | 0 | 13 ms | 10 ms | 10 ms | 40 ms | 0.33× | 1.00× | met |")
                .contains("| 20 ms | 20 ms | 20 ms | 20 ms | 0.50× | 0.50× | missed |");
    }

    @TempDir
    Path dir;

    @Test
    void theJsonHasEveryRunsFiguresWithItsRatiosAndTurnsPerPod() throws Exception {
        ConversationSummary roundRobin = ConversationSummary.of("round-robin", "round-robin", 1,
                run(ttfts(40), mostlyOnA()), 2, 0);
        ConversationSummary gpuAware = ConversationSummary.of("gpu-aware", "gpu-aware", 1,
                run(ttfts(10), mostlyOnA()), 3, 0);
        ConversationReport.write(dir, "bench", "setup", List.of(roundRobin, gpuAware));
        JsonNode json = new ObjectMapper().readTree(dir.resolve("conversations.json").toFile());
        assertThat(json).hasSize(2);
        JsonNode run = json.get(1);
        assertThat(run.get("label").asText()).isEqualTo("gpu-aware");
        assertThat(run.get("ttft").get("meanMs").asDouble()).isEqualTo(10.0);
        assertThat(run.get("ttftMeanVsRoundRobin").asDouble()).isEqualTo(0.25);
        assertThat(run.get("ttftP99VsRoundRobin").asDouble()).isEqualTo(0.25);
        assertThat(run.get("busiestPodTurns").asInt()).isEqualTo(18);
        assertThat(run.get("idlestPodTurns").asInt()).isZero();
        assertThat(run.get("podTurnsMaxOverMin").asText()).isEqualTo("Infinity");
        assertThat(run.get("meetsGoal").asBoolean()).isTrue();
        assertThat(json.get(0).get("podTurnsMaxOverMin").asDouble()).isEqualTo(9.0);
        assertThat(json.get(0).get("meetsGoal").isNull()).isTrue();
    }
}
