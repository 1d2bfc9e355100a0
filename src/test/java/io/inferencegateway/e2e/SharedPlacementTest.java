package io.inferencegateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;

import io.inferencegateway.lab.bench.gateway.RedisServer;
import io.inferencegateway.lab.simulator.FleetOptions;
import io.inferencegateway.lab.simulator.SimulatedFleet;
import io.inferencegateway.testing.GatewayHarness;

/**
 * Two gateway replicas with {@code replicas.placement: shared} on a real Redis, in front of one simulated fleet,
 * requests alternating between them. The profile is the prefix-cache scorer and a weighted random picker only, so a
 * prompt no index knows goes to a pod at random: replicas that learn only from their own traffic split a shared
 * prompt over pods, and replicas that hear each other's decisions send it where its first request went.
 */
class SharedPlacementTest {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static final int GROUPS = 8;
    static final HttpClient HTTP = HttpClient.newHttpClient();

    RedisServer redis;
    SimulatedFleet fleet;
    final List<GatewayHarness> gateways = new ArrayList<>();
    final List<OpenAIClient> clients = new ArrayList<>();

    void start(String... replicaLines) throws Exception {
        fleet = SimulatedFleet.start(FleetOptions.builder().model(MODEL).pods(4).timeScale(5).build());
        List<String> lines = new ArrayList<>(List.of("policy: gpu-aware", "metricsInterval: 50ms",
                "metricsStalenessThreshold: 2s",
                "plugins: [{type: prefix-cache-scorer}, {type: weighted-random-picker}]"));
        lines.addAll(List.of(replicaLines));
        for (int i = 0; i < 2; i++) {
            GatewayHarness g = GatewayHarness.start(GatewayHarness.fleetConfig(fleet, MODEL, lines.toArray(String[]::new)));
            gateways.add(g);
            clients.add(OpenAIOkHttpClient.builder().baseUrl(g.baseUrl() + "/v1").apiKey("unused").maxRetries(0).build());
        }
    }

    void startShared() throws Exception {
        redis = RedisServer.start();
        start("replicas: {count: 2, placement: shared, redisUrl: \"" + redis.url() + "\"}");
    }

    @AfterEach
    void stop() throws Exception {
        for (GatewayHarness g : gateways) {
            g.close();
        }
        if (fleet != null) {
            fleet.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void sharedReplicasSendEveryPromptWhereItsFirstRequestWent() throws Exception {
        startShared();
        awaitSharing(true);

        Map<Integer, List<Integer>> pods = ask(0, 4);

        assertThat(groupsOnOnePod(pods)).as("groups whose questions all went to one pod: %s", pods).isEqualTo(GROUPS);
        for (GatewayHarness g : gateways) {
            assertThat(metric(g, "inference_gateway_prefix_sharing_messages_total", "direction=\"received\""))
                    .as("decisions heard from the other replica").isGreaterThanOrEqualTo(GROUPS * 2);
        }
    }

    @Test
    void independentReplicasSplitThePromptsTheyLearnApart() throws Exception {
        start();

        Map<Integer, List<Integer>> pods = ask(0, 4);

        // each group's first question goes to a random pod on each replica: all eight agree by chance 1 in 65,536
        assertThat(groupsOnOnePod(pods)).as("groups whose questions all went to one pod: %s", pods).isLessThan(GROUPS);
    }

    @Test
    void withoutRedisNewPromptsGoToTheirHomeAndWithItBackSharingResumes() throws Exception {
        startShared();
        awaitSharing(true);
        redis.stop();
        awaitSharing(false);

        Map<Integer, List<Integer>> whileAway = ask(0, 4);

        assertThat(groupsOnOnePod(whileAway)).as("each new prompt on its rendezvous home: %s", whileAway)
                .isEqualTo(GROUPS);
        assertThat(metric(gateways.get(0), "inference_gateway_prefix_sharing_messages_total", "direction=\"dropped\""))
                .isGreaterThan(0);

        redis.restart();
        awaitSharing(true);
        double heard = metric(gateways.get(1), "inference_gateway_prefix_sharing_messages_total",
                "direction=\"received\"");
        Map<Integer, List<Integer>> back = ask(100, 104);

        assertThat(groupsOnOnePod(back)).as("groups whose questions all went to one pod: %s", back).isEqualTo(GROUPS);
        assertThat(metric(gateways.get(1), "inference_gateway_prefix_sharing_messages_total", "direction=\"received\""))
                .isGreaterThan(heard);
    }

    /** Waits until every replica reports the sharing up (or down). */
    void awaitSharing(boolean up) throws Exception {
        for (int i = 0; i < 200; i++) {
            boolean all = true;
            for (GatewayHarness g : gateways) {
                all &= metric(g, "inference_gateway_prefix_sharing_up", "pool=\"llama\"") == (up ? 1 : 0);
            }
            if (all) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("prefix sharing never became " + (up ? "up" : "down"));
    }

    /** A system prompt of about 1,300 characters (20 prefix blocks), different for every group. */
    static String system(int group) {
        StringBuilder sb = new StringBuilder("You are assistant number " + group + ". ");
        while (sb.length() < 1300) {
            sb.append("Group ").append(group).append(" keeps its own long house rules, rule ").append(sb.length())
                    .append(". ");
        }
        return sb.toString();
    }

    /**
     * Sends {@code questions} questions to each of groups {@code firstGroup..firstGroup+GROUPS}, one at a time, a
     * group's questions alternating between the replicas; returns the pods that served each group (read from the pods' own request counters).
     */
    Map<Integer, List<Integer>> ask(int firstGroup, int questions) {
        Map<Integer, List<Integer>> podsByGroup = new LinkedHashMap<>();
        for (int q = 0; q < questions; q++) {
            for (int g = firstGroup; g < firstGroup + GROUPS; g++) {
                long[] before = received();
                ChatCompletion c = clients.get(q % 2).chat().completions().create(ChatCompletionCreateParams
                        .builder().model(MODEL).addSystemMessage(system(g)).addUserMessage("question " + q)
                        .maxCompletionTokens(2).build());
                assertThat(c.choices()).isNotEmpty();
                long[] after = received();
                int pod = -1;
                for (int p = 0; p < after.length; p++) {
                    if (after[p] > before[p]) {
                        pod = p;
                    }
                }
                podsByGroup.computeIfAbsent(g, k -> new ArrayList<>()).add(pod);
            }
        }
        return podsByGroup;
    }

    long[] received() {
        return fleet.pods().stream().mapToLong(p -> p.requestsReceived()).toArray();
    }

    static int groupsOnOnePod(Map<Integer, List<Integer>> podsByGroup) {
        return (int) podsByGroup.values().stream().filter(pods -> new HashSet<>(pods).size() == 1).count();
    }

    /** The value of the first series of {@code name} whose labels contain {@code label}; NaN when there is none. */
    static double metric(GatewayHarness gateway, String name, String label) throws Exception {
        String text = HTTP.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        for (String line : text.lines().toList()) {
            if (line.startsWith(name + "{") && line.contains(label)) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return Double.NaN;
    }
}
