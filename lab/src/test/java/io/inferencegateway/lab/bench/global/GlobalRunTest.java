package io.inferencegateway.lab.bench.global;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.inferencegateway.lab.bench.load.Outcome;
import io.inferencegateway.lab.bench.load.RequestResult;

/** How the loss of a cluster is judged from the tier's access log and the client's results. */
class GlobalRunTest {

    static final GlobalLayout LAYOUT = GlobalLayout.standard();
    /** Wall ms: the run starts at 0 and the near cluster is lost at 14 s (time scale 1). */
    static final double LOSS = 14_000;

    static TierLogEntry line(double atMillis, int index, String target, int attempts, int status) {
        return new TierLogEntry(Instant.ofEpochMilli((long) atMillis), "bench-" + index, target, attempts, status,
                1e-4, 100);
    }

    static RequestResult result(int index, double atMillis, boolean ok) {
        return new RequestResult(index, "m", "unique", "", 10, 10, (long) (atMillis * 1e6), 0,
                ok ? Outcome.OK : Outcome.HTTP_ERROR, ok ? 200 : 502, ok ? "" : "502", 1_000_000, new long[0],
                2_000_000, 10, 10, true, "standard", "", "");
    }

    static GlobalRun.LossOutcome judge(List<TierLogEntry> lines, List<RequestResult> results) {
        return GlobalRun.loss(LAYOUT, ClusterLoss.KILL, results, lines, 0, LOSS, 1);
    }

    @Test
    void aTierThatSendsNothingThereAfterTheLossDetectedItAtOnce() {
        GlobalRun.LossOutcome l = judge(List.of(line(LOSS + 10, 0, "far", 1, 200), line(LOSS + 20, 1, "far", 1, 200)),
                List.of(result(0, LOSS + 10, true), result(1, LOSS + 20, true)));

        assertThat(l.detected()).isTrue();
        assertThat(l.detectionMillis()).isZero();
        assertThat(l.touchedAfterLoss()).isZero();
    }

    @Test
    void theLossIsDetectedAtTheLastRequestTriedThereAndLaterFailuresElsewhereCountAfterIt() {
        List<TierLogEntry> lines = List.of(
                line(LOSS - 5, 0, "near", 1, 200),          // before the loss: not counted
                line(LOSS + 100, 1, "far", 2, 200),         // failed over from near
                line(LOSS + 400, 2, "near", 1, 502),        // sent there and failed
                line(LOSS + 900, 3, "far", 1, 200),
                line(LOSS + 1500, 4, "far", 1, 503));       // failed elsewhere: far's failure, after detection
        List<RequestResult> results = List.of(result(0, LOSS - 5, true), result(1, LOSS + 100, true),
                result(2, LOSS + 400, false), result(3, LOSS + 900, true), result(4, LOSS + 1500, false));

        GlobalRun.LossOutcome l = judge(lines, results);

        assertThat(l.detected()).isTrue();
        assertThat(l.detectionMillis()).isEqualTo(400);
        assertThat(l.touchedAfterLoss()).isEqualTo(2);
        assertThat(l.failedAfterLoss()).isEqualTo(2);
        assertThat(l.failedAfterDetection()).isEqualTo(1);
    }

    @Test
    void aTierStillSendingThereAtTheEndNeverDetectedIt() {
        List<TierLogEntry> lines = new ArrayList<>();
        List<RequestResult> results = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            lines.add(line(LOSS + 100 * i, i, "near", 1, 502));
            results.add(result(i, LOSS + 100 * i, false));
        }

        GlobalRun.LossOutcome l = judge(lines, results);

        assertThat(l.detected()).isFalse();
        assertThat(l.detectionMillis()).isNaN();
        assertThat(l.failedAfterDetection()).isEqualTo(5);
    }

    @Test
    void costsArePerClassAndPerMillionTokens() {
        List<RequestResult> results = List.of(result(0, 1000, true), result(1, 2000, true));
        GlobalRun run = GlobalRun.of("global", LAYOUT, ClusterLoss.KILL, results, 20,
                List.of(line(1000, 0, "near", 1, 200), line(2000, 1, "far", 1, 200)), 0, LOSS, 1, List.of());

        assertThat(run.cost("standard").tokens()).isEqualTo(200);
        assertThat(run.cost("standard").perMillionTokens()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(run.cost("sheddable").requests()).isZero();
        assertThat(run.servedBy().get("steady")).containsEntry("near", 1).containsEntry("far", 1);
    }
}
