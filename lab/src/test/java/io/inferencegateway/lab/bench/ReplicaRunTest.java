package io.inferencegateway.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.inferencegateway.lab.bench.fleet.PodSample;
import io.inferencegateway.lab.bench.gateway.ReplicaMode;
import io.inferencegateway.lab.bench.load.Outcome;
import io.inferencegateway.lab.bench.load.RequestResult;
import io.inferencegateway.lab.bench.load.RunRecording;

/** The numbers a replica run reports, from hand-made results with known answers. */
class ReplicaRunTest {

    static final long MS = 1_000_000L;

    static RequestResult ok(int i, long intendedMs, long ttftMs) {
        return new RequestResult(i, "m", "shared-prefix", "", 100, 5, intendedMs * MS, 0, Outcome.OK, 200, "",
                ttftMs * MS, new long[] {MS}, (ttftMs + 10) * MS, 5, 5, true);
    }

    static RequestResult failed(int i, long intendedMs) {
        return new RequestResult(i, "m", "shared-prefix", "", 100, 5, intendedMs * MS, 0, Outcome.CONNECTION_ERROR, 0,
                "reset", -1, new long[0], -1, 0, 0, false);
    }

    @Test
    void splitsByReplicaAndCountsOnlyFailuresOnTheKilledReplicaAsInFlight() {
        List<RequestResult> results = new ArrayList<>();
        results.add(ok(0, 0, 100));      // replica 0
        results.add(ok(1, 10, 200));     // replica 1
        results.add(failed(2, 20));      // replica 2, in flight when it was killed at 50 ms
        results.add(ok(3, 60, 300));     // replica 0, after the kill
        results.add(ok(4, 70, 400));     // replica 1
        int[] targetOf = {0, 1, 2, 0, 1};
        RunRecording recording = new RunRecording(results, 1.0, 2_000 * MS, 3, 3, targetOf);
        List<PodSample> before = List.of(new PodSample(0, 0, 0, 0, 100, 50, 0), new PodSample(0, 0, 0, 0, 0, 0, 0));
        List<PodSample> after = List.of(new PodSample(0, 0, 0, 5, 1100, 850, 0), new PodSample(0, 0, 0, 5, 1000, 500, 0));

        ReplicaRun run = ReplicaRun.of("gpu-aware-3x-rendezvous", "gpu-aware", 3, ReplicaMode.RENDEZVOUS, recording,
                before, after, 80, 2, 50 * MS);

        assertThat(run.fleetHitRate()).as("(800 + 500) / (1000 + 1000)").isCloseTo(0.65, within(1e-12));
        assertThat(run.scrapesPerPodSecond()).as("80 scrapes / 2 pods / 2 s").isCloseTo(20, within(1e-12));
        assertThat(run.perReplica()).extracting(s -> s.requests()).containsExactly(2, 2, 1);
        assertThat(run.perReplica().get(0).ttft().meanMs()).isCloseTo(200, within(1e-9));
        assertThat(run.failedOnKilled()).isEqualTo(1);
        assertThat(run.failedAfterKill()).isZero();
        assertThat(run.total().errors()).isEqualTo(1);
    }

    @Test
    void aFailureAfterTheKillIsReportedAsSuch() {
        List<RequestResult> results = List.of(ok(0, 0, 100), failed(1, 60));
        RunRecording recording = new RunRecording(results, 1.0, 1_000 * MS, 1, 1, new int[] {0, 1});
        ReplicaRun run = ReplicaRun.of("x", "gpu-aware", 2, ReplicaMode.RENDEZVOUS, recording, List.of(), List.of(),
                -1, 1, 50 * MS);
        assertThat(run.failedAfterKill()).isEqualTo(1);
        assertThat(run.scrapesPerPodSecond()).isNaN();
        assertThat(run.fleetHitRate()).isNaN();
    }

    @Test
    void theModesWriteTheReplicasSectionTheGatewayReads() {
        assertThat(ReplicaMode.NAIVE.section(3, null)).isNull();
        assertThat(ReplicaMode.RENDEZVOUS.section(3, null))
                .isEqualTo(Map.of("count", 3, "placement", "rendezvous", "spreadScrapes", true));
        assertThat(ReplicaMode.RENDEZVOUS_EVERY_SCRAPE.section(3, null))
                .isEqualTo(Map.of("count", 3, "placement", "rendezvous", "spreadScrapes", false));
        assertThat(ReplicaMode.SHARED.section(3, "redis://127.0.0.1:6400")).isEqualTo(Map.of("count", 3,
                "placement", "shared", "spreadScrapes", true, "redisUrl", "redis://127.0.0.1:6400"));
        assertThat(ReplicaMode.fromLabel("shared")).isEqualTo(ReplicaMode.SHARED);
        assertThat(ReplicaMode.fromLabel("rendezvous-every-scrape")).isEqualTo(ReplicaMode.RENDEZVOUS_EVERY_SCRAPE);
        assertThat(BenchRunner.label("gpu-aware", 1, ReplicaMode.NAIVE)).isEqualTo("gpu-aware");
        assertThat(BenchRunner.label("gpu-aware", 3, ReplicaMode.RENDEZVOUS)).isEqualTo("gpu-aware-3x-rendezvous");
    }
}
