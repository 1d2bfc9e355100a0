package io.inferencegateway.scheduling.framework;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

import io.inferencegateway.config.ReplicaConfig;
import io.inferencegateway.config.SessionAffinityConfig;
import io.inferencegateway.config.TargetConfig;
import io.inferencegateway.domain.RecentFailures;
import io.inferencegateway.scheduling.latency.LatencyPredictor;
import io.inferencegateway.scheduling.prefix.PrefixSharing;
import io.inferencegateway.scheduling.session.SessionTable;

/**
 * What a plugin's factory receives from its pool, and where the plugin registers at the extension points beyond its
 * place in the profile: the pool's facts (its replicas and how they share placement, its sessions' bounds, a global
 * tier's targets, its latency predictor, what its outlier detection saw fail) and, in return, the plugin's producers,
 * admitters, saturation detector, lifecycle plugins, stale fallbacks, membership listeners, how much of the prompt it
 * reads, and what the meters may read of it. One per pool's scheduler, filled while its plugins are built; the
 * scheduler then reads what was registered ({@link Registered}). A plugin built only to check its parameters gets a
 * context whose registrations go nowhere ({@link #forChecking}).
 */
public final class PluginContext {

    private final String pool;
    private final ReplicaConfig replicas;
    private final PrefixSharing sharing;
    private final SessionAffinityConfig sessions;
    private final List<TargetConfig> targets;
    private final LatencyPredictor predictor;
    private final RecentFailures failures;
    private final RandomGenerator random;
    private final List<Ranked<DataProducer>> producers = new ArrayList<>();
    private final List<Admitter> admitters = new ArrayList<>();
    private final List<LifecyclePlugin> lifecycle = new ArrayList<>();
    private final List<MembershipListener> membership = new ArrayList<>();
    private final List<Ranked<StaleFallback>> fallbacks = new ArrayList<>();
    private final List<LongSupplier> indexEntries = new ArrayList<>();
    private SaturationDetector detector;
    private SessionTable sessionTable;
    private int promptChars;
    private final Map<String, Fact> facts = new LinkedHashMap<>();

    /**
     * @param pool      the pool's name
     * @param replicas  the other gateway replicas in front of the same pods, and how they agree on placement
     * @param sharing   where a prefix index joins the other replicas' decisions ({@code placement: shared})
     * @param sessions  the pool's session affinity, whose table bounds the session plugin keeps to
     * @param targets   at a global tier, the clusters and providers the candidates are; else empty
     * @param predictor the pool's latency predictor
     * @param failures  what the pool's outlier detection saw fail lately
     * @param random    what pickers break ties with
     */
    public PluginContext(String pool, ReplicaConfig replicas, PrefixSharing sharing, SessionAffinityConfig sessions,
            List<TargetConfig> targets, LatencyPredictor predictor, RecentFailures failures, RandomGenerator random) {
        this.pool = Objects.requireNonNull(pool);
        this.replicas = Objects.requireNonNull(replicas);
        this.sharing = Objects.requireNonNull(sharing);
        this.sessions = Objects.requireNonNull(sessions);
        this.targets = List.copyOf(targets);
        this.predictor = Objects.requireNonNull(predictor);
        this.failures = Objects.requireNonNull(failures);
        this.random = Objects.requireNonNull(random);
    }

    /** A context for building a plugin only to check its parameters: default facts, registrations kept by nobody. */
    public static PluginContext forChecking(RandomGenerator random) {
        return new PluginContext("check", ReplicaConfig.SINGLE, PrefixSharing.NONE, SessionAffinityConfig.OFF,
                List.of(), new LatencyPredictor("check"), RecentFailures.NONE, random);
    }

    // ---- the pool's facts ------------------------------------------------------------------------------------

    public String pool() {
        return pool;
    }

    public ReplicaConfig replicas() {
        return replicas;
    }

    public PrefixSharing sharing() {
        return sharing;
    }

