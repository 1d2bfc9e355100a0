package io.inferencegateway.lab.benchmarks;

import static io.inferencegateway.domain.SchedulingPolicy.decideNow;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.inferencegateway.config.PoolConfig;
import io.inferencegateway.config.Weights;
import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InFlightRequests;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.LatencyTargets;
import io.inferencegateway.domain.PendingPick;
import io.inferencegateway.domain.PickDecision;
import io.inferencegateway.domain.Scheduling;
import io.inferencegateway.metrics.EndpointMetrics;
import io.inferencegateway.metrics.MetricsCache;
import io.inferencegateway.scheduling.SchedulerEvents;
import io.inferencegateway.scheduling.SchedulingPolicies;
import io.inferencegateway.domain.SchedulingPolicy;

/**
 * Latency of one GPU-aware pick with default weights, over 8 to 2,048 endpoints and 8,000-character prompts, two ways:
 * <ul>
 * <li>{@link #decide}: the decision alone (filters, scorers, picker) plus the in-flight count it starts, what delays
 * the request; its commit (the prefix index learning the choice) runs after the timed call, as the gateway runs it
 * after handing the request to the upstream connection (pool/Placement.java);</li>
 * <li>{@link #choose}: the decision and its commit, the whole work of a pick on the request thread.</li>
 * </ul>
 * Both begin the request's scheduling (its snapshot: every candidate's state, the producers' facts) and pick on it. With
 * {@code targets=slo} every request has latency targets (docs/slo.md) and the pool's predictor has learned: the
 * producers then predict every candidate. With {@code targets=slo-admitted} admission also reads the snapshot
 * (saturation and the latency admitter), as flow control does for every request, before the pick.
 *
 * <p>Prompts: 256 groups × 16; each prompt is a 6,000-character group prefix plus a 2,000-character tail
 * of its own (125 blocks). In {@code system-prompt}, every group prefix starts with the same 2,048
 * characters, so after warm-up every pod holds those 32 blocks (the case where the index has many holders
 * per block). The index is warmed by routing every prompt once; after that each prompt is a repeat,
 * as in multi-turn chat, so matches walk the full chain. Metrics: random but fresh, some pods running LoRA
 * adapters, held in a {@link MetricsCache} as the gateway holds them; 1 in 8 requests asks for an adapter.
 *
 * <p>Run (see docs/scheduling.md): {@code java -cp lab/target/test-classes:lab/target/classes:$(cat
 * lab/target/test-classpath.txt) org.openjdk.jmh.Main PickLatencyBenchmark}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class PickLatencyBenchmark {

    private static final String MODEL = "llama-3.1-8b";
    private static final String[] ADAPTERS = {"sql", "chat", "law", "med", "code", "fin", "bio", "geo"};
    private static final int GROUPS = 256;
    private static final int PER_GROUP = 16;

    @Param({"8", "64", "512", "2048"})
    public int endpoints;

    @Param({"shared-prefix", "system-prompt"})
    public String workload;

    @Param({"none", "slo", "slo-admitted"})
    public String targets;

    /** The weights form's {@code picker:}: the highest total, or by predicted time. */
    @Param({"max-score", "predicted-time"})
    public String picker;

    private SchedulingPolicy policy;
    private List<Endpoint> pods;
    private InFlightRequests inFlight;
    private InferenceRequest[] requests;
    private int next;
    private PendingPick pending;

    @Setup
    public void setUp() {
        SplittableRandom random = new SplittableRandom(2024);
        pods = new ArrayList<>();
        for (int i = 0; i < endpoints; i++) {
            pods.add(new Endpoint("10." + (i >> 16 & 255) + "." + (i >> 8 & 255) + "." + (i & 255), 8000));
        }
        inFlight = new InFlightRequests();
        long now = 1_000_000_000L;
        MetricsCache scrapes = new MetricsCache();
        for (Endpoint e : pods) {
            Set<String> running = Set.of(ADAPTERS[random.nextInt(ADAPTERS.length)]);
            scrapes.recordSuccess(e, new EndpointMetrics(random.nextInt(5), random.nextInt(64), 0.1 + 0.6 * random.nextDouble(),
                    running, Set.of(), 4, 16, 29_205, Double.NaN, Double.NaN, now - 20_000_000L,
                    InFlightRequests.Counters.ZERO, null), now - 10_000_000L);
        }
        PoolConfig pool = PoolConfig.builder(MODEL).name("bench").loraAdapters(List.of(ADAPTERS)).endpoints(pods)
                .endpointPicker(Weights.DEFAULT.endpointPicker(picker)).build();
        policy = SchedulingPolicies.create(pool, scrapes, inFlight, () -> now, SchedulerEvents.NONE);

        String system = workload.equals("system-prompt") ? text(random, 2_048) : "";
        requests = new InferenceRequest[GROUPS * PER_GROUP];
        for (int g = 0; g < GROUPS; g++) {
            String prefix = system + text(random, 6_000 - system.length());
            for (int k = 0; k < PER_GROUP; k++) {
                String prompt = prefix + text(random, 2_000);
                int i = k * GROUPS + g; // interleave groups
                String adapter = i % 8 == 7 ? ADAPTERS[random.nextInt(ADAPTERS.length)] : null;
                requests[i] = InferenceRequest.builder(adapter == null ? MODEL : adapter).adapter(adapter)
                        .promptText(prompt).promptTokensEstimate(InferenceRequest.estimateTokens(prompt)).stream(true)
                        .maxTokens(256)
                        .targets(targets.startsWith("slo") ? new LatencyTargets(500, 50) : LatencyTargets.NONE).build();
            }
        }
        for (InferenceRequest r : requests) { // warm the prefix index: every prompt routed once
            pick(r);
        }
    }

    private static String text(SplittableRandom random, int chars) {
        StringBuilder sb = new StringBuilder(chars);
        for (int i = 0; i < chars; i++) {
            sb.append((char) ('a' + random.nextInt(26)));
        }
        return sb.toString();
    }

    /** Routes a request and teaches the predictor a plausible latency for it (40 ms per queued request, 5 ms per 1k tokens). */
    private Endpoint pick(InferenceRequest r) {
        PickDecision d = decideNow(policy, r, pods);
        Endpoint e = d.endpoint();
        double[] x = d.prediction().features();
        d.prediction().learn(20 + 5 * x[1] + 40 * x[2], 8 + x[7], 100);
        inFlight.started(e, r.promptTokensEstimate());
        inFlight.finished(e);
        return e;
    }

    /** The request's scheduling: admission on its snapshot (with {@code slo-admitted}), then the pick on the same. */
    private PendingPick schedule(InferenceRequest r) {
        Scheduling scheduling = policy.begin(r, pods, 0);
        if (targets.equals("slo-admitted")) {
            scheduling.saturated();
            scheduling.admission();
        }
        return scheduling.pick();
    }

    private InferenceRequest nextRequest() {
        InferenceRequest r = requests[next];
        next = next + 1 == requests.length ? 0 : next + 1;
        return r;
    }

    /** The decision and its commit, as the gateway runs them for one request (the count ends with the request). */
    @Benchmark
    public Endpoint choose() {
        InferenceRequest r = nextRequest();
        PendingPick pick = schedule(r);
        Endpoint e = pick.decision().endpoint();
        inFlight.started(e, r.promptTokensEstimate());
        pick.commit();
        inFlight.finished(e);
        return e;
    }

    /** The decision only; {@link #commitPending} commits it outside the timed call. */
    @Benchmark
    public Endpoint decide() {
        InferenceRequest r = nextRequest();
        pending = schedule(r);
        Endpoint e = pending.decision().endpoint();
        inFlight.started(e, r.promptTokensEstimate());
        return e;
    }

    /** After each call: commits what {@link #decide} left, and ends its request; nothing after {@link #choose}. */
    @TearDown(Level.Invocation)
    public void commitPending() {
        PendingPick pick = pending;
        if (pick != null) {
            pending = null;
            Endpoint e = pick.decision().endpoint();
            pick.commit();
            inFlight.finished(e);
        }
    }
}
