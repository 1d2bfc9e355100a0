package io.inferencegateway.lab.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import io.inferencegateway.lab.bench.fleet.FleetSpec;
import io.inferencegateway.lab.bench.fleet.PodFault;
import io.inferencegateway.lab.bench.global.GlobalLayout;
import io.inferencegateway.lab.bench.workload.IntRange;
import io.inferencegateway.lab.bench.workload.LoraWorkload;
import io.inferencegateway.lab.bench.workload.MixedWorkload;
import io.inferencegateway.lab.bench.workload.OnOffArrivals;
import io.inferencegateway.lab.bench.workload.PoissonArrivals;
import io.inferencegateway.lab.bench.workload.PrioritizedWorkload;
import io.inferencegateway.lab.bench.workload.SharedPrefixWorkload;
import io.inferencegateway.lab.bench.workload.SloClass;
import io.inferencegateway.lab.bench.workload.UniquePromptWorkload;
import io.inferencegateway.lab.bench.workload.Workload;

/**
 * The benchmark's named scenarios (docs/benchmarks/routing.md). Each one isolates a reason why a GPU-aware router
 * should beat a blind one, plus one ({@code uniform}) where it should not. Sizes are scaled down from
 * published router benchmarks so that a run fits a few minutes on a small machine: smaller KV caches
 * keep cache pressure real with fewer prompts, and short outputs limit the streamed events.
 */
public final class ScenarioCatalog {

    public static final String DEFAULT_MODEL = "meta-llama/Llama-3.1-8B-Instruct";

    private static final int PODS = 4;
    private static final int KV_BLOCKS = 6144;
    private static final int MAX_NUM_SEQS = 64;
    private static final IntRange SHAREGPT_PROMPT = new IntRange(64, 512);
    private static final IntRange SHORT_OUTPUT = new IntRange(32, 96);
    /** Simulated span of arrivals: long enough for caches and queues to settle, short enough for a small box. */
    private static final Duration RUN = Duration.ofSeconds(20);
    private static final int MAX_REQUESTS = 3000;

    private ScenarioCatalog() {
    }

    public static List<Scenario> all(String model) {
        return List.of(sharedPrefix(model), lora(model), mixed(model), bursty(model), heterogeneous(model),
                uniform(model), priorities(model), faults(model), slo(model), sloTight(model), global(model));
    }

    public static List<String> names() {
        return all(DEFAULT_MODEL).stream().map(Scenario::name).toList();
    }

    /**
     * Scenarios that run only when named: {@code priorities} and {@code faults} test flow control and failover
     * and have loads of their own that {@code --load} would override; {@code slo} is meant to be run at several
     * loads around capacity, each one asked for, and {@code slo-tight} past it.
     */
    static final List<String> NAMED_ONLY = List.of("priorities", "faults", "slo", "slo-tight", GlobalLayout.SCENARIO);

    /**
     * Scenarios whose runs have the gateway's flow control on under every policy: the two that test it, and
     * {@code slo} and {@code slo-tight}, whose comparison is against today's best configuration (flow control queues
     * and sheds too).
     */
    public static final List<String> FLOW_CONTROL = List.of("priorities", "faults", "slo", "slo-tight");

    /** What {@code bench} runs when no scenario is named: the routing comparisons. */
    public static List<String> defaultNames() {
        return names().stream().filter(n -> !NAMED_ONLY.contains(n)).toList();
    }

    public static Optional<Scenario> byName(String name, String model) {
        return all(model).stream().filter(s -> s.name().equals(name)).findFirst();
    }

    /**
     * 128 groups, each with its own 2,048-token system prompt and short questions. All system prompts
     * together (128 × 128 blocks) are over twice one pod's KV cache, but a quarter of them fits: a
     * router that keeps each group on one pod prefills each prompt about once, a blind one keeps
     * evicting and prefilling them again.
     */
    static Scenario sharedPrefix(String model) {
        FleetSpec fleet = new FleetSpec(model, FleetSpec.pods(PODS), List.of(), 0, KV_BLOCKS, MAX_NUM_SEQS,
                FleetSpec.DEFAULT_MAX_NUM_BATCHED_TOKENS, 1.0);
        return new Scenario("shared-prefix",
                "128 groups sharing 2,048-token system prompts; the prompts overflow one pod's KV cache unless grouped",
                fleet,
                seed -> new SharedPrefixWorkload(model, 128, 2048, new IntRange(64, 256), SHORT_OUTPUT,
                        Scenario.fixedText(seed)),
                new PoissonArrivals(1), 0.85, RUN, MAX_REQUESTS);
    }

