package io.inferencegateway.rollout;

import static io.inferencegateway.rollout.RolloutTraffic.BASELINE;
import static io.inferencegateway.rollout.RolloutTraffic.CANDIDATE;
import static io.inferencegateway.rollout.RolloutTraffic.answered;
import static io.inferencegateway.rollout.RolloutTraffic.refused;
import static io.inferencegateway.rollout.RolloutTraffic.rollout;
import static io.inferencegateway.rollout.RolloutTraffic.served;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.inferencegateway.config.RolloutConfig;
import io.inferencegateway.config.RolloutConfig.RolloutState;
import io.inferencegateway.domain.GatewayError;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * The automatic canary's state machine on this process's memory, driven by a clock of the test's own: each analysis
 * runs when the test says, on the requests the test reports ended.
 */
class RolloutStateMachineTest {

    final AtomicLong clock = new AtomicLong(1_000_000);
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final Rollouts rollouts = new Rollouts(RolloutTraffic.meters(registry), url -> {
        throw new AssertionError("no Redis here");
    }, clock::get, false);
    final RolloutConfig running = rollout(RolloutState.RUNNING, null);

    @AfterEach
    void close() {
        rollouts.close();
    }

    void goodStep() {
        served(rollouts::ended, BASELINE, 100, 20);
        served(rollouts::ended, CANDIDATE, 110, 20);
    }

    void analyseAfter(Duration d) {
        clock.addAndGet(d.toMillis());
        rollouts.analyse().join();
    }

    RolloutView view() {
        return rollouts.views().get(0);
    }

    double transitions(String to) {
        var c = registry.find("inference_gateway_rollout_transitions_total").tag("rollout", "chat").tag("to", to)
                .counter();
        return c == null ? 0 : c.count();
    }

    double gauge(String name, String... tags) {
        return registry.get(name).tags(tags).gauge().value();
    }

    @Test
    void aHealthyCandidateIsPromotedThroughEveryStepOnceEachStepsDurationIsUp() {
        assertThat(rollouts.candidatePercent(running)).isEqualTo(10);
        goodStep();
        analyseAfter(Duration.ofSeconds(10));
        assertThat(rollouts.candidatePercent(running)).as("a step is held for its duration").isEqualTo(10);
        analyseAfter(Duration.ofSeconds(50));
        assertThat(rollouts.candidatePercent(running)).isEqualTo(50);
        assertThat(view().step()).isEqualTo(2);
        assertThat(view().candidate().requests()).as("the new step is counted afresh").isZero();
        assertThat(gauge("inference_gateway_rollout_step", "rollout", "chat")).isEqualTo(2);

        analyseAfter(Duration.ofSeconds(60));
        assertThat(rollouts.candidatePercent(running)).as("no samples in step 2 yet: it waits").isEqualTo(50);
        goodStep();
        analyseAfter(Duration.ofSeconds(10));
        assertThat(rollouts.candidatePercent(running)).isEqualTo(100);
        assertThat(view().state()).isEqualTo("promoted");
        assertThat(transitions("step")).isEqualTo(1);
        assertThat(transitions("promoted")).isEqualTo(1);
        assertThat(gauge("inference_gateway_rollout_weight", "rollout", "chat")).isEqualTo(100);
        assertThat(gauge("inference_gateway_rollout_state", "rollout", "chat", "state", "promoted")).isEqualTo(1);
        assertThat(gauge("inference_gateway_rollout_state", "rollout", "chat", "state", "running")).isZero();
    }

    @Test
    void aCandidateThreeTimesSlowerIsRolledBackAtTheFirstAnalysisWithEnoughSamples() {
        rollouts.candidatePercent(running);
        served(rollouts::ended, BASELINE, 100, 20);
        served(rollouts::ended, CANDIDATE, 300, 20);
        analyseAfter(Duration.ofSeconds(10)); // long before the step's minute is up
        assertThat(rollouts.candidatePercent(running)).isZero();
        assertThat(view().state()).isEqualTo("rolled_back");
        assertThat(view().reason()).startsWith("TTFT p90");
        assertThat(transitions("rolled_back")).isEqualTo(1);
    }

    @Test
    void aCandidateAnsweringFivePercentOfRequestsWith500IsRolledBack() {
        rollouts.candidatePercent(running);
        served(rollouts::ended, BASELINE, 100, 100);
        served(rollouts::ended, CANDIDATE, 100, 95);
        answered(rollouts::ended, CANDIDATE, 500, 5);
        analyseAfter(Duration.ofSeconds(10));
        assertThat(rollouts.candidatePercent(running)).isZero();
        assertThat(view().reason()).isEqualTo("error rate 5.00% > baseline 0.00% + 1.00 points");
    }

    @Test
    void aCandidateThatRefusesRequestsIsRolledBack() {
        rollouts.candidatePercent(running);
        served(rollouts::ended, BASELINE, 100, 100);
        served(rollouts::ended, CANDIDATE, 100, 90);
        answered(rollouts::ended, CANDIDATE, 429, 5);
        refused(rollouts::ended, CANDIDATE, GatewayError.Reason.OVERLOADED, 429, 5);
        analyseAfter(Duration.ofSeconds(10));
        assertThat(rollouts.candidatePercent(running)).isZero();
        assertThat(view().reason()).isEqualTo("refusal rate 10.00% > baseline 0.00% + 1.00 points");
    }

