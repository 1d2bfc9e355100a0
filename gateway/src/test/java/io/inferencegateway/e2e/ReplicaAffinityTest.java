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

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;

import io.inferencegateway.simulator.RedisServer;
import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.testing.GatewayHarness;

/**
 * Two active gateway replicas in front of one simulated fleet, requests alternating between them as a
 * Kubernetes Service would spread them. With {@code replicas: {count: 2}} both send each shared system
 * prompt to the same pod (its rendezvous home); when one replica goes away, the other keeps every prompt where
 * it was. With {@code placement: shared} on a real Redis they hear each other's decisions: the tests of that use a
 * profile of the prefix-cache scorer and a weighted random picker only, so a prompt no index knows goes to a pod at
 * random, and replicas that learn only from their own traffic split a prompt over pods.
 *
 * <p>The contrast with independent replicas is measured under load by {@code bench --replicas}: with requests one
 * at a time, as here, independent replicas often agree too, since both route a group's first question by the same
 * fresh scrapes of idle pods.
 */
class ReplicaAffinityTest {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    static final int GROUPS = 8;
    static final int QUESTIONS = 6;

    static final String PREFIX_ONLY = "plugins: [{type: prefix-cache-scorer}, {type: weighted-random-picker}]";
    static final HttpClient HTTP = HttpClient.newHttpClient();

    RedisServer redis;
    SimulatedFleet fleet;
    final List<GatewayHarness> gateways = new ArrayList<>();
    final List<OpenAIClient> clients = new ArrayList<>();

