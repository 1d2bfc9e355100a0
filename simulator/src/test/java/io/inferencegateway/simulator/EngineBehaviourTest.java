package io.inferencegateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The engine's vLLM behaviours, in virtual time (deterministic, nothing sleeps). */
class EngineBehaviourTest {

    private static final long SECOND = 1_000_000_000L;

    private static int[] prompt(long id, int tokens) {
        return Calibration.distinctPrompt(id, tokens);
    }

    private static int[] concat(int[] a, int[] b) {
        int[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "identical prompt hits all full blocks but the last token's, 1000, 1000, 992",
        "shared 960-token prefix hits 60 blocks,                     960,  1000, 960",
        "shared 100-token prefix hits 6 whole blocks,                100,  1000, 96",
        "prompt of exactly 64 tokens leaves its last block to compute, 64,  64,   48"})
    void prefixHitSkipsPrefill(String scenario, int shared, int length, int expectedHit) {
        EngineCore engine = new EngineCore(EngineConfig.defaults());
        VirtualTimeRunner runner = new VirtualTimeRunner(engine);
        int[] first = prompt(1, length);
        SimRequest a = engine.submit(null, first, 1, 0, null);
        runner.runUntilIdle(10 * SECOND);
        long prefillBefore = engine.metrics().prefillTokensComputed();

        int[] second = concat(Arrays.copyOf(first, shared), prompt(2, length - shared));
        long t0 = runner.now();
        SimRequest b = engine.submit(null, second, 1, t0, null);
        runner.runUntilIdle(20 * SECOND);

        assertThat(b.cachedPromptTokens()).isEqualTo(expectedHit);
        assertThat(engine.metrics().prefillTokensComputed() - prefillBefore).isEqualTo(length - expectedHit);
        assertThat(engine.metrics().prefixHits()).isEqualTo(expectedHit);
        if (expectedHit >= 512) {
            assertThat(b.firstTokenNanos() - t0).isLessThan((a.firstTokenNanos() - a.arrivalNanos()) / 2);
        }
    }

    @Test
    void adapterIsPartOfTheBlockHash() {
        EngineConfig cfg = EngineConfig.defaults().withAdapters(List.of("a"), 2);
        EngineCore engine = new EngineCore(cfg);
        VirtualTimeRunner runner = new VirtualTimeRunner(engine);
        engine.submit(null, prompt(1, 512), 1, 0, null);
        runner.runUntilIdle(10 * SECOND);
        SimRequest withAdapter = engine.submit("a", prompt(1, 512), 1, runner.now(), null);
        runner.runUntilIdle(20 * SECOND);
        assertThat(withAdapter.cachedPromptTokens()).isZero();
    }

    @Test
    void evictsLeastRecentlyFreedBlocksTailFirstUnderPressure() {
        EngineCore engine = new EngineCore(EngineConfig.defaults().withKvBlocks(100));
        VirtualTimeRunner runner = new VirtualTimeRunner(engine);
        int[] a = prompt(1, 640);
        int[] b = prompt(2, 640);
        for (int[] p : List.of(a, b, prompt(3, 640))) {
            engine.submit(null, p, 1, runner.now(), null);
            runner.runUntilIdle(60 * SECOND);
        }
        // 100 blocks: a took 0..39, b 40..79; c took the 20 never-used blocks, then a's 20 last blocks
        SimRequest againA = engine.submit(null, a, 1, runner.now(), null);
        runner.runUntilIdle(120 * SECOND);
        assertThat(againA.cachedPromptTokens()).isEqualTo(20 * 16);
        assertThat(engine.kvEvictions()).isGreaterThanOrEqualTo(20);

        EngineCore fresh = new EngineCore(EngineConfig.defaults().withKvBlocks(100));
        VirtualTimeRunner r2 = new VirtualTimeRunner(fresh);
        for (int[] p : List.of(a, b, prompt(3, 640))) {
            fresh.submit(null, p, 1, r2.now(), null);
            r2.runUntilIdle(60 * SECOND);
        }
        SimRequest againB = fresh.submit(null, b, 1, r2.now(), null);
        r2.runUntilIdle(120 * SECOND);
        assertThat(againB.cachedPromptTokens()).isEqualTo(39 * 16);
    }

    @Test
    void preemptsTheNewestRunningRequestWhenKvIsExhausted() {
        EngineCore engine = new EngineCore(EngineConfig.defaults().withKvBlocks(40));
        VirtualTimeRunner runner = new VirtualTimeRunner(engine);
        SimRequest older = engine.submit(null, prompt(1, 256), 200, 0, null);
        SimRequest newer = engine.submit(null, prompt(2, 256), 200, 0, null);
        runner.runUntilIdle(600 * SECOND);

        assertThat(engine.metrics().preemptions()).isGreaterThanOrEqualTo(1);
        assertThat(newer.wasPreempted()).isTrue();
        assertThat(older.wasPreempted()).isFalse();
        assertThat(older.outputTokens()).isEqualTo(200);
        assertThat(newer.outputTokens()).isEqualTo(200);
        assertThat(newer.finishedNanos()).isGreaterThan(older.finishedNanos());
        assertThat(engine.freeKvBlocks()).isEqualTo(40);
    }

