package io.inferencegateway.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.inferencegateway.config.FailoverConfig;
import io.inferencegateway.config.OutlierConfig;
import io.inferencegateway.domain.Endpoint;

/** Ejection, its growing backoff, probation and readmission, and the pool share cap, on a clock the test moves. */
class OutlierDetectorTest {

    static final Endpoint A = Endpoint.parse("10.0.0.1:8000");
    static final Endpoint B = Endpoint.parse("10.0.0.2:8000");
    static final Endpoint C = Endpoint.parse("10.0.0.3:8000");
    static final Endpoint D = Endpoint.parse("10.0.0.4:8000");
    static final List<Endpoint> POOL = List.of(A, B, C, D);

    final AtomicLong now = new AtomicLong(1_000);
    final List<String> events = new ArrayList<>();
    final OutlierConfig config = new OutlierConfig(3, 50, 10, Duration.ofSeconds(10), Duration.ofSeconds(30),
            Duration.ofSeconds(75), 50);
    final OutlierDetector detector = detector(config, POOL.size());

    OutlierDetector detector(OutlierConfig c, int size) {
        OutlierDetector d = new OutlierDetector("p", c, () -> size, now::get);
        d.listener(new PoolHealthListener() {
            @Override
            public void ejected(String pool, Endpoint pod, Duration forHowLong, String reason) {
                events.add("ejected " + pod + " " + forHowLong.toSeconds() + "s");
            }

            @Override
            public void readmitted(String pool, Endpoint pod) {
                events.add("readmitted " + pod);
            }
        });
        return d;
    }

    void fail(Endpoint e, int times) {
        for (int i = 0; i < times; i++) {
            detector.failure(e);
        }
    }

