package io.inferencegateway.scheduling.prefix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.simulator.RedisServer;
import io.inferencegateway.runtime.RedisClientResources;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/** Two replicas' sharings of one pool over a real Redis: how each measures the pool's traffic against its own. */
class RedisPrefixSharingTest {

    static final Duration WINDOW = Duration.ofMillis(500);
    static final Endpoint POD = new Endpoint("10.0.0.1", 8000);
    static final long[] HASHES = {1L, 2L, 3L};

    /** Prefix-sharing meters bound to a registry of their own, as the gateway binds its own. */
    static PrefixSharingMeters meters() {
        PrefixSharingMeters meters = new PrefixSharingMeters();
        meters.bindTo(new SimpleMeterRegistry());
        return meters;
    }

    @Test
    void eachReplicaMeasuresThePoolsDecisionsAgainstItsOwn() throws Exception {
        try (RedisServer redis = RedisServer.start();
                RedisClientResources threadsOfA = new RedisClientResources();
                RedisClientResources threadsOfB = new RedisClientResources();
                RedisPrefixSharing a = new RedisPrefixSharing(URI.create(redis.url()), threadsOfA.get(),
                        meters(), WINDOW);
                RedisPrefixSharing b = new RedisPrefixSharing(URI.create(redis.url()), threadsOfB.get(),
                        meters(), WINDOW)) {
            PrefixSharing.Feed fa = a.forPool("llama").join((hashes, count, endpoint, blocks) -> { });
            PrefixSharing.Feed fb = b.forPool("llama").join((hashes, count, endpoint, blocks) -> { });
            await().atMost(Duration.ofSeconds(10)).until(() -> fa.live() && fb.live());
            assertThat(fa.trafficFactor()).as("nothing decided yet").isNaN();

            // a makes one decision in three, b two: behind an even balancer that is 3 replicas, a carrying one
            long until = System.nanoTime() + 4 * WINDOW.toNanos();
            while (System.nanoTime() < until) {
                fa.publish(HASHES, HASHES.length, POD, 100);
                fb.publish(HASHES, HASHES.length, POD, 100);
                fb.publish(HASHES, HASHES.length, POD, 100);
                Thread.sleep(2);
            }
            assertThat(fa.trafficFactor()).isCloseTo(3.0, within(0.3));
            assertThat(fb.trafficFactor()).isCloseTo(1.5, within(0.15));

            // b alone now: a's own decisions are too few to tell, b carries everything
            until = System.nanoTime() + 3 * WINDOW.toNanos();
            while (System.nanoTime() < until) {
                fb.publish(HASHES, HASHES.length, POD, 100);
                Thread.sleep(2);
            }
            assertThat(fa.trafficFactor()).isNaN();
            assertThat(fb.trafficFactor()).isCloseTo(1.0, within(0.01));
        }
    }
}
