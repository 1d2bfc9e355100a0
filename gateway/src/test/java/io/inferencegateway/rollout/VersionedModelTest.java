package io.inferencegateway.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.config.ModelRewriteConfig;
import io.inferencegateway.domain.ParsedBody;
import io.inferencegateway.domain.ParsedBodyBuilder;
import io.inferencegateway.runtime.GatewayMeters;
import io.micrometer.core.instrument.MeterRegistry;

/** How a model rewrite picks a request's version: by weight, sticky, one way when a share grows (docs/rollouts.md). */
class VersionedModelTest {

    private static final Function<String, String> NO_HEADERS = name -> null;
    private static final int CALLERS = 20_000;

    private final AtomicLong now = new AtomicLong();
    private final StickyVersions sticky = new StickyVersions(StickyVersions.DEFAULT_CAPACITY,
            StickyVersions.DEFAULT_IDLE, now::get);
    private final MeterRegistry registry = GatewayMeters.newRegistry();
    private final RolloutMeters meters = RolloutTraffic.meters(registry);

    private VersionedModel rewrite(String rewrites) throws Exception {
        List<ModelRewriteConfig> config = ConfigLoader.parse("""
                apiVersion: inferencegateway.io/v1alpha1
                kind: InferenceGatewayConfig
                metadata: {name: versions}
                spec:
                  schedulers:
                    - {name: one, modelName: v1, endpoints: ['h:1'], loraAdapters: [v1-sql]}
                    - {name: two, modelName: v2, endpoints: ['h:2']}
                    - {name: three, modelName: v3, endpoints: ['h:3']}
                  modelRewrites:
                """ + rewrites).modelRewrites();
        return ModelVersions.of(config, sticky, meters).rewrite(config.get(0).name());
    }

    private static ParsedBody session(String key) {
        return anonymous().promptCacheKey(key).build();
    }

    private static ParsedBodyBuilder anonymous() {
        return ParsedBody.builder("chat").promptText("hi").promptTokensEstimate(1);
    }

    private static final ParsedBody ANONYMOUS = anonymous().build();

    private static RolloutWeights at(int percent) {
        return r -> percent;
    }

    @Test
    void weightsAreHonouredOverManyConversations() throws Exception {
        VersionedModel chat = rewrite("""
                    - name: chat
                      rules: [{targets: [{model: v1, weight: 70}, {model: v2, weight: 20}, {model: v3, weight: 10}]}]
                """);
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < CALLERS; i++) {
            counts.merge(chat.choose(session("conversation-" + i), NO_HEADERS, null, RolloutWeights.FIRST_STEP), 1,
                    Integer::sum);
        }