    /**
     * 16 adapters with Zipf popularity on pods that hold 4 at a time: spread blindly, every pod
     * juggles all 16 and requests wait for a free adapter slot; grouped, each pod keeps its few hot.
     */
    static Scenario lora(String model) {
        List<String> adapters = adapterNames(model, 16);
        FleetSpec fleet = new FleetSpec(model, FleetSpec.pods(PODS), adapters, 4, KV_BLOCKS, MAX_NUM_SEQS,
                FleetSpec.DEFAULT_MAX_NUM_BATCHED_TOKENS, 1.0);
        return new Scenario("lora",
                "16 LoRA adapters with Zipf(1.0) popularity on pods holding max_loras=4 each",
                fleet,
                seed -> new LoraWorkload(adapters, 1.0, SHAREGPT_PROMPT, SHORT_OUTPUT, 4),
                new PoissonArrivals(1), 0.85, RUN, MAX_REQUESTS);
    }

    /** Real traffic is a blend: shared-prefix groups, adapter traffic and one-off prompts together. */
    static Scenario mixed(String model) {
        List<String> adapters = adapterNames(model, 8);
        FleetSpec fleet = new FleetSpec(model, FleetSpec.pods(PODS), adapters, 4, KV_BLOCKS, MAX_NUM_SEQS,
                FleetSpec.DEFAULT_MAX_NUM_BATCHED_TOKENS, 1.0);
        return new Scenario("mixed",
                "40% shared-prefix (96 groups), 30% LoRA (8 adapters, max_loras=4), 30% unique prompts",
                fleet,
                seed -> new MixedWorkload(List.of(
                        new MixedWorkload.Part(0.4, new SharedPrefixWorkload(model, 96, 2048, new IntRange(64, 256),
                                SHORT_OUTPUT, Scenario.fixedText(seed))),
                        new MixedWorkload.Part(0.3, new LoraWorkload(adapters, 1.0, SHAREGPT_PROMPT, SHORT_OUTPUT, 4)),
                        new MixedWorkload.Part(0.3, new UniquePromptWorkload(model, SHAREGPT_PROMPT, SHORT_OUTPUT)))),
                new PoissonArrivals(1), 0.85, RUN, MAX_REQUESTS);
    }

    /**
     * Unique prompts of widely varying size arriving in bursts: 2 s at 3× the mean rate, then 6 s at a
     * third of it. During a burst the fleet is over capacity and queues build; a queue-aware router
     * spreads them evenly, a blind one lets long requests pile up on unlucky pods.
     */
    static Scenario bursty(String model) {
        FleetSpec fleet = new FleetSpec(model, FleetSpec.pods(PODS), List.of(), 0, KV_BLOCKS, MAX_NUM_SEQS,
                FleetSpec.DEFAULT_MAX_NUM_BATCHED_TOKENS, 1.0);
        return new Scenario("bursty",
                "unique prompts (64..2,048 tokens) in on/off bursts: 2 s at 3x the mean rate, 6 s at 1/3",
                fleet,
                seed -> new UniquePromptWorkload(model, new IntRange(64, 2048), new IntRange(16, 160)),
                new OnOffArrivals(1, 3, 2, 6), 0.6, Duration.ofSeconds(24), MAX_REQUESTS);
    }

    /** The priority classes of the {@code priorities} scenario and their shares of requests. */
    static final List<PrioritizedWorkload.Share> PRIORITY_MIX = List.of(
            new PrioritizedWorkload.Share("critical", 0.2), new PrioritizedWorkload.Share("standard", 0.5),
            new PrioritizedWorkload.Share("sheddable", 0.3));

    /**
     * The bursty traffic with a priority class on every request (header {@code x-gateway-priority}): during
     * a burst the whole fleet is saturated, so no placement can keep every TTFT low; flow control can keep
     * the critical ones low by letting them pass the queue and refusing the sheddable ones (429).
     */
    static Scenario priorities(String model) {
        FleetSpec fleet = new FleetSpec(model, FleetSpec.pods(PODS), List.of(), 0, KV_BLOCKS, MAX_NUM_SEQS,
                FleetSpec.DEFAULT_MAX_NUM_BATCHED_TOKENS, 1.0);
        return new Scenario("priorities",
                "the bursty traffic with a priority class per request: 20% critical, 50% standard, 30% sheddable",
                fleet,
                seed -> new PrioritizedWorkload(new UniquePromptWorkload(model, new IntRange(64, 2048),
                        new IntRange(16, 160)), PRIORITY_MIX, seed),
                new OnOffArrivals(1, 3, 2, 6), 0.6, Duration.ofSeconds(24), MAX_REQUESTS);
    }

    /**
     * The latency classes of the {@code slo} scenario: each share's priority, weight and targets (simulated time).
     * Interactive requests want a quick first token and a steady stream, standard ones a first token within a
     * couple of seconds, batch ones only that they are served at all before a long deadline.
     */
    static final List<PrioritizedWorkload.Share> SLO_MIX = List.of(
            new PrioritizedWorkload.Share("critical", 0.4,
                    new SloClass("interactive", Duration.ofMillis(500), Duration.ofMillis(50))),
            new PrioritizedWorkload.Share("standard", 0.4, SloClass.ttft("standard", Duration.ofSeconds(2))),
            new PrioritizedWorkload.Share("sheddable", 0.2, SloClass.ttft("batch", Duration.ofSeconds(20))));