    @Test
    void requestsRefusedForTheCallersOwnSakeAreNotCounted() {
        rollouts.candidatePercent(running);
        served(rollouts::ended, BASELINE, 100, 20);
        served(rollouts::ended, CANDIDATE, 100, 20);
        refused(rollouts::ended, CANDIDATE, GatewayError.Reason.TOKENS_RATE_LIMITED, 429, 50);
        refused(rollouts::ended, CANDIDATE, GatewayError.Reason.INVALID_REQUEST, 400, 50);
        analyseAfter(Duration.ofSeconds(60));
        assertThat(rollouts.candidatePercent(running)).isEqualTo(50);
    }

    @Test
    void nothingIsDecidedBeforeEachSideHasMinSamplesEvenPastTheStepsDuration() {
        rollouts.candidatePercent(running);
        served(rollouts::ended, BASELINE, 100, 100);
        answered(rollouts::ended, CANDIDATE, 500, 19);
        analyseAfter(Duration.ofMinutes(5));
        assertThat(rollouts.candidatePercent(running)).isEqualTo(10);
        assertThat(view().finding()).isEqualTo("waiting for 20 requests a side (baseline 100, candidate 19)");
        answered(rollouts::ended, CANDIDATE, 500, 1);
        analyseAfter(Duration.ofSeconds(10));
        assertThat(rollouts.candidatePercent(running)).isZero();
    }

    @Test
    void pausedHoldsTheShareAndStopsTheClockAndRunningAgainGoesOnWhereItStood() {
        rollouts.candidatePercent(running);
        goodStep();
        analyseAfter(Duration.ofSeconds(30));
        RolloutConfig paused = rollout(RolloutState.PAUSED, null);
        assertThat(rollouts.candidatePercent(paused)).isEqualTo(10);
        analyseAfter(Duration.ofSeconds(10)); // the clock stops here, 40 s into the step
        analyseAfter(Duration.ofMinutes(10));
        assertThat(rollouts.candidatePercent(paused)).isEqualTo(10);
        assertThat(view().state()).isEqualTo("paused");

        RolloutConfig resumed = rollout(RolloutState.RUNNING, null);
        assertThat(rollouts.candidatePercent(resumed)).isEqualTo(10);
        analyseAfter(Duration.ofSeconds(10)); // the clock goes on
        analyseAfter(Duration.ofSeconds(10)); // 50 s of the step's 60
        assertThat(rollouts.candidatePercent(resumed)).isEqualTo(10);
        analyseAfter(Duration.ofSeconds(10));
        assertThat(rollouts.candidatePercent(resumed)).isEqualTo(50);
        assertThat(transitions("paused")).isEqualTo(1);
        assertThat(transitions("resumed")).isEqualTo(1);
    }

    @Test
    void abortedSendsEverythingToTheBaselineAndRunningAgainResumesTheStep() {
        rollouts.candidatePercent(running);
        goodStep();
        analyseAfter(Duration.ofSeconds(60));
        assertThat(rollouts.candidatePercent(running)).isEqualTo(50);
        RolloutConfig aborted = rollout(RolloutState.ABORTED, null);
        assertThat(rollouts.candidatePercent(aborted)).as("at once, before any analysis").isZero();
        analyseAfter(Duration.ofMinutes(10));
        assertThat(view().state()).isEqualTo("aborted");
        assertThat(gauge("inference_gateway_rollout_state", "rollout", "chat", "state", "aborted")).isEqualTo(1);
        assertThat(rollouts.candidatePercent(rollout(RolloutState.RUNNING, null))).isEqualTo(50);
    }

    @Test
    void aRolloutWithAnotherCandidateStartsAfresh() {
        rollouts.candidatePercent(running);
        served(rollouts::ended, BASELINE, 100, 20);
        served(rollouts::ended, CANDIDATE, 300, 20);
        analyseAfter(Duration.ofSeconds(10));
        assertThat(rollouts.candidatePercent(running)).isZero();

        RolloutConfig next = new RolloutConfig("chat", BASELINE, "chat-v3", RolloutState.RUNNING,
                running.steps(), running.analysis(), null);
        assertThat(rollouts.candidatePercent(next)).isEqualTo(10);
        assertThat(view().state()).isEqualTo("running");
        assertThat(view().step()).isEqualTo(1);
        assertThat(rollouts.candidatePercent(running)).as("back to the rolled-back run").isZero();
    }

    @Test
    void otherMarginsKeepTheRun() {
        rollouts.candidatePercent(running);
        goodStep();
        analyseAfter(Duration.ofSeconds(60));
        RolloutConfig stricter = new RolloutConfig("chat", BASELINE, CANDIDATE, RolloutState.RUNNING,
                running.steps(), new RolloutConfig.Analysis(50, Duration.ofSeconds(5), 0, 0, 1.2, 1.2), null);
        assertThat(rollouts.candidatePercent(stricter)).isEqualTo(50);
        assertThat(rollouts.views()).extracting(RolloutView::name).isEqualTo(List.of("chat"));
    }
}
