package io.inferencegateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
 * Sessions and versions together, as a chat product meets them: the client asks for {@code chat}, which two versions
 * serve half and half (docs/rollouts.md), through two gateway replicas that each turn alternates between. Every turn of
 * a conversation reaches the same version and, within it, the same pod (docs/sessions.md), though neither replica
 * tells the other anything.
 */
class ConversationVersionEndToEndTest {

    static final int CONVERSATIONS = 8;
    static final int TURNS = 12;

    final List<SimulatedFleet> fleets = new ArrayList<>();
    final List<GatewayHarness> gateways = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (GatewayHarness g : gateways) {
            g.close();
        }
        for (SimulatedFleet f : fleets) {
            f.close();
        }
    }

    @Test
    void everyTurnOfAConversationReachesOneVersionAndOnePodThroughEitherReplica() throws Exception {
        SimulatedFleet v1 = fleet("v1");
        SimulatedFleet v2 = fleet("v2");
        List<OpenAIClient> clients = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            GatewayHarness g = GatewayHarness.start("""
                    kind: InferenceGatewayConfig
                    spec:
                      schedulers:
                        - {name: one, modelName: v1, endpoints: [%s], replicas: {count: 2}, metricsInterval: 50ms}
                        - {name: two, modelName: v2, endpoints: [%s], replicas: {count: 2}, metricsInterval: 50ms}
                      modelRewrites:
                        - name: chat
                          rules:
                            - targets: [{model: v1, weight: 50}, {model: v2, weight: 50}]
                    """.formatted(GatewayHarness.quotedList(v1.endpoints()),
                    GatewayHarness.quotedList(v2.endpoints())));
            gateways.add(g);
            clients.add(OpenAIOkHttpClient.builder().baseUrl(g.baseUrl() + "/v1").apiKey("unused").maxRetries(0)
                    .build());
        }

        Map<String, Set<String>> versions = new LinkedHashMap<>();
        Map<String, Set<Integer>> pods = new LinkedHashMap<>();
        Map<String, List<String[]>> histories = new LinkedHashMap<>();
        for (int t = 0; t < TURNS; t++) {
            for (int c = 0; c < CONVERSATIONS; c++) {
                String id = "conversation-" + c;
                List<String[]> history = histories.computeIfAbsent(id, k -> new ArrayList<>());
                ChatCompletionCreateParams.Builder p = ChatCompletionCreateParams.builder().model("chat")
                        .promptCacheKey(id).maxCompletionTokens(6)
                        .addSystemMessage("You help with " + id + ".");
                for (String[] turn : history) {
                    p.addUserMessage(turn[0]).addAssistantMessage(turn[1]);
                }
                String question = "Question " + t + " of " + id + ": and what follows from that?";
                p.addUserMessage(question);
                long[] before = received();
                ChatCompletion answer = clients.get((t + c) % 2).chat().completions().create(p.build());
                long[] after = received();
                history.add(new String[] {question, answer.choices().get(0).message().content().orElse("")});
                versions.computeIfAbsent(id, k -> new HashSet<>()).add(answer.model());
                for (int pod = 0; pod < after.length; pod++) {
                    if (after[pod] > before[pod]) {
                        pods.computeIfAbsent(id, k -> new HashSet<>()).add(pod);
                    }
                }
            }
        }

        Set<String> seen = new HashSet<>();
        versions.forEach((id, v) -> {
            assertThat(v).as("%s's versions", id).hasSize(1);
            seen.addAll(v);
        });
        pods.forEach((id, p) -> assertThat(p).as("%s's pods", id).hasSize(1));
        assertThat(seen).as("the conversations split over both versions").containsExactlyInAnyOrder("v1", "v2");
    }

    SimulatedFleet fleet(String model) throws Exception {
        SimulatedFleet f = SimulatedFleet.start(FleetOptions.builder().model(model).pods(3).timeScale(5).build());
        fleets.add(f);
        return f;
    }

    /** Requests each pod of both fleets received so far, v1's pods first. */
    long[] received() {
        return fleets.stream().flatMapToLong(f -> f.pods().stream().mapToLong(SimulatedPod::requestsReceived))
                .toArray();
    }
}
