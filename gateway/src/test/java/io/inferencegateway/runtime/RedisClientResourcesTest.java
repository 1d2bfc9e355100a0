package io.inferencegateway.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import io.inferencegateway.config.ConfigLoader;
import io.inferencegateway.config.TenantConfig;
import io.inferencegateway.domain.ParsedBody;
import io.inferencegateway.domain.NanoClock;
import io.inferencegateway.simulator.RedisServer;
import io.inferencegateway.ratelimit.RateLimiter;

/**
 * A gateway's Redis clients share one set of Lettuce threads: made for the first of them, ended when the gateway
 * closes. Lettuce names a thread {@code <kind>-<pool number>-<thread number>}, so one set is one pool number per kind.
 */
class RedisClientResourcesTest {

    static final Duration SOON = Duration.ofSeconds(10);

    static Set<Thread> lettuceThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("lettuce-"))
                .collect(Collectors.toSet());
    }

    /** {@code lettuce-nioEventLoop-4-1} → {@code lettuce-nioEventLoop}. */
    static String kind(Thread t) {
        return t.getName().replaceFirst("-\\d+-\\d+$", "");
    }

    /** {@code lettuce-nioEventLoop-4-1} → {@code lettuce-nioEventLoop-4}. */
    static String pool(Thread t) {
        return t.getName().replaceFirst("-\\d+$", "");
    }

    @Test
    void rateLimitsAndSharedPlacementOnRedisShareOneSetOfLettuceThreadsThatClosingTheGatewayEnds() throws Exception {
        try (RedisServer redis = RedisServer.start()) {
            Set<Thread> before = lettuceThreads();
            Gateway gateway = new Gateway(ConfigLoader.parse("""
                    kind: InferenceGatewayConfig
                    spec:
                      schedulers:
                        - {name: a, modelName: model-a, endpoints: ['127.0.0.1:8001'],
                           replicas: {count: 2, placement: shared, redisUrl: '%1$s'}}
                      tenants:
                        - {name: limited, limits: {requestsPerMinute: 1000}}
                      rateLimits:
                        redis: {url: '%1$s'}
                    """.formatted(redis.url())), NanoClock.SYSTEM);
            Set<Thread> ours = new HashSet<>();
            try {
                // both clients at work: the placement's subscriber listens, the limits' store answers a reservation
                await().atMost(SOON).until(() -> ":1".equals(redis.command("PUBLISH inference-gateway:prefixes:a x")));
                TenantConfig tenant = gateway.config().tenant("limited");
                assertThat(gateway.rateLimiter().admit(tenant, RateLimiter.scopes(tenant, "model-a"),
                        ParsedBody.builder("model-a").promptText("hi").promptTokensEstimate(1)
                                .build()).join().admitted()).isTrue();

                ours.addAll(lettuceThreads());
                ours.removeAll(before);
                Map<String, Set<String>> poolsByKind = ours.stream().collect(Collectors.groupingBy(
                        RedisClientResourcesTest::kind, Collectors.mapping(RedisClientResourcesTest::pool,
                                Collectors.toSet())));
                assertThat(poolsByKind.keySet()).as("the I/O threads serve both").anyMatch(k -> k.endsWith("EventLoop"));
                assertThat(poolsByKind).allSatisfy((kind, pools) -> assertThat(pools).as(kind).hasSize(1));
                assertThat(ours).filteredOn(t -> kind(t).endsWith("EventLoop"))
                        .hasSizeLessThanOrEqualTo(RedisClientResources.IO_THREADS);
            } finally {
                gateway.close();
            }
            await().atMost(SOON).until(() -> ours.stream().noneMatch(Thread::isAlive));
        }
    }

    @Test
    void aGatewayWithoutRedisStartsNoLettuceThread() throws Exception {
        Set<Thread> before = lettuceThreads();
        Gateway gateway = new Gateway(ConfigLoader.parse("""
                kind: InferenceGatewayConfig
                spec:
                  schedulers:
                    - {name: a, modelName: model-a, endpoints: ['127.0.0.1:8001']}
                  tenants:
                    - {name: limited, limits: {requestsPerMinute: 1000}}
                """), NanoClock.SYSTEM);
        try {
            Set<Thread> added = lettuceThreads();
            added.removeAll(before);
            assertThat(added).isEmpty();
        } finally {
            gateway.close();
        }
    }
}