    public SessionAffinityConfig sessions() {
        return sessions;
    }

    /** At a global tier, the clusters and providers; empty for a pool of pods. */
    public List<TargetConfig> targets() {
        return targets;
    }

    public LatencyPredictor predictor() {
        return predictor;
    }

    public RecentFailures failures() {
        return failures;
    }

    public RandomGenerator random() {
        return random;
    }

    // ---- registrations ---------------------------------------------------------------------------------------

    /**
     * Runs {@code p} once per request, before admission and the profiles, in its {@code stage}
     * ({@link DataProducer#FACTS} or {@link DataProducer#PREDICTIONS}); once, however often it is registered.
     */
    public void producer(int stage, DataProducer p) {
        Objects.requireNonNull(p);
        if (producers.stream().noneMatch(r -> r.item().equals(p))) {
            producers.add(new Ranked<>(stage, p));
        }
    }

    public void admitter(Admitter a) {
        addOnce(admitters, a);
    }

    /** The pool's saturation detector: the first registered. */
    public void saturationDetector(SaturationDetector d) {
        if (detector == null) {
            detector = Objects.requireNonNull(d);
        }
    }

    public void lifecycle(LifecyclePlugin l) {
        addOnce(lifecycle, l);
    }

    /** Told the pool's endpoints whenever they change. */
    public void membership(MembershipListener l) {
        addOnce(membership, l);
    }

    /** Asked where a request goes while no metrics are fresh, by {@code precedence} (lowest first). */
    public void staleFallback(int precedence, StaleFallback f) {
        fallbacks.add(new Ranked<>(precedence, Objects.requireNonNull(f)));
    }

    /**
     * The fact of that name, with a slot in every candidate's state of the pool's requests: registered on first use,
     * the same one for every plugin that asks for it by name.
     */
    public Fact fact(String name) {
        return facts.computeIfAbsent(name, n -> new Fact(n, facts.size()));
    }

    /** The plugin reads up to {@code chars} of the prompt's first characters. */
    public void readsPrompt(int chars) {
        promptChars = Math.max(promptChars, chars);
    }

    /** Blocks a prefix index holds, for the pool's {@code inference_extension_prefix_indexer_size}. */
    public void prefixIndex(LongSupplier entries) {
        indexEntries.add(Objects.requireNonNull(entries));
    }

    /** Where the pool remembers its sessions, for the meters. */
    public void sessionTable(SessionTable table) {
        sessionTable = Objects.requireNonNull(table);
    }

    private static <T> void addOnce(List<T> list, T item) {
        Objects.requireNonNull(item);
        if (!list.contains(item)) {
            list.add(item);
        }
    }

    /** An item and its rank; sorting keeps registration order within a rank. */
    private record Ranked<T>(int rank, T item) {
    }

    private static <T> List<T> byRank(List<Ranked<T>> items) {
        return items.stream().sorted(Comparator.comparingInt(Ranked::rank)).map(Ranked::item).toList();
    }

    /** What was registered, fixed once the scheduler's plugins are built. */
    public Registered registered() {
        return new Registered(byRank(producers), List.copyOf(admitters), detector, List.copyOf(lifecycle),
                List.copyOf(membership), byRank(fallbacks), List.copyOf(indexEntries), sessionTable, promptChars,
                facts.size());
    }

    /**
     * A pool's registrations.
     *
     * @param detector     the saturation detector, or null
     * @param sessionTable the session table, or null
     * @param promptChars  the most of a prompt any plugin reads
     * @param facts        how many facts the plugins registered
     */
    public record Registered(List<DataProducer> producers, List<Admitter> admitters, SaturationDetector detector,
            List<LifecyclePlugin> lifecycle, List<MembershipListener> membership, List<StaleFallback> fallbacks,
            List<LongSupplier> prefixIndexes, SessionTable sessionTable, int promptChars, int facts) {
    }
}