    /**
     * The classes of the {@code slo-tight} scenario: those of {@link #SLO_MIX} in the same shares, with targets
     * tighter by 40 %: an interactive first token within 300 ms (and the same 50 ms a token after it), a standard one
     * within 1.2 s, batch work served within 12 s.
     */
    static final List<PrioritizedWorkload.Share> SLO_TIGHT_MIX = List.of(
            new PrioritizedWorkload.Share("critical", 0.4,
                    new SloClass("interactive", Duration.ofMillis(300), Duration.ofMillis(50))),
            new PrioritizedWorkload.Share("standard", 0.4, SloClass.ttft("standard", Duration.ofMillis(1200))),
            new PrioritizedWorkload.Share("sheddable", 0.2, SloClass.ttft("batch", Duration.ofSeconds(12))));

    /**
     * Eight pods, half at half speed as in {@code heterogeneous}, steady Poisson traffic of unique prompts in the
     * three {@link #SLO_MIX} classes, each request carrying its priority and latency targets. Meant to be run at
     * 0.8, 1.0 and 1.2 of capacity ({@code --load}): below it a router should keep nearly every target, above it
     * only one that knows the targets can choose which requests to keep on time (and shed batch work with a 429).
     */
    static Scenario slo(String model) {
        return slo(model, "slo", "8 pods, half at half speed; steady Poisson traffic of unique prompts in three "
                + "latency classes: 40% interactive, 40% standard, 20% batch, each with its TTFT (and TPOT) target",
                SLO_MIX, 1.0);
    }

    /**
     * The {@code slo} scenario overloaded with tighter targets: the same fleet and traffic in the classes of
     * {@link #SLO_TIGHT_MIX}, at 1.2 times the fleet's capacity unless {@code --load} says otherwise. No placement
     * keeps every target here; what is left to choose is which requests keep theirs and which batch work is shed.
     */
    static Scenario sloTight(String model) {
        return slo(model, "slo-tight", "the slo scenario at 1.2x capacity with tighter targets: 40% interactive "
                + "(TTFT 300 ms, TPOT 50 ms), 40% standard (TTFT 1.2 s), 20% batch (TTFT 12 s, sheddable)",
                SLO_TIGHT_MIX, 1.2);
    }

    private static Scenario slo(String model, String name, String summary, List<PrioritizedWorkload.Share> mix,
                                double defaultLoad) {
        FleetSpec fleet = new FleetSpec(model, FleetSpec.pods(8, 1.0, 1.0, 1.0, 1.0, 0.5, 0.5, 0.5, 0.5), List.of(), 0,
                KV_BLOCKS, MAX_NUM_SEQS, FleetSpec.DEFAULT_MAX_NUM_BATCHED_TOKENS, 1.0);
        return new Scenario(name, summary, fleet,
                seed -> new PrioritizedWorkload(new UniquePromptWorkload(model, SHAREGPT_PROMPT, SHORT_OUTPUT), mix,
                        seed),
                new PoissonArrivals(1), defaultLoad, RUN, SLO_MAX_REQUESTS);
    }

    /**
     * The classes of the {@code global} scenario: a fifth critical with a tight first-token target, half standard,
     * the rest sheddable batch work that only needs serving at all, and is where a cheaper region pays off.
     */
    static final List<PrioritizedWorkload.Share> GLOBAL_MIX = List.of(
            new PrioritizedWorkload.Share("critical", 0.2, SloClass.ttft("interactive", Duration.ofMillis(500))),
            new PrioritizedWorkload.Share("standard", 0.5, SloClass.ttft("standard", Duration.ofSeconds(2))),
            new PrioritizedWorkload.Share("sheddable", 0.3, SloClass.ttft("batch", Duration.ofSeconds(20))));

    /**
     * Two regions behind a global tier ({@link GlobalLayout#standard()}: near and dear, far and cheap), each two pods
     * with room for 8 requests apiece, so that a region saturates at a rate a small box can stream through three
     * gateways. The fleet here is one region's; the load is a share of one region's capacity, so the remaining region
     * can carry the tier's traffic alone once the other is lost. Steady Poisson traffic in three classes; the spike
     * and the loss are {@link GlobalLayout}'s.
     */
    static Scenario global(String model) {
        FleetSpec region = new FleetSpec(model, FleetSpec.pods(2), List.of(), 0, KV_BLOCKS, 8,
                FleetSpec.DEFAULT_MAX_NUM_BATCHED_TOKENS, 1.0);
        return new Scenario(GlobalLayout.SCENARIO,
                "a global tier over two regions (near: 5 ms each way, far: 40 ms and half the price); steady traffic "
                        + "in three classes, then a spike of local traffic on the near cluster, then the near cluster "
                        + "lost",
                region,
                seed -> new PrioritizedWorkload(new UniquePromptWorkload(model, SHAREGPT_PROMPT, SHORT_OUTPUT),
                        GLOBAL_MIX, seed),
                new PoissonArrivals(1), 0.6, Duration.ofSeconds(20), SLO_MAX_REQUESTS);
    }

