package io.inferencegateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;

import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.simulator.SimulatedPod;
import io.inferencegateway.testing.GatewayHarness;

/**
 * Conversations through two gateway replicas, turns alternating between them as a Kubernetes Service spreads them,
 * against simulated vLLM pods: each conversation stays on one pod whether it names itself by {@code prompt_cache_key}
 * or by the {@code x-session-id} header, and one whose pod saturates moves, on both replicas to the same pod, and stays
 * there once the old pod has room again. The replicas never talk: each derives a new session's pod alike.
 */
class SessionAffinityEndToEndTest {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static final HttpClient HTTP = HttpClient.newHttpClient();

    SimulatedFleet fleet;
    final List<GatewayHarness> gateways = new ArrayList<>();
    final List<OpenAIClient> clients = new ArrayList<>();

    void start(FleetOptions.Builder options) throws Exception {
        fleet = SimulatedFleet.start(options.model(MODEL).pods(4).timeScale(5).build());
        for (int i = 0; i < 2; i++) {
            GatewayHarness g = GatewayHarness.start(GatewayHarness.fleetConfig(fleet, MODEL, "policy: gpu-aware",
                    "metricsInterval: 50ms", "metricsStalenessThreshold: 2s", "replicas: {count: 2}"));
            gateways.add(g);
            clients.add(OpenAIOkHttpClient.builder().baseUrl(g.baseUrl() + "/v1").apiKey("unused").maxRetries(0).build());
        }
        // a replica that has not scraped every pod yet places a new session among those it has: the home differs
        for (GatewayHarness g : gateways) {
            g.awaitScraped(4);
        }
    }

    @AfterEach
    void stop() throws Exception {
        for (GatewayHarness g : gateways) {
            g.close();
        }
        if (fleet != null) {
            fleet.close();
        }
    }

    /** One conversation: its history grows by the question and the answer of every turn. */
    final class Conversation {
        final String id;
        final boolean byHeader;
        final List<String[]> turns = new ArrayList<>(); // question, answer

        Conversation(String id, boolean byHeader) {
            this.id = id;
            this.byHeader = byHeader;
        }

        /** Sends the next turn through replica {@code replica}; returns the index of the pod that served it. */
        int turn(int replica) {
            ChatCompletionCreateParams.Builder p = ChatCompletionCreateParams.builder().model(MODEL)
                    .addSystemMessage("You are a patient tutor. Conversation " + id + ".").maxCompletionTokens(8);
            for (String[] t : turns) {
                p.addUserMessage(t[0]).addAssistantMessage(t[1]);
            }
            String question = "Turn " + turns.size() + " of " + id + ": tell me more about step " + turns.size()
                    + " of the proof, and why it holds for every n.";
            p.addUserMessage(question);
            if (byHeader) {
                p.putAdditionalHeader("x-session-id", id);
            } else {
                p.promptCacheKey(id);
            }
            long[] before = received();
            ChatCompletion c = clients.get(replica).chat().completions().create(p.build());
            turns.add(new String[] {question, c.choices().get(0).message().content().orElse("")});
            long[] after = received();
            int pod = -1;
            for (int i = 0; i < after.length; i++) {
                if (after[i] > before[i]) {
                    pod = i;
                }
            }
            return pod;
        }
    }

    long[] received() {
        return fleet.pods().stream().mapToLong(SimulatedPod::requestsReceived).toArray();
    }

    /** Eight conversations of twelve turns, sent turn by turn, each turn through the other replica. */
    Map<String, List<Integer>> converse(boolean byHeader) {
        List<Conversation> conversations = new ArrayList<>();
        for (int c = 0; c < 8; c++) {
            conversations.add(new Conversation("conversation-" + c + (byHeader ? "-h" : "-k"), byHeader));
        }
        Map<String, List<Integer>> pods = new LinkedHashMap<>();
        for (int t = 0; t < 12; t++) {
            for (int c = 0; c < conversations.size(); c++) {
                Conversation conv = conversations.get(c);
                pods.computeIfAbsent(conv.id, k -> new ArrayList<>()).add(conv.turn((t + c) % 2));
            }
        }
        return pods;
    }

