package io.inferencegateway.rollout;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.inferencegateway.config.RolloutConfig;
import io.inferencegateway.rollout.Progress.RolloutPhase;
import io.inferencegateway.config.RolloutConfig.RolloutState;
import io.inferencegateway.domain.RequestRecord;

/**
 * One rollout as this gateway runs it: the candidate's share now, what this replica counted since the last analysis,
 * and the analysis itself, once per interval: add the counts to the store, read the fleet's, judge, and make the
 * transition the numbers call for over the revision they were read at.
 *
 * <p>The state machine: a running rollout holds each step for its duration; with each side at minSamples requests
 * and the candidate within every margin when the duration is up, it moves to the next step (counted afresh), and
 * past the step before the last it is promoted (100 %). A breach, whenever seen, rolls it back (0 %). While the
 * config says paused or aborted the clock stands (aborted also gives the baseline everything); back to running, the
 * clock goes on where it stood. Promoted and rolled back are final for this configuration of the rollout.
 */
final class LiveRollout {

    private static final Logger LOG = LoggerFactory.getLogger(LiveRollout.class);
    static final String KEY_PREFIX = "igw:rollout:";

    final String name;
    final String key;
    final ProgressStore store;
    final boolean shared;
    private final Rollouts owner;
    private volatile RolloutConfig config;
    private final SideCounter baseline = new SideCounter();
    private final SideCounter candidate = new SideCounter();
    private volatile int countedStep;
    private volatile Progress progress; // null until the store first answered
    private volatile int percent;
    private volatile ProgressStore.StepCounts lastCounts;
    private volatile String lastFinding = "";
    private volatile boolean storeDown;
    private final AtomicBoolean busy = new AtomicBoolean();
    private volatile CompletableFuture<Void> inFlight = CompletableFuture.completedFuture(null);

    LiveRollout(RolloutConfig config, ProgressStore store, boolean shared, Rollouts owner) {
        this.name = config.name();
        this.key = KEY_PREFIX + config.name() + ":" + fingerprint(config);
        this.config = config;
        this.store = store;
        this.shared = shared;
        this.owner = owner;
    }