    void start(String... replicaLines) throws Exception {
        fleet = SimulatedFleet.start(FleetOptions.builder().model(MODEL).pods(4).timeScale(5).build());
        List<String> lines = new ArrayList<>(List.of("policy: gpu-aware", "metricsInterval: 50ms"));
        // on a busy machine a scrape can come late; the fallback keeps the placement, but scoring is what is tested
        lines.addAll(List.of(replicaLines));
        for (int i = 0; i < 2; i++) {
            GatewayHarness g = GatewayHarness.start(GatewayHarness.fleetConfig(fleet, MODEL, lines.toArray(String[]::new)));
            gateways.add(g);
            clients.add(OpenAIOkHttpClient.builder().baseUrl(g.baseUrl() + "/v1").apiKey("unused").maxRetries(0).build());
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
        if (redis != null) {
            redis.close();
        }
    }

    void startShared() throws Exception {
        redis = RedisServer.start();
        start(PREFIX_ONLY, "metricsStalenessThreshold: 2s",
                "replicas: {count: 2, placement: shared, redisUrl: \"" + redis.url() + "\"}");
    }

    /** A system prompt of about 1,300 characters (20 prefix blocks), different for every group. */
    static String system(int group) {
        StringBuilder sb = new StringBuilder("You are assistant number " + group + ". ");
        while (sb.length() < 1300) {
            sb.append("Group ").append(group).append(" follows its own long house rules, rule ").append(sb.length())
                    .append(". ");
        }
        return sb.toString();
    }

    /**
     * Sends every group's questions one at a time, round-robin over {@code replicas}, and returns for each group
     * the pod index that served each of its questions (read from the pods' own request counters).
     */
    Map<Integer, List<Integer>> ask(List<Integer> replicas, int fromQuestion, int toQuestion) {
        return ask(replicas, 0, fromQuestion, toQuestion);
    }

    /** As above, for the groups {@code firstGroup .. firstGroup + GROUPS - 1} (other system prompts). */
    Map<Integer, List<Integer>> ask(List<Integer> replicas, int firstGroup, int fromQuestion, int toQuestion) {
        Map<Integer, List<Integer>> podsByGroup = new LinkedHashMap<>();
        for (int q = fromQuestion; q < toQuestion; q++) {
            for (int g = firstGroup; g < firstGroup + GROUPS; g++) {
                long[] before = received();
                OpenAIClient client = clients.get(replicas.get(q % replicas.size())); // a group's turns alternate
                ChatCompletion c = client.chat().completions().create(ChatCompletionCreateParams.builder().model(MODEL)
                        .addSystemMessage(system(g)).addUserMessage("question " + q + " of group " + g)
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

    @Test
    void twoAwareReplicasSendEverySharedPromptToOnePod() throws Exception {
        start("replicas: {count: 2}", "metricsStalenessThreshold: 2s");
        Map<Integer, List<Integer>> pods = ask(List.of(0, 1), 0, QUESTIONS);
        assertThat(groupsOnOnePod(pods)).as("groups whose questions all went to one pod: %s", pods).isEqualTo(GROUPS);
        Set<Integer> used = new HashSet<>();
        pods.values().forEach(used::addAll);
        assertThat(used).as("the groups' homes spread over the fleet").hasSizeGreaterThan(1);
    }

    @Test
    void whenOneReplicaGoesAwayTheOtherKeepsEveryPromptOnItsPod() throws Exception {
        start("replicas: {count: 2}", "metricsStalenessThreshold: 2s");
        Map<Integer, List<Integer>> before = ask(List.of(0, 1), 0, QUESTIONS / 2);
        gateways.get(1).close();
        gateways.remove(1);
        Map<Integer, List<Integer>> after = ask(List.of(0), QUESTIONS / 2, QUESTIONS);
        for (int g = 0; g < GROUPS; g++) {
            assertThat(new HashSet<>(after.get(g))).as("group %d before %s, after %s", g, before.get(g), after.get(g))
                    .containsExactly(before.get(g).get(0));
        }
    }

    @Test
    void sharedReplicasSendEveryPromptWhereItsFirstRequestWent() throws Exception {
        startShared();
        awaitSharing(true);

        Map<Integer, List<Integer>> pods = ask(List.of(0, 1), 0, 4);

        assertThat(groupsOnOnePod(pods)).as("groups whose questions all went to one pod: %s", pods).isEqualTo(GROUPS);
        for (GatewayHarness g : gateways) {
            assertThat(g.metric("inference_gateway_prefix_sharing_messages_total", "direction=\"received\""))
                    .as("decisions heard from the other replica").isGreaterThanOrEqualTo(GROUPS * 2);
        }
    }

    @Test
    void independentReplicasSplitThePromptsTheyLearnApart() throws Exception {
        start(PREFIX_ONLY, "metricsStalenessThreshold: 2s");

        Map<Integer, List<Integer>> pods = ask(List.of(0, 1), 0, 4);

        // each group's first question goes to a random pod on each replica: all eight agree by chance 1 in 65,536
        assertThat(groupsOnOnePod(pods)).as("groups whose questions all went to one pod: %s", pods).isLessThan(GROUPS);
    }

    @Test
    void withoutRedisNewPromptsGoToTheirHomeAndWithItBackSharingResumes() throws Exception {
        startShared();
        awaitSharing(true);
        redis.stop();
        awaitSharing(false);

        Map<Integer, List<Integer>> whileAway = ask(List.of(0, 1), 0, 4);

        assertThat(groupsOnOnePod(whileAway)).as("each new prompt on its rendezvous home: %s", whileAway)
                .isEqualTo(GROUPS);
        assertThat(gateways.get(0).metric("inference_gateway_prefix_sharing_messages_total", "direction=\"dropped\""))
                .isGreaterThan(0);

        redis.restart();
        awaitSharing(true);
        double heard = gateways.get(1).metric("inference_gateway_prefix_sharing_messages_total",
                "direction=\"received\"");
        Map<Integer, List<Integer>> back = ask(List.of(0, 1), 100, 0, 4);

        assertThat(groupsOnOnePod(back)).as("groups whose questions all went to one pod: %s", back).isEqualTo(GROUPS);
        assertThat(gateways.get(1).metric("inference_gateway_prefix_sharing_messages_total", "direction=\"received\""))
                .isGreaterThan(heard);
    }

    /** Waits until every replica reports the sharing up (or down). */
    void awaitSharing(boolean up) {
        await("prefix sharing " + (up ? "up" : "down") + " on every replica").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(50)).until(() -> {
                    for (GatewayHarness g : gateways) {
                        if (g.metric("inference_gateway_prefix_sharing_up", "pool=\"llama\"") != (up ? 1 : 0)) {
                            return false;
                        }
                    }
                    return true;
                });
    }

}