    void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }

    @Test
    void aPoolRebuiltByAReloadKeepsWhatItsPodsFailed() {
        fail(A, 3); // ejected for 30 s
        detector.failure(B); // answered 503 a moment ago
        OutlierDetector rebuilt = detector(config, POOL.size());
        rebuilt.adopt(detector);

        assertThat(rebuilt.isEjected(A)).as("a reload readmits no failing pod").isTrue();
        assertThat(rebuilt.ejectedCount()).isOne();
        assertThat(rebuilt.lastRequestServed(rebuilt.admitted(POOL))).as("a failover passes over A, ejected, and B")
                .containsExactly(C, D);
        advance(Duration.ofSeconds(31));
        assertThat(rebuilt.isEjected(A)).as("its ejection ends when it would have").isFalse();
        rebuilt.failure(A);
        assertThat(rebuilt.isEjected(A)).as("on probation, and ejected longer the second time").isTrue();
        assertThat(events).containsExactly("ejected 10.0.0.1:8000 30s", "readmitted 10.0.0.1:8000",
                "ejected 10.0.0.1:8000 60s");
    }

    @Test
    void consecutiveFailuresEjectAndASuccessResetsTheRun() {
        fail(A, 2);
        detector.success(A);
        fail(A, 2);
        assertThat(detector.isEjected(A)).as("two, a success, two: never three in a row").isFalse();
        detector.failure(A);
        assertThat(detector.isEjected(A)).isTrue();
        assertThat(detector.admitted(POOL)).containsExactly(B, C, D);
        assertThat(detector.ejectedCount()).isEqualTo(1);
        assertThat(events).containsExactly("ejected 10.0.0.1:8000 30s");
    }

    @Test
    void theEjectionEndsThenAProbeFailureEjectsForLongerUpToTheCap() {
        fail(A, 3);
        advance(Duration.ofSeconds(29));
        assertThat(detector.isEjected(A)).isTrue();
        advance(Duration.ofSeconds(1));
        assertThat(detector.admitted(POOL)).as("readmitted after 30 s").containsExactly(A, B, C, D);
        detector.failure(A);
        assertThat(detector.isEjected(A)).as("one failure on probation ejects again").isTrue();
        advance(Duration.ofSeconds(60));
        assertThat(detector.isEjected(A)).isFalse();
        detector.failure(A);
        advance(Duration.ofSeconds(74));
        assertThat(detector.isEjected(A)).as("3 x 30 s, capped at 75 s").isTrue();
        advance(Duration.ofSeconds(1));
        assertThat(detector.isEjected(A)).isFalse();
        assertThat(events).containsExactly("ejected 10.0.0.1:8000 30s", "readmitted 10.0.0.1:8000",
                "ejected 10.0.0.1:8000 60s", "readmitted 10.0.0.1:8000", "ejected 10.0.0.1:8000 75s",
                "readmitted 10.0.0.1:8000");
    }

    @Test
    void aHealthyProbeEndsProbation() {
        fail(A, 3);
        advance(Duration.ofSeconds(30));
        detector.success(A);
        fail(A, 2);
        assertThat(detector.isEjected(A)).as("after a good probe it takes three in a row again").isFalse();
    }

    @Test
    void neverMoreThanTheShareOfThePoolIsEjected() {
        fail(A, 3);
        fail(B, 3);
        fail(C, 3);
        assertThat(detector.ejectedCount()).as("50% of 4 pods").isEqualTo(2);
        assertThat(detector.isEjected(C)).isFalse();
        assertThat(detector.admitted(POOL)).containsExactly(C, D);
    }

    @Test
    void whenEveryCandidateIsEjectedTheyAreUsedAnyway() {
        fail(A, 3);
        fail(B, 3);
        assertThat(detector.admitted(List.of(A, B))).containsExactly(A, B);
    }

    @Test
    void aFailureRatioOverTheMinimumRequestsEjects() {
        for (int i = 0; i < 5; i++) {
            detector.success(B);
            fail(B, 2);
        }
        assertThat(detector.isEjected(B)).as("10 of 15 failed, never 3 in a row").isTrue();
        assertThat(events).containsExactly("ejected 10.0.0.2:8000 30s");
    }

    @Test
    void failuresOfAnEarlierIntervalDoNotCount() {
        for (int i = 0; i < 3; i++) { // 6 of 9 failed: short of the 10 requests
            detector.success(B);
            fail(B, 2);
        }
        advance(Duration.ofSeconds(10));
        detector.success(B);
        fail(B, 2);
        assertThat(detector.isEjected(B)).as("2 of 3 in this interval").isFalse();
    }

    @Test
    void aSinglePodPoolIsNeverEjectedAndOffMeansOff() {
        OutlierDetector single = detector(config, 1);
        for (int i = 0; i < 10; i++) {
            single.failure(A);
        }
        assertThat(single.isEjected(A)).isFalse();
        OutlierDetector off = detector(new OutlierConfig(0, 0, 10, Duration.ofSeconds(10), Duration.ofSeconds(30),
                Duration.ofSeconds(75), 50), 4);
        for (int i = 0; i < 50; i++) {
            off.failure(A);
        }
        assertThat(off.isEjected(A)).isFalse();
    }

    @Test
    void aPodThatLeavesFreesItsSlot() {
        fail(A, 3);
        fail(B, 3);
        detector.retain(List.of(B, C, D));
        fail(C, 3);
        assertThat(detector.ejectedCount()).isEqualTo(2);
        assertThat(detector.isEjected(C)).isTrue();
    }

    @Test
    void theRetryBudgetAllowsItsShareOrTheMinimumOverTheWindow() {
        RetryBudget budget = new RetryBudget(new FailoverConfig(3, 20, 2), now::get);
        assertThat(budget.tryRetry()).isTrue();
        assertThat(budget.tryRetry()).isTrue();
        assertThat(budget.tryRetry()).as("the minimum of 2 is spent, no requests yet").isFalse();
        for (int i = 0; i < 20; i++) {
            budget.request();
        }
        assertThat(budget.tryRetry()).as("20% of 20 requests = 4 retries").isTrue();
        assertThat(budget.tryRetry()).isTrue();
        assertThat(budget.tryRetry()).isFalse();
        advance(Duration.ofSeconds(FailoverConfig.BUDGET_WINDOW_SECONDS));
        assertThat(budget.tryRetry()).as("a new window").isTrue();
        assertThat(budget.tryRetry()).isTrue();
        assertThat(budget.tryRetry()).isFalse();
    }
}