    @Test
    void adapterBeyondMaxLorasWaitsWithoutBlockingOthers() {
        EngineCore engine = new EngineCore(EngineConfig.defaults().withAdapters(List.of("a", "b"), 1));
        VirtualTimeRunner runner = new VirtualTimeRunner(engine);
        SimRequest onA = engine.submit("a", prompt(1, 64), 50, 0, null);
        SimRequest onB = engine.submit("b", prompt(2, 64), 5, 0, null);
        SimRequest base = engine.submit(null, prompt(3, 64), 5, 0, null);

        long firstStep = engine.beginStep(0);
        assertThat(engine.runningQueue()).containsExactly(onA, base);
        assertThat(engine.waitingQueue()).containsExactly(onB);
        // loading adapter a from disk stalls the first step: 7 ms + 65 ms
        assertThat(firstStep).isGreaterThan(72_000_000L);
        engine.finishStep(firstStep);

        runner.runUntilIdle(60 * SECOND);
        assertThat(base.finishedNanos()).isLessThan(onA.finishedNanos());
        assertThat(onB.firstTokenNanos()).isGreaterThanOrEqualTo(onA.finishedNanos());
        assertThat(engine.metrics().loraInfo().keySet()).contains("a|b");
    }

    @Test
    void queueGrowsAndTtftRisesOnceArrivalsPassCapacity() {
        Load light = openLoop(20, 30);
        Load heavy = openLoop(90, 30);
        assertThat(light.waitingAtEnd).isLessThan(5);
        assertThat(heavy.waitingAtEnd).isGreaterThan(100);
        assertThat(heavy.medianTtftMillis).isGreaterThan(10 * light.medianTtftMillis);
    }

    private record Load(int waitingAtEnd, double medianTtftMillis) {
    }

    /** Poisson arrivals of ShareGPT-like requests at {@code rate} req/s for {@code seconds}. */
    private static Load openLoop(double rate, int seconds) {
        EngineCore engine = new EngineCore(EngineConfig.defaults());
        VirtualTimeRunner runner = new VirtualTimeRunner(engine);
        SplittableRandom random = new SplittableRandom(7);
        List<Double> ttft = new ArrayList<>();
        double t = 0;
        int id = 0;
        while (t < seconds) {
            t += -Math.log(1 - random.nextDouble()) / rate;
            int[] lengths = Calibration.shareGptLengths(random);
            int[] p = prompt(id++, lengths[0]);
            runner.at((long) (t * SECOND), () -> engine.submit(null, p, lengths[1], runner.now(),
                    new SimRequest.Listener() {
                        @Override
                        public void onToken(SimRequest r, int index, String text, long now) {
                            if (index == 0) {
                                ttft.add((now - r.arrivalNanos()) / 1e6);
                            }
                        }
                    }));
        }
        runner.runUntil(seconds * SECOND);
        return new Load(engine.numWaiting(), Calibration.median(ttft));
    }

    @Test
    void abortFreesBlocksAndCounts() {
        EngineCore engine = new EngineCore(EngineConfig.defaults().withKvBlocks(200));
        VirtualTimeRunner runner = new VirtualTimeRunner(engine);
        SimRequest r = engine.submit(null, prompt(1, 800), 1000, 0, null);
        runner.runUntil(SECOND);
        assertThat(r.heldBlocks()).isGreaterThan(49);
        engine.abort(r, runner.now());
        assertThat(r.status()).isEqualTo(SimRequest.Status.ABORTED);
        assertThat(engine.freeKvBlocks()).isEqualTo(200);
        assertThat(engine.metrics().aborted()).isEqualTo(1);
        assertThat(engine.hasWork()).isFalse();
    }

    @ParameterizedTest(name = "speed {0}")
    @CsvSource({"1.0, 6.9", "0.5, 13.8", "2.0, 3.45"})
    void speedFactorDividesStepTime(double speed, double expectedItlMillis) {
        EngineCore engine = new EngineCore(EngineConfig.defaults().withSpeed(speed));
        VirtualTimeRunner runner = new VirtualTimeRunner(engine);
        List<Long> gaps = new ArrayList<>();
        engine.submit(null, prompt(1, 1024), 10, 0, new SimRequest.Listener() {
            long last;

            @Override
            public void onToken(SimRequest r, int index, String text, long now) {
                if (index > 0) {
                    gaps.add(now - last);
                }
                last = now;
            }
        });
        runner.runUntilIdle(10 * SECOND);
        assertThat(gaps).hasSize(9).allSatisfy(g -> assertThat(g / 1e6).isCloseTo(expectedItlMillis,
                org.assertj.core.data.Offset.offset(0.05 * expectedItlMillis)));
    }
}
