package io.inferencegateway.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.config.GatewayConfig;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.simulator.RedisServer;
import io.inferencegateway.pool.ModelPool;
import io.inferencegateway.pool.PoolChanges;
import io.inferencegateway.scheduling.PluginPolicy;
import io.inferencegateway.scheduling.latency.LatencyPredictor;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

class GatewayReloadTest {

    static GatewayConfig config(String schedulers) throws Exception {
        return ConfigLoader.parse("kind: InferenceGatewayConfig\nspec:\n  schedulers:\n" + schedulers);
    }

    static final String A = "    - {name: a, modelName: model-a, endpoints: ['127.0.0.1:8001']}\n";
    static final String B = "    - {name: b, modelName: model-b, endpoints: ['127.0.0.1:8002']}\n";
    static final String B_ROUND_ROBIN = "    - {name: b, modelName: model-b, policy: round-robin, endpoints: ['127.0.0.1:8002']}\n";
    static final String C = "    - {name: c, modelName: model-c, loraAdapters: [c-sql], endpoints: ['127.0.0.1:8003']}\n";

    @Test
    void unchangedPoolsAreKeptChangedOnesRebuiltAndTheSetSwappedWhole() throws Exception {
        Gateway gateway = new Gateway(config(A + B), NanoClock.SYSTEM);
        ModelPool a = gateway.pools().pool("a");
        ModelPool b = gateway.pools().pool("b");
        AtomicInteger listened = new AtomicInteger();
        gateway.onReload(listened::incrementAndGet);

        PoolChanges changes = gateway.reload(config(A + B_ROUND_ROBIN + C));

        assertThat(changes).isEqualTo(new PoolChanges(java.util.List.of("c"), java.util.List.of(), java.util.List.of("b")));
        assertThat(gateway.pools().pool("a")).isSameAs(a);
        assertThat(gateway.pools().pool("b")).isNotSameAs(b);
        assertThat(gateway.pools().resolve("c-sql").pool().name()).isEqualTo("c");
        assertThat(gateway.config().pools()).hasSize(3);
        assertThat(listened).hasValue(1);

        PoolChanges removal = gateway.reload(config(C));
        assertThat(removal.removed()).containsExactly("a", "b");
        assertThat(gateway.pools().resolve("model-a")).isNull();
        assertThat(gateway.reload(config(C)).isEmpty()).isTrue();
        assertThat(gateway.reload(config(C)).toString()).isEqualTo("no pool changed");
    }

    @Test
    void aPoolsLatencyPredictorOutlivesAReloadThatKeepsItsModelAndStartsAfreshForAnotherModel() throws Exception {
        Gateway gateway = new Gateway(config(A), NanoClock.SYSTEM);
        LatencyPredictor learned = predictor(gateway, "a");

        gateway.reload(config("    - {name: a, modelName: model-a, metricsInterval: 100ms, endpoints: ['127.0.0.1:8001']}\n"));
        assertThat(predictor(gateway, "a")).as("a changed pool, the same model").isSameAs(learned);

        gateway.reload(config("    - {name: a, modelName: model-z, endpoints: ['127.0.0.1:8001']}\n"));
        assertThat(predictor(gateway, "a")).as("another model: what was learned no longer holds").isNotSameAs(learned);
    }

    static LatencyPredictor predictor(Gateway gateway, String pool) {
        return ((PluginPolicy) gateway.pools().pool(pool).policy()).predictor();
    }

    static String sharedThrough(RedisServer redis) {
        return "    - {name: a, modelName: model-a, endpoints: ['127.0.0.1:8001'],\n"
                + "       replicas: {count: 2, placement: shared, redisUrl: '" + redis.url() + "'}}\n";
    }

    /** How many subscribers a message on pool a's channel reaches; the message itself is too short to be read. */
    static String subscribersOfPoolA(RedisServer redis) {
        return redis.command("PUBLISH inference-gateway:prefixes:a x");
    }

    static Double sharingUp(MeterRegistry registry) {
        Gauge up = registry.find("inference_gateway_prefix_sharing_up").tag("pool", "a").gauge();
        return up == null ? null : up.value();
    }

    @Test
    void aPoolMovedToAnotherRedisLeavesTheOldOneAndItsMetersFollowTheNewOne() throws Exception {
        try (RedisServer first = RedisServer.start(); RedisServer second = RedisServer.start()) {
            MeterRegistry registry = GatewayMeters.newRegistry();
            Gateway gateway = new Gateway(config(sharedThrough(first)), NanoClock.SYSTEM, registry);
            try {
                await().atMost(Duration.ofSeconds(10)).until(() -> ":1".equals(subscribersOfPoolA(first)));
                await().atMost(Duration.ofSeconds(10)).until(() -> Double.valueOf(1).equals(sharingUp(registry)));

                gateway.reload(config(sharedThrough(second)));

                await().atMost(Duration.ofSeconds(10)).until(() -> ":1".equals(subscribersOfPoolA(second)));
                await().atMost(Duration.ofSeconds(10)).until(() -> ":0".equals(subscribersOfPoolA(first)));
                second.stop(); // the gauge reads the client now serving the pool, not the first one
                await().atMost(Duration.ofSeconds(10)).until(() -> Double.valueOf(0).equals(sharingUp(registry)));

                gateway.reload(config(A));
                assertThat(sharingUp(registry)).as("a pool that no longer shares has no sharing meters").isNull();
                assertThat(registry.find("inference_gateway_prefix_sharing_messages").meters()).isEmpty();
            } finally {
                gateway.close();
            }
        }
    }

    @Test
    void theParserDecodesAsMuchOfAPromptAsSomePoolsPolicyReads() throws Exception {
        String wide = "    - {name: d, modelName: model-d, endpoints: ['127.0.0.1:8004'],\n"
                + "       plugins: [{type: prefix-cache-scorer, parameters: {blockSize: 128, maxBlocks: 512}}]}\n";
        Gateway gateway = new Gateway(config(B_ROUND_ROBIN), NanoClock.SYSTEM);
        assertThat(gateway.pools().promptChars()).as("round-robin reads no prompt").isZero();

        gateway.reload(config(A + B_ROUND_ROBIN));
        assertThat(gateway.pools().promptChars()).as("the default prefix scorer: 256 blocks of 64").isEqualTo(16_384);

        gateway.reload(config(A + wide));
        assertThat(gateway.pools().promptChars()).isEqualTo(128 * 512);
    }
}
