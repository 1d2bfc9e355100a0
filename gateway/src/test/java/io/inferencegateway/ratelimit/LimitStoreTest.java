package io.inferencegateway.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.simulator.RedisServer;
import io.inferencegateway.runtime.RedisClientResources;

/**
 * The two stores behave alike: a reservation fits every scope or none is counted, a commit returns tokens to the
 * window the request was counted in. The Redis one runs the Lua scripts on a real redis-server.
 */
class LimitStoreTest {

    static RedisServer redis;
    static RedisClientResources redisThreads;
    static final AtomicLong keyspace = new AtomicLong();

    @BeforeAll
    static void start() throws Exception {
        redis = RedisServer.start();
        redisThreads = new RedisClientResources();
    }

    @AfterAll
    static void stop() throws Exception {
        redisThreads.close();
        redis.close();
    }

    static Stream<String> stores() {
        return Stream.of("in-memory", "redis");
    }

    static LimitStore store(String kind) {
        return kind.equals("redis") ? new RedisLimitStore(java.net.URI.create(redis.url()), java.time.Duration.ofSeconds(2),
                redisThreads.get())
                : new LocalLimitStore(System::currentTimeMillis);
    }

    /** A long window, so that a test does not straddle two. */
    static final long WINDOW = 3_600_000;

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void aReservationMustFitEveryScopeAndIsCountedInAllOrNone(String kind) {
        try (LimitStore store = store(kind)) {
            String t = "test:" + kind + ":" + keyspace.incrementAndGet();
            Scope tenant = new Scope(t, 0, 100);
            Scope model = new Scope(t + ":model", 2, 0);
            List<Scope> both = List.of(tenant, model);
            Verdict first = store.reserve(both, 40, WINDOW).join();
            assertThat(first.admitted()).isTrue();
            assertThat(first.tokens(0)).isEqualTo(40);
            assertThat(first.requests(1)).isEqualTo(1);
            assertThat(store.reserve(both, 40, WINDOW).join().admitted()).isTrue();
            // the model's two requests are used up: refused, and the tenant's tokens stay at 80
            Verdict third = store.reserve(both, 10, WINDOW).join();
            assertThat(third.admitted()).isFalse();
            assertThat(third.refused()).isEqualTo(Verdict.Limit.REQUESTS);
            Verdict tenantOnly = store.reserve(List.of(tenant), 30, WINDOW).join();
            assertThat(tenantOnly.admitted()).isFalse();
            assertThat(tenantOnly.refused()).isEqualTo(Verdict.Limit.TOKENS);
            assertThat(tenantOnly.tokens(0)).isEqualTo(80);
            assertThat(store.reserve(List.of(tenant), 20, WINDOW).join().tokens(0)).isEqualTo(100);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void aCommitGivesBackWhatARequestReservedAndDidNotUse(String kind) throws Exception {
        try (LimitStore store = store(kind)) {
            Scope s = new Scope("test:" + kind + ":" + keyspace.incrementAndGet(), 0, 1000);
            Verdict v = store.reserve(List.of(s), 900, WINDOW).join();
            assertThat(store.reserve(List.of(s), 200, WINDOW).join().admitted()).isFalse();
            store.commit(List.of(s), v.window(), 300 - 900); // it used 300 of its 900
            // the commit is asynchronous on Redis; the next reserve on the same connection runs after it
            Verdict after = store.reserve(List.of(s), 200, WINDOW).join();
            assertThat(after.admitted()).isTrue();
            assertThat(after.tokens(0)).isEqualTo(500);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void aCommitToAWindowThatEndedChangesNothing(String kind) {
        try (LimitStore store = store(kind)) {
            Scope s = new Scope("test:" + kind + ":" + keyspace.incrementAndGet(), 0, 1000);
            Verdict v = store.reserve(List.of(s), 100, WINDOW).join();
            store.commit(List.of(s), v.window() - 1, -100);
            assertThat(store.reserve(List.of(s), 0, WINDOW).join().tokens(0)).isEqualTo(100);
        }
    }
}
