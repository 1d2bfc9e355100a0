package io.inferencegateway.rollout;

import static io.inferencegateway.rollout.RolloutTraffic.BASELINE;
import static io.inferencegateway.rollout.RolloutTraffic.CANDIDATE;
import static io.inferencegateway.rollout.RolloutTraffic.rollout;
import static io.inferencegateway.rollout.RolloutTraffic.served;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.inferencegateway.config.RolloutConfig;
import io.inferencegateway.config.RolloutConfig.RolloutState;
import io.inferencegateway.simulator.RedisServer;
import io.inferencegateway.runtime.RedisClientResources;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * Rollouts whose progress lives on a real redis-server: gateways that share it decide on the fleet's numbers, make
 * each transition once, and a gateway started anew resumes where the rollout stood.
 */
class RedisRolloutTest {

    static RedisServer redis;
    static RedisClientResources threads;
    final AtomicLong clock = new AtomicLong(1_000_000);
    RolloutConfig running;

    @BeforeAll
    static void start() throws Exception {
        redis = RedisServer.start();
        threads = new RedisClientResources();
    }

    @AfterAll
    static void stop() throws Exception {
        threads.close();
        redis.close();
    }

    @BeforeEach
    void freshKeys() {
        redis.command("FLUSHALL");
        running = rollout(RolloutState.RUNNING, URI.create(redis.url()));
    }

    Rollouts gateway(MeterRegistry registry) {
        return new Rollouts(RolloutTraffic.meters(registry),
                url -> new RedisProgressStore(url, Duration.ofSeconds(2), threads.get()), clock::get, false);
    }

    /** A gateway that has joined the rollout and read its progress. */
    Rollouts joined(MeterRegistry registry) {
        Rollouts r = gateway(registry);
        r.candidatePercent(running);
        r.analyse().join();
        return r;
    }

    static double transitions(MeterRegistry registry) {
        return registry.find("inference_gateway_rollout_transitions_total").counters().stream()
                .mapToDouble(c -> c.count()).sum();
    }

    @Test
    void twoGatewaysJudgeTheFleetsNumbersAndOnlyOneMakesEachTransition() {
        SimpleMeterRegistry ra = new SimpleMeterRegistry();
        SimpleMeterRegistry rb = new SimpleMeterRegistry();
        try (Rollouts a = joined(ra); Rollouts b = joined(rb)) {
            for (Rollouts g : new Rollouts[] {a, b}) { // each alone has half of minSamples
                served(g::ended, BASELINE, 100, 10);
                served(g::ended, CANDIDATE, 100, 10);
            }
            a.analyse().join();
            b.analyse().join();
            assertThat(b.views().get(0).candidate().requests()).as("the fleet's count").isEqualTo(20);
            assertThat(b.candidatePercent(running)).as("the step's minute is not up").isEqualTo(10);

            clock.addAndGet(60_000);
            CompletableFuture.allOf(a.analyse(), b.analyse()).join(); // both see the step passed at once
            assertThat(a.candidatePercent(running)).isEqualTo(50);
            assertThat(b.candidatePercent(running)).isEqualTo(50);
            assertThat(transitions(ra) + transitions(rb)).as("one transition, by one of them").isEqualTo(1);
        }
    }

    @Test
    void aGatewayStartedAnewResumesWhereTheRolloutStood() {
        try (Rollouts first = joined(new SimpleMeterRegistry())) {
            served(first::ended, BASELINE, 100, 20);
            served(first::ended, CANDIDATE, 100, 20);
            clock.addAndGet(60_000);
            first.analyse().join();
            assertThat(first.candidatePercent(running)).isEqualTo(50);
        }
        try (Rollouts restarted = joined(new SimpleMeterRegistry())) {
            assertThat(restarted.candidatePercent(running)).isEqualTo(50);
            assertThat(restarted.views().get(0).step()).isEqualTo(2);
        }
    }

    @Test
    void aRollbackIsSeenByEveryGateway() {
        try (Rollouts a = joined(new SimpleMeterRegistry()); Rollouts b = joined(new SimpleMeterRegistry())) {
            served(a::ended, BASELINE, 100, 20);
            served(a::ended, CANDIDATE, 300, 20);
            a.analyse().join();
            assertThat(a.candidatePercent(running)).isZero();
            b.analyse().join();
            assertThat(b.candidatePercent(running)).isZero();
            assertThat(b.views().get(0).state()).isEqualTo("rolled_back");
        }
    }

    @Test
    void whileRedisIsUnreachableTheShareIsHeldAndNothingIsPromoted() throws Exception {
        try (Rollouts g = joined(new SimpleMeterRegistry())) {
            served(g::ended, BASELINE, 100, 20);
            served(g::ended, CANDIDATE, 100, 20);
            redis.stop();
            try {
                clock.addAndGet(60_000);
                g.analyse().join();
                assertThat(g.candidatePercent(running)).isEqualTo(10);
                assertThat(g.views().get(0).storeDown()).isTrue();
            } finally {
                redis.restart();
            }
            // Redis came back empty: the rollout begins again, and the counts held meanwhile go to it
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
                g.analyse().join();
                return !g.views().get(0).storeDown();
            });
            assertThat(g.views().get(0).candidate().requests()).isEqualTo(20);
        }
    }
}