    /** The spike's own traffic: the near region's local users, standard priority, no targets the tier knows of. */
    static Workload globalSpike(String model, long seed) {
        return new PrioritizedWorkload(new UniquePromptWorkload(model, SHAREGPT_PROMPT, SHORT_OUTPUT),
                List.of(new PrioritizedWorkload.Share("standard", 1)), seed);
    }

    /**
     * The fleet measures about 340 req/s, so 1.2 of capacity over {@link #RUN} is some 8,200 requests: the cap sits
     * above that so that the arrivals span the whole run at every load the scenario is meant for.
     */
    private static final int SLO_MAX_REQUESTS = 10_000;

    /**
     * Five pods, four of which go wrong one after another while traffic runs: pod-0 is killed (listener
     * and open streams gone), pod-1 slows to a quarter of its speed, pod-2 answers 503 to every inference
     * request, pod-3 serves /metrics no parser accepts; pod-4 stays healthy. The load fits what is left.
     * The only requests that may fail are the streams running on pod-0 when it died: the rest must be
     * failed over before their first byte, or routed around the broken pods.
     */
    static Scenario faults(String model) {
        FleetSpec fleet = new FleetSpec(model, FleetSpec.pods(5), List.of(), 0, KV_BLOCKS, MAX_NUM_SEQS,
                FleetSpec.DEFAULT_MAX_NUM_BATCHED_TOKENS, 1.0);
        return new Scenario("faults",
                "5 pods; during the run pod-0 is killed, pod-1 slowed to x0.25, pod-2 answers 503, pod-3 serves "
                        + "broken /metrics",
                fleet,
                seed -> new UniquePromptWorkload(model, SHAREGPT_PROMPT, SHORT_OUTPUT),
                new PoissonArrivals(1), 0.3, Duration.ofSeconds(24), MAX_REQUESTS,
                List.of(new PodFault(6, 0, PodFault.Kind.KILL, 0),
                        new PodFault(8, 1, PodFault.Kind.SLOW, 0.25),
                        new PodFault(10, 2, PodFault.Kind.UNAVAILABLE, 0),
                        new PodFault(12, 3, PodFault.Kind.BROKEN_METRICS, 0)));
    }

    /**
     * Half the pods at half speed (an older GPU generation in the same pool): round-robin gives them
     * a quarter of the traffic each, more than the sixth of the capacity they have.
     */
    static Scenario heterogeneous(String model) {
        FleetSpec fleet = new FleetSpec(model, FleetSpec.pods(PODS, 1.0, 1.0, 0.5, 0.5), List.of(), 0, KV_BLOCKS,
                MAX_NUM_SEQS, FleetSpec.DEFAULT_MAX_NUM_BATCHED_TOKENS, 1.0);
        return new Scenario("heterogeneous",
                "half the pods at half speed, steady Poisson traffic of unique prompts",
                fleet,
                seed -> new UniquePromptWorkload(model, SHAREGPT_PROMPT, SHORT_OUTPUT),
                new PoissonArrivals(1), 0.85, RUN, MAX_REQUESTS);
    }

    /** The control: equal pods, steady Poisson traffic, nothing to exploit. Gains here should be ~0. */
    static Scenario uniform(String model) {
        FleetSpec fleet = new FleetSpec(model, FleetSpec.pods(PODS), List.of(), 0, KV_BLOCKS, MAX_NUM_SEQS,
                FleetSpec.DEFAULT_MAX_NUM_BATCHED_TOKENS, 1.0);
        return new Scenario("uniform",
                "equal pods, steady Poisson traffic of unique prompts: the control, where routing has little to gain",
                fleet,
                seed -> new UniquePromptWorkload(model, SHAREGPT_PROMPT, SHORT_OUTPUT),
                new PoissonArrivals(1), 0.85, RUN, MAX_REQUESTS);
    }

    /**
     * Adapter names as the simulator registers them: the model name after its last '/', lower-cased,
     * then {@code -lora-<i>} (meta-llama/Llama-3.1-8B-Instruct → llama-3.1-8b-instruct-lora-0).
     */
    public static List<String> adapterNames(String model, int count) {
        String shortName = model.substring(model.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        List<String> names = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            names.add(shortName + "-lora-" + i);
        }
        return names;
    }
}