    /** What names one run of a rollout: its versions and steps. A change to any of them starts it afresh. */
    static String fingerprint(RolloutConfig c) {
        StringBuilder sb = new StringBuilder(c.baseline()).append('\n').append(c.candidate());
        for (RolloutConfig.Step s : c.steps()) {
            sb.append('\n').append(s.weight()).append('/').append(s.duration().toMillis());
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(sb.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    RolloutConfig config() {
        return config;
    }

    /** The same run under a config that differs only in state or analysis (a pause, a resume, other margins). */
    void reconfigure(RolloutConfig next) {
        config = next;
        percent = percentOf(next, progress);
    }

    int percent() {
        return percent;
    }

    Progress progress() {
        return progress;
    }

    ProgressStore.StepCounts lastCounts() {
        return lastCounts;
    }

    String lastFinding() {
        return lastFinding;
    }

    boolean storeDown() {
        return storeDown;
    }

    /** The label of the state meter and the page: running, paused, aborted, promoted or rolled_back. */
    String stateLabel() {
        RolloutConfig c = config;
        Progress p = progress;
        if (c.state() == RolloutState.ABORTED) {
            return "aborted";
        }
        if (p != null && p.phase() != RolloutPhase.RUNNING) {
            return p.phase().label();
        }
        return c.state().name().toLowerCase(Locale.ROOT);
    }

    static int percentOf(RolloutConfig c, Progress p) {
        if (p == null || c.state() == RolloutState.ABORTED) {
            return 0;
        }
        return switch (p.phase()) {
            case ROLLED_BACK -> 0;
            case PROMOTED -> 100;
            case RUNNING -> c.steps().get(Math.min(p.step(), c.steps().size() - 1)).weight();
        };
    }

    /** Counts an ended request of the rewrite, if one of this rollout's versions served it. */
    void record(RequestRecord r) {
        RolloutConfig c = config;
        String version = r.versionModel();
        SideCounter side = c.candidate().equals(version) ? candidate : c.baseline().equals(version) ? baseline : null;
        if (side == null) {
            return;
        }
        VersionOutcome outcome = VersionOutcome.of(r);
        if (outcome == VersionOutcome.IGNORED) {
            return;
        }
        long ttft = -1;
        long tpot = -1;
        if (outcome == VersionOutcome.SERVED) {
            long end = r.endNanos();
            long first = r.stream() ? r.firstTokenNanos() : end;
            if (first > 0) {
                ttft = first - r.startNanos();
                if (r.stream() && r.outputTokens() > 1) {
                    tpot = (end - first) / (r.outputTokens() - 1);
                }
            }
        }
        side.count(outcome, ttft, tpot);
    }

    /**
     * One analysis: completes when its transition, if any, is made; never fails. At most one runs at a time: asked
     * while one runs, it answers that one.
     */
    CompletableFuture<Void> tick(long nowMillis) {
        if (!busy.compareAndSet(false, true)) {
            return inFlight;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        inFlight = done;
        analyse(nowMillis).whenComplete((v, e) -> {
            busy.set(false);
            done.complete(null);
        });
        return done;
    }

    private CompletableFuture<Void> analyse(long nowMillis) {
        RolloutConfig c = config;
        int step = countedStep;
        Tally b = baseline.drain();
        Tally k = candidate.drain();
        CompletableFuture<ProgressStore.StepCounts> exchanged;
        try {
            exchanged = store.exchange(key, step, b, k, nowMillis);
        } catch (RuntimeException e) {
            exchanged = CompletableFuture.failedFuture(e);
        }
        return exchanged.handle((counts, error) -> {
            if (error != null) {
                if (step == countedStep) { // not stored: they go with the next exchange
                    baseline.restore(b);
                    candidate.restore(k);
                }
                unreachable(error);
                return CompletableFuture.<Void>completedFuture(null);
            }
            reachable();
            adopt(counts.progress());
            lastCounts = counts;
            return decide(c, counts, nowMillis);
        }).thenCompose(f -> f).handle((v, error) -> {
            if (error != null) {
                unreachable(error);
            }
            return null;
        });
    }

    private CompletableFuture<Void> decide(RolloutConfig c, ProgressStore.StepCounts counts, long now) {
        Progress p = counts.progress();
        if (p.phase() != RolloutPhase.RUNNING) {
            return CompletableFuture.completedFuture(null);
        }
        int last = c.steps().size() - 1;
        if (p.step() >= last) {
            return transition(c, p, p.with(last, now, 0, RolloutPhase.PROMOTED, "the last step is 100 %"),
                    "promoted", counts);
        }
        if (c.state() != RolloutState.RUNNING) {
            if (p.pausedAtMillis() == 0) {
                String what = c.state().name().toLowerCase(Locale.ROOT);
                return transition(c, p, p.with(p.step(), p.stepStartMillis(), now, RolloutPhase.RUNNING,
                        "the config says " + what), what, counts);
            }
            return CompletableFuture.completedFuture(null);
        }
        if (p.pausedAtMillis() != 0) {
            long start = p.stepStartMillis() + Math.max(0, now - p.pausedAtMillis());
            return transition(c, p, p.with(p.step(), start, 0, RolloutPhase.RUNNING, "the config says running"),
                    "resumed", counts);
        }
        CanaryAnalysis.Finding f = CanaryAnalysis.judge(c.analysis(), counts.baseline(), counts.candidate());
        lastFinding = f.reason();
        switch (f.kind()) {
            case BREACH:
                return transition(c, p, p.with(p.step(), p.stepStartMillis(), 0, RolloutPhase.ROLLED_BACK,
                        f.reason()), "rolled_back", counts);
            case PASS:
                if (now - p.stepStartMillis() >= c.steps().get(p.step()).duration().toMillis()) {
                    int next = p.step() + 1;
                    String why = "step " + (p.step() + 1) + " passed: " + f.reason();
                    return next == last
                            ? transition(c, p, p.with(last, now, 0, RolloutPhase.PROMOTED, why), "promoted", counts)
                            : transition(c, p, p.with(next, now, 0, RolloutPhase.RUNNING, why), "step", counts);
                }
                return CompletableFuture.completedFuture(null);
            default:
                return CompletableFuture.completedFuture(null);
        }
    }

    private CompletableFuture<Void> transition(RolloutConfig c, Progress from, Progress to, String kind,
            ProgressStore.StepCounts counts) {
        return store.transition(key, from.rev(), to).thenAccept(t -> {
            if (t.made()) {
                Progress p = t.progress();
                LOG.info("rollout {}: {} at step {}/{} ({} % to {}): {}; candidate {} {} | baseline {} {}", name,
                        kind.equals("step") ? "next step" : kind.replace('_', ' '), p.step() + 1, c.steps().size(), percentOf(c, p), c.candidate(),
                        p.reason(), c.candidate(), counts.candidate().describe(), c.baseline(),
                        counts.baseline().describe());
                owner.transitioned(name, kind);
            }
            adopt(t.progress());
        });
    }

    /** Takes the store's progress as ours: our own transition, another replica's, or the one a restart finds. */
    private void adopt(Progress p) {
        if (p == null) {
            return;
        }
        progress = p;
        if (p.step() != countedStep) { // the step's counts start afresh; what was counted late is let go
            countedStep = p.step();
            baseline.drain();
            candidate.drain();
            lastCounts = new ProgressStore.StepCounts(p, Tally.EMPTY, Tally.EMPTY);
        }
        percent = percentOf(config, p);
    }

    private void unreachable(Throwable error) {
        if (!storeDown) {
            storeDown = true;
            LOG.warn("rollout {}: its progress store cannot be reached ({}); holding the candidate at {} % and "
                    + "deciding nothing until it can", name, rootMessage(error), percent);
        }
    }

    private void reachable() {
        if (storeDown) {
            storeDown = false;
            LOG.info("rollout {}: its progress store is reachable again", name);
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }
}