    @Test
    void everyTurnOfAConversationNamedByPromptCacheKeyReachesOnePod() throws Exception {
        start(FleetOptions.builder());
        Map<String, List<Integer>> pods = converse(false);

        Set<Integer> used = new HashSet<>();
        pods.forEach((id, served) -> {
            assertThat(new HashSet<>(served)).as("%s went to %s", id, served).hasSize(1);
            used.add(served.get(0));
        });
        assertThat(used).as("the conversations spread over the fleet").hasSizeGreaterThan(1);
        for (GatewayHarness g : gateways) {
            assertThat(g.metric("inference_gateway_sessions", "pool=\"llama\"")).isEqualTo(8);
            assertThat(g.metric("inference_gateway_scheduler_picks_total", "reason=\"session_affinity\""))
                    .isGreaterThan(0);
        }
    }

    @Test
    void everyTurnOfAConversationNamedOnlyByTheSessionHeaderReachesOnePod() throws Exception {
        start(FleetOptions.builder());
        Map<String, List<Integer>> pods = converse(true);

        pods.forEach((id, served) -> assertThat(new HashSet<>(served)).as("%s went to %s", id, served).hasSize(1));
    }

    @Test
    void aConversationMovesOffAPodThatSaturatesAndStaysOnItsNewPod() throws Exception {
        start(FleetOptions.builder().maxNumSeqs(2));
        Conversation conv = new Conversation("long-conversation", false);
        int home = conv.turn(0);
        assertThat(conv.turn(1)).isEqualTo(home);

        List<CompletableFuture<HttpResponse<String>>> load = saturate(fleet.pod(home));
        int moved = conv.turn(0);
        assertThat(moved).as("off the saturated pod").isNotEqualTo(home);
        assertThat(conv.turn(1)).as("the other replica moves it to the same pod").isEqualTo(moved);

        CompletableFuture.allOf(load.toArray(CompletableFuture[]::new)).join();
        awaitQueues(q -> q == 0);
        List<Integer> after = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
            after.add(conv.turn(t % 2));
        }
        assertThat(after).as("stays on its new pod once the old one has room").containsOnly(moved);
        for (GatewayHarness g : gateways) {
            assertThat(g.metric("inference_gateway_session_moves_total", "reason=\"saturated\"")).isEqualTo(1);
            assertThat(g.metric("inference_gateway_session_moves_total", "reason=\"pod_gone\"")).isZero();
        }
    }

    /**
     * Long requests sent to the pod directly, past the gateways, until its queue is over the saturation filter's
     * threshold (5) and both gateways have scraped it so.
     */
    List<CompletableFuture<HttpResponse<String>>> saturate(SimulatedPod pod) {
        List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
        String body = """
                {"model": "%s", "max_tokens": 300, "messages": [{"role": "user", "content": "a long answer, please"}]}
                """.formatted(MODEL);
        for (int i = 0; i < 12; i++) {
            sent.add(HTTP.sendAsync(HttpRequest.newBuilder(URI.create(pod.baseUrl() + "/v1/chat/completions"))
                    .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        await("the pod's queue").atMost(Duration.ofSeconds(10)).until(() -> pod.waiting() >= 8);
        awaitQueues(q -> q >= 8 / 4.0); // the pool's mean queue: that pod's, over four pods
        return sent;
    }

    void awaitQueues(java.util.function.DoublePredicate ok) {
        await("both gateways scrape the queue").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                .until(() -> {
                    for (GatewayHarness g : gateways) {
                        if (!ok.test(g.metric("inference_pool_average_queue_size", "name=\"llama\""))) {
                            return false;
                        }
                    }
                    return true;
                });
    }

}