        assertThat(counts.get("v1") / (double) CALLERS).isCloseTo(0.70, within(0.02));
        assertThat(counts.get("v2") / (double) CALLERS).isCloseTo(0.20, within(0.02));
        assertThat(counts.get("v3") / (double) CALLERS).isCloseTo(0.10, within(0.02));
        assertThat(registry.get("inference_gateway_version_requests").tags("rewrite", "chat", "target", "v2")
                .counter().count()).isEqualTo(counts.get("v2").doubleValue());
    }

    @Test
    void aConversationStaysOnItsVersionTurnAfterTurn() throws Exception {
        VersionedModel chat = rewrite("""
                    - name: chat
                      rules: [{targets: [{model: v1, weight: 50}, {model: v2, weight: 50}]}]
                """);
        for (int c = 0; c < 100; c++) {
            String first = chat.choose(session("c" + c), NO_HEADERS, null, RolloutWeights.FIRST_STEP);
            for (int turn = 0; turn < 12; turn++) {
                assertThat(chat.choose(session("c" + c), NO_HEADERS, null, RolloutWeights.FIRST_STEP)).isEqualTo(first);
            }
        }
    }

    @Test
    void theSessionKeyIsThePromptCacheKeyElseTheUserElseTheHeaderElseTheTenant() throws Exception {
        VersionedModel chat = rewrite("""
                    - name: chat
                      rules: [{targets: [{model: v1, weight: 50}, {model: v2, weight: 50}]}]
                """);
        ParsedBody both = anonymous().promptCacheKey("cache-key").user("end-user").build();

        assertThat(chat.stickyKey(both, name -> "from-header", "acme")).isEqualTo("cache-key");
        assertThat(chat.stickyKey(anonymous().user("end-user").build(), name -> "from-header", "acme"))
                .isEqualTo("end-user");
        assertThat(chat.stickyKey(ANONYMOUS, name -> name.equals("x-session-id") ? "from-header" : null, "acme"))
                .isEqualTo("from-header");
        assertThat(chat.stickyKey(ANONYMOUS, NO_HEADERS, "acme")).isEqualTo("acme");
        assertThat(chat.stickyKey(ANONYMOUS, NO_HEADERS, null)).isNull();
    }

    @Test
    void tenantStickinessKeepsATenantOnOneVersionWhateverItsConversations() throws Exception {
        VersionedModel chat = rewrite("""
                    - name: chat
                      stickiness: tenant
                      rules: [{targets: [{model: v1, weight: 50}, {model: v2, weight: 50}]}]
                """);
        for (String tenant : List.of("acme", "globex", "initech", "umbrella")) {
            String first = chat.choose(session("a"), NO_HEADERS, tenant, RolloutWeights.FIRST_STEP);
            for (int i = 0; i < 50; i++) {
                assertThat(chat.choose(session("conversation-" + i), NO_HEADERS, tenant, RolloutWeights.FIRST_STEP))
                        .isEqualTo(first);
            }
        }
    }

    @Test
    void requestStickinessAndCallersWithoutAKeyAreSplitPerRequest() throws Exception {
        VersionedModel chat = rewrite("""
                    - name: chat
                      stickiness: request
                      rules: [{targets: [{model: v1, weight: 50}, {model: v2, weight: 50}]}]
                """);
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < 2_000; i++) {
            counts.merge(chat.choose(session("one-conversation"), NO_HEADERS, "acme", RolloutWeights.FIRST_STEP), 1,
                    Integer::sum);
        }

        assertThat(counts.get("v1") / 2000.0).isCloseTo(0.5, within(0.06));
        assertThat(sticky.size()).isZero();
    }

    @Test
    void raisingTheCandidatesShareOnlyMovesBaselineCallersToIt() throws Exception {
        Map<String, String> before = new HashMap<>();
        VersionedModel chat = rolloutRewrite();
        // no table: the hash alone decides, as on a replica that never saw these callers
        for (int percent : new int[] {1, 5, 25, 50, 100}) {
            StickyVersions fresh = new StickyVersions(StickyVersions.DEFAULT_CAPACITY, Duration.ofHours(1), now::get);
            VersionedModel onReplica = ModelVersions.of(List.of(chat.config()), fresh, meters).rewrite("chat");
            int candidates = 0;
            for (int i = 0; i < CALLERS; i++) {
                String caller = "c" + i;
                String version = onReplica.choose(session(caller), NO_HEADERS, null, at(percent));
                String earlier = before.put(caller, version);
                if ("v2".equals(earlier)) {
                    assertThat(version).as("caller %s at %d%%", caller, percent).isEqualTo("v2");
                }
                candidates += version.equals("v2") ? 1 : 0;
            }
            assertThat(candidates / (double) CALLERS).as("share at %d%%", percent)
                    .isCloseTo(percent / 100.0, within(0.015));
        }
    }

    @Test
    void theTableKeepsAConversationOnItsVersionWhenTheWeightsChange() throws Exception {
        VersionedModel chat = rolloutRewrite();
        Map<String, String> first = new HashMap<>();
        for (int i = 0; i < 2_000; i++) {
            first.put("c" + i, chat.choose(session("c" + i), NO_HEADERS, null, at(5)));
        }
        AtomicInteger moved = new AtomicInteger();
        for (int i = 0; i < 2_000; i++) {
            String now50 = chat.choose(session("c" + i), NO_HEADERS, null, at(50));
            if (!now50.equals(first.get("c" + i))) {
                moved.incrementAndGet();
            }
        }
        assertThat(moved).hasValue(0);
        // new conversations get the new split
        int candidates = 0;
        for (int i = 0; i < CALLERS; i++) {
            candidates += chat.choose(session("new" + i), NO_HEADERS, null, at(50)).equals("v2") ? 1 : 0;
        }
        assertThat(candidates / (double) CALLERS).isCloseTo(0.5, within(0.02));
    }

    @Test
    void aVersionWhoseShareFellToNothingGivesItsConversationsUp() throws Exception {
        VersionedModel chat = rolloutRewrite();
        for (int i = 0; i < 500; i++) {
            chat.choose(session("c" + i), NO_HEADERS, null, at(50));
        }
        for (int i = 0; i < 500; i++) {
            assertThat(chat.choose(session("c" + i), NO_HEADERS, null, at(0))).isEqualTo("v1"); // rolled back
        }
    }

    @Test
    void anIdleConversationStartsAfresh() throws Exception {
        VersionedModel chat = rolloutRewrite();
        String caller = null;
        for (int i = 0; caller == null; i++) { // a caller the hash sends to v1 at 5 % and to v2 at 100 %
            if (chat.choose(session("c" + i), NO_HEADERS, null, at(5)).equals("v1")) {
                caller = "c" + i;
            }
        }
        assertThat(chat.choose(session(caller), NO_HEADERS, null, at(99))).isEqualTo("v1"); // kept

        now.addAndGet(StickyVersions.DEFAULT_IDLE.toNanos() + 1);
        // the hash alone now decides; at 99 % nearly all, and this caller unless its bucket is the one left
        int bucket = (int) Long.remainderUnsigned(VersionedModel.hash("chat", caller), 100);
        assertThat(chat.choose(session(caller), NO_HEADERS, null, at(99))).isEqualTo(bucket < 1 ? "v1" : "v2");
    }

    @Test
    void aHeaderMatchReachesItsVersionWhateverTheWeights() throws Exception {
        VersionedModel chat = rewrite("""
                    - name: chat
                      rules:
                        - matches: [{headers: {x-model-version: v2}}, {headers: {x-team: qa, x-model-version: any}}]
                          targets: [{model: v2}]
                        - targets: [{model: v1}]
                """);
        Map<String, String> v2 = Map.of("x-model-version", "v2");
        Map<String, String> qa = Map.of("x-team", "qa", "x-model-version", "any");
        Map<String, String> qaOnly = Map.of("x-team", "qa");

        for (int i = 0; i < 50; i++) {
            assertThat(chat.choose(session("c" + i), v2::get, null, RolloutWeights.FIRST_STEP)).isEqualTo("v2");
            assertThat(chat.choose(session("c" + i), qa::get, null, RolloutWeights.FIRST_STEP)).isEqualTo("v2");
            assertThat(chat.choose(session("c" + i), qaOnly::get, null, RolloutWeights.FIRST_STEP)).isEqualTo("v1");
            assertThat(chat.choose(session("c" + i), NO_HEADERS, null, RolloutWeights.FIRST_STEP)).isEqualTo("v1");
        }
    }

    @Test
    void theHashIsFixedSoThatEveryReplicaPlacesACallerAlike() {
        // a literal, not a second call: another JVM (another replica) must compute the same bucket
        assertThat(VersionedModel.hash("chat", "conversation-1")).isEqualTo(0x2a894b2be7192be5L);
        assertThat(Long.remainderUnsigned(VersionedModel.hash("chat", "conversation-1"), 100)).isEqualTo(45);
        assertThat(VersionedModel.hash("chat", "a")).isNotEqualTo(VersionedModel.hash("chata", ""));
    }

    @Test
    void theTableIsBounded() {
        StickyVersions small = new StickyVersions(64, Duration.ofHours(1), now::get);
        for (long k = 0; k < 10_000; k++) {
            small.put(k * 0x9E3779B97F4A7C15L, "v1");
        }
        assertThat(small.size()).isLessThanOrEqualTo(64);
    }

    private VersionedModel rolloutRewrite() throws Exception {
        return rewrite("""
                    - name: chat
                      rules: [{targets: [{model: v1, weight: 95}, {model: v2, weight: 5}]}]
                      rollout: {baseline: v1, candidate: v2}
                """);
    }
}
