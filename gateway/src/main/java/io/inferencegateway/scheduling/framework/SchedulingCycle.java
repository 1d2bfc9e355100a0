package io.inferencegateway.scheduling.framework;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

import io.inferencegateway.domain.Endpoint;
import io.inferencegateway.domain.InferenceRequest;
import io.inferencegateway.domain.LatencyTargets;
import io.inferencegateway.domain.PickReason;
import io.inferencegateway.scheduling.prefix.PromptBlocks;

/**
 * What one request's scheduling shares between its plugins, from its admission to its committed pick: the request,
 * the time, the latency targets it must still meet, the candidates' snapshot (their {@link EndpointState}s, built once
 * and read by the producers, admission and every profile) and the prompt's block hashes (computed at most once, by
 * whichever plugin asks first). Plugins also leave here what a profile's explanation needs: why a filter removed
 * endpoints ({@link #removed}) and how many prompt tokens a candidate probably has cached
 * ({@link #expectCachedTokens}); the profile puts the decisive reason next to them. Instances are pooled per thread
 * and reused from request to request, so a decision allocates next to nothing.
 */
public final class SchedulingCycle {

    private final List<EndpointState> states = new States();
    private final EndpointsView endpoints = new EndpointsView();
    // the filters' kept lists, in turn (keptList)
    private final ArrayList<EndpointState> keptA = new ArrayList<>();
    private final ArrayList<EndpointState> keptB = new ArrayList<>();
    private int stateCount;
    // one PromptBlocks per block geometry asked for (in practice one: the prefix scorer's), reused per thread
    private PromptBlocks[] blocks = new PromptBlocks[0];
    private boolean[] blocksReady = new boolean[0];
    private EndpointState[] statePool = new EndpointState[0];
    private double[] scores = new double[16];
    private double[] totals = new double[16];
    private int[] ints = new int[16];
    private double[] doubles = new double[16];
    // per scorer k and candidate i, the weighted clamped score at [k * n + i] (SchedulerProfile)
    private double[] weighted = new double[64];
    private double[] rowBests = new double[15];
    private int[] cachedTokens = new int[16];
    // what the filters removed, as (filter, outcome, endpoints) rows; the current filter's rows start at filterMark
    private Filter[] outcomeFilter = new Filter[4];
    private String[] outcomeName = new String[4];
    private int[] outcomeCount = new int[4];
    private PickReason[] outcomeMeaning = new PickReason[4];
    private int outcomes;
    private int filterMark;
    private Filter currentFilter;
    private PickReason reason;
    private int chosenCachedTokens;
    private InferenceRequest request;
    private LatencyTargets targets = LatencyTargets.NONE;
    private long nowNanos;
    private int factCount;
    private String pool = "";
    private String homeRegion;
    private PickReason pendingOverride;
    private PickReason overridingReason;
    private PickReason pickerReason;
    private boolean cachedTokensComplete;

    /** Starts scheduling a request that did not wait; forgets everything of the previous one. */
    public SchedulingCycle begin(InferenceRequest request, long nowNanos) {
        return begin(request, nowNanos, 0);
    }

    /**
     * Starts scheduling a request that waited {@code waitedNanos} in the gateway's queue: its time-to-first-token
     * target is that much shorter now ({@link #targets}). Forgets everything of the previous request.
     */
    public SchedulingCycle begin(InferenceRequest request, long nowNanos, long waitedNanos) {
        this.request = request;
        this.nowNanos = nowNanos;
        this.targets = remaining(request.targets(), waitedNanos);
        Arrays.fill(blocksReady, false);
        this.stateCount = 0;
        this.cachedTokensComplete = false;
        startProfile();
        return this;
    }

    /** Targets less the wait: a TTFT target at least 1 ms, so that a late request still has one. */
    private static LatencyTargets remaining(LatencyTargets t, long waitedNanos) {
        if (waitedNanos <= 0 || t.ttftMillis() == 0) {
            return t;
        }
        return new LatencyTargets(Math.max(1, t.ttftMillis() - waitedNanos / 1_000_000), t.tpotMillis());
    }

    /** Forgets what the previous profile reported, before another profile runs on the same snapshot. */
    void startProfile() {
        this.outcomes = 0;
        this.currentFilter = null;
        this.reason = null;
        this.chosenCachedTokens = 0;
        this.pendingOverride = null;
        this.overridingReason = null;
        this.pickerReason = null;
    }

    /**
     * The facts of the pool this cycle decides for, which stay from decision to decision: its name and, at a global
     * tier, its home region (null elsewhere).
     */
    public SchedulingCycle pool(String name, String home) {
        this.pool = name;
        this.homeRegion = home;
        return this;
    }

    /** The name of the pool deciding, for messages. */
    public String pool() {
        return pool;
    }

    /** At a global tier, the home region (where standard traffic stays while it can); null elsewhere. */
    public String homeRegion() {
        return homeRegion;
    }

    /** Ends the request's scheduling: lets go of the request (and its prompt text) until the next one. */
    public void end() {
        request = null;
        Arrays.fill(blocksReady, false);
        keptA.clear();
        keptB.clear();
        endpoints.states = List.of();
    }

    public InferenceRequest request() {
        return request;
    }

    /**
     * The latency the request must still be served within: its targets, less the time it waited in the gateway's
     * queue ({@link LatencyTargets#NONE} without targets). Plugins read this, not the request's own.
     */
    public LatencyTargets targets() {
        return targets;
    }

    public long nowNanos() {
        return nowNanos;
    }

    /**
     * The prompt's chain-hashed blocks of {@code blockChars} characters, at most {@code maxBlocks} of them,
     * seeded with the requested model and adapter: computed once per decision and geometry, by whichever
     * plugin asks first.
     */
    public PromptBlocks promptBlocks(int blockChars, int maxBlocks) {
        int i = geometry(blockChars, maxBlocks);
        if (!blocksReady[i]) {
            blocks[i].compute(request.model(), request.adapter(), request.promptText());
            blocksReady[i] = true;
        }
        return blocks[i];
    }

    /** The slot of a block geometry in {@link #blocks}, made on first use. */
    private int geometry(int blockChars, int maxBlocks) {
        int i = 0;
        while (i < blocks.length && !(blocks[i].blockChars() == blockChars && blocks[i].maxBlocks() == maxBlocks)) {
            i++;
        }
        if (i == blocks.length) { // first request of this cycle with this geometry
            blocks = Arrays.copyOf(blocks, i + 1);
            blocksReady = Arrays.copyOf(blocksReady, i + 1);
            blocks[i] = new PromptBlocks(blockChars, maxBlocks);
        }
        return i;
    }

    /** Adds a (reused) state object to this cycle's candidate list and returns it for filling in. */
    public EndpointState addState() {
        EndpointState s = nextState();
        s.facts(factCount);
        return s;
    }

    /** The facts every state has slots for: those its pool registered ({@link PluginContext#fact}). */
    public SchedulingCycle facts(int count) {
        this.factCount = count;
        return this;
    }

    private EndpointState nextState() {
        int i = stateCount;
        if (i == statePool.length) {
            EndpointState[] grown = new EndpointState[Math.max(16, i * 2)];
            System.arraycopy(statePool, 0, grown, 0, i);
            for (int j = i; j < grown.length; j++) {
                grown[j] = new EndpointState();
            }
            statePool = grown;
        }
        stateCount = i + 1;
        return statePool[i];
    }

    public List<EndpointState> states() {
        return states;
    }

    /** The endpoints of {@code states}, as a view (no copy) that this cycle reuses: valid until its next call. */
    public List<Endpoint> endpointView(List<EndpointState> states) {
        endpoints.states = states;
        return endpoints;
    }

    /**
     * An empty list for a filter to return what it keeps of {@code endpoints} in, reused from decision to decision (so
     * it is valid until the decision ends): never {@code endpoints} itself, so the next filter can fill one while it
     * reads the other.
     */
    public List<EndpointState> keptList(List<EndpointState> endpoints) {
        ArrayList<EndpointState> kept = endpoints == keptA ? keptB : keptA;
        kept.clear();
        return kept;
    }

    double[] scores(int n) {
        if (scores.length < n) {
            scores = new double[Math.max(n, scores.length * 2)];
        }
        return scores;
    }

    /** A per-thread int array of at least {@code n} slots for a plugin's own use during its call. */
    public int[] intScratch(int n) {
        if (ints.length < n) {
            ints = new int[Math.max(n, ints.length * 2)];
        }
        return ints;
    }

    /** A per-thread double array of at least {@code n} slots for a plugin's own use during its call. */
    public double[] doubleScratch(int n) {
        if (doubles.length < n) {
            doubles = new double[Math.max(n, doubles.length * 2)];
        }
        return doubles;
    }

    double[] totals(int n) {
        if (totals.length < n) {
            totals = new double[Math.max(n, totals.length * 2)];
        }
        return totals;
    }

    // ---------------------------------------------------------------- what plugins report

    /**
     * A filter tells why it removed {@code endpoints} of the list it was given: {@code outcome} is a short
     * snake_case constant of the filter (a metrics label value: {@code saturated}, {@code stale}, ...).
     * Counted only when the framework applies the filter's result (not when it fails open).
     */
    public void removed(String outcome, int endpoints) {
        removed(outcome, endpoints, null);
    }

    /**
     * Like {@link #removed(String, int)}, and says what the narrowing means for the endpoints kept: when it
     * leaves one candidate, {@code meaning} becomes the decision's reason instead of
     * {@link PickReason#ONLY_CANDIDATE} (the LoRA filter keeping the one pod that runs the adapter).
     */
    public void removed(String outcome, int endpoints, PickReason meaning) {
        if (endpoints <= 0 || currentFilter == null) {
            return;
        }
        for (int i = filterMark; i < outcomes; i++) {
            if (outcomeName[i].equals(outcome)) {
                outcomeCount[i] += endpoints;
                if (meaning != null) {
                    outcomeMeaning[i] = meaning;
                }
                return;
            }
        }
        addOutcome(currentFilter, outcome, endpoints, meaning);
    }

    /**
     * A filter tells that what it keeps is kept for {@code reason}, and that this explains the pick whatever the
     * scorers then prefer among them: the overflow filter keeping only external providers makes every such pick
     * {@link PickReason#OVERFLOW}. Counted when the framework applies the filter's result and it removed endpoints;
     * a later filter's wins.
     */
    public void narrowedBecause(PickReason reason) {
        if (currentFilter != null) {
            pendingOverride = reason;
        }
    }

    /** The reason a filter's narrowing gave the whole decision ({@link #narrowedBecause}); null when none did. */
    PickReason overridingReason() {
        return overridingReason;
    }

    /**
     * A picker tells that {@code reason} decided its pick, not the scores' favourite (a predicted time that overruled
     * them); the decision reports it unless a filter's narrowing or a single candidate explains the pick.
     */
    public void pickedBecause(PickReason reason) {
        pickerReason = reason;
    }

    /** What the picker said decided its pick ({@link #pickedBecause}); null when the scores did. */
    public PickReason pickerReason() {
        return pickerReason;
    }

    /**
     * A producer counted into every candidate's {@link EndpointState#cachedTokens} what its prefix index says;
     * {@code everyReplica}: that index learnt every gateway replica's decisions (one gateway, or replicas sharing
     * them), not only this one's.
     */
    public void cachedTokensCounted(boolean everyReplica) {
        cachedTokensComplete = everyReplica;
    }

    /**
     * Whether a producer counted the candidates' cached tokens this request, including what other gateway replicas
     * sent ({@link #cachedTokensCounted}): what one gateway would know. If not, a candidate's
     * {@link EndpointState#cachedTokens} of 0 does not say it holds nothing.
     */
    public boolean cachedTokensComplete() {
        return cachedTokensComplete;
    }

    /**
     * The prompt tokens the scorers expect candidate {@code i} (an index into the list the picker was given) to serve
     * from its prefix cache; 0 when none reported.
     */
    public int expectedCachedTokens(int i) {
        return cachedTokens[i];
    }

    /**
     * A scorer tells how many prompt tokens candidate {@code i} (an index into the list it was given) probably
     * serves from its prefix cache; the decision reports the chosen one's. The largest report wins.
     */
    public void expectCachedTokens(int i, int tokens) {
        if (i >= 0 && i < cachedTokens.length && tokens > cachedTokens[i]) {
            cachedTokens[i] = tokens;
        }
    }

    // ---------------------------------------------------------------- the decision's explanation

    /** What decided the last {@link SchedulerProfile#schedule}; null before one ran in this cycle. */
    public PickReason reason() {
        return reason;
    }

    /** Prompt tokens the chosen endpoint probably has cached, as the scorers reported it; 0 when none did. */
    public int expectedCachedTokens() {
        return chosenCachedTokens;
    }

    /** How many (filter, outcome) rows this decision's filters reported. */
    public int filterOutcomes() {
        return outcomes;
    }

    public Filter filterOf(int row) {
        return outcomeFilter[row];
    }

    /** The row's outcome: a filter's constant, {@link Filter#REMOVED} or {@link Filter#FAILED_OPEN}. */
    public String outcomeOf(int row) {
        return outcomeName[row];
    }

    public int endpointsOf(int row) {
        return outcomeCount[row];
    }

    // ---------------------------------------------------------------- used by SchedulerProfile

    void filterStarts(Filter f) {
        currentFilter = f;
        filterMark = outcomes;
    }

    /**
     * The filter returned: {@code applied} false when it would have removed everything (fail open), which
     * drops what it reported and counts one {@link Filter#FAILED_OPEN}; otherwise removals it did not explain
     * count as {@link Filter#REMOVED}.
     *
     * @return the meaning the filter gave its narrowing, or null
     */
    PickReason filterEnds(boolean applied, int removedEndpoints) {
        Filter f = currentFilter;
        currentFilter = null;
        PickReason override = pendingOverride;
        pendingOverride = null;
        if (applied && removedEndpoints > 0 && override != null) {
            overridingReason = override;
        }
        if (!applied) {
            outcomes = filterMark;
            addOutcome(f, Filter.FAILED_OPEN, 1, null);
            return null;
        }
        int explained = 0;
        PickReason meaning = null;
        for (int i = filterMark; i < outcomes; i++) {
            explained += outcomeCount[i];
            if (outcomeMeaning[i] != null) {
                meaning = outcomeMeaning[i];
            }
        }
        if (removedEndpoints > explained) {
            addOutcome(f, Filter.REMOVED, removedEndpoints - explained, null);
        }
        return removedEndpoints > 0 ? meaning : null;
    }

    void decided(PickReason why, int cachedTokensOfChosen) {
        reason = why;
        chosenCachedTokens = cachedTokensOfChosen;
    }

    /** Three slots per scorer for {@link SchedulerProfile}: its best weighted score, where, and the second best. */
    double[] rowBests(int scorers) {
        if (rowBests.length < 3 * scorers) {
            rowBests = new double[3 * scorers];
        }
        return rowBests;
    }

    double[] weighted(int n) {
        if (weighted.length < n) {
            weighted = new double[Math.max(n, weighted.length * 2)];
        }
        return weighted;
    }

    int[] cachedTokens(int n) {
        if (cachedTokens.length < n) {
            cachedTokens = new int[Math.max(n, cachedTokens.length * 2)];
        }
        Arrays.fill(cachedTokens, 0, n, 0);
        return cachedTokens;
    }

    private void addOutcome(Filter f, String outcome, int endpoints, PickReason meaning) {
        if (outcomes == outcomeName.length) {
            int size = outcomes * 2;
            outcomeFilter = Arrays.copyOf(outcomeFilter, size);
            outcomeName = Arrays.copyOf(outcomeName, size);
            outcomeCount = Arrays.copyOf(outcomeCount, size);
            outcomeMeaning = Arrays.copyOf(outcomeMeaning, size);
        }
        outcomeFilter[outcomes] = f;
        outcomeName[outcomes] = outcome;
        outcomeCount[outcomes] = endpoints;
        outcomeMeaning[outcomes] = meaning;
        outcomes++;
    }

    /** The endpoints of some states ({@link #endpointView}). */
    private static final class EndpointsView extends AbstractList<Endpoint> implements RandomAccess {
        private List<EndpointState> states = List.of();

        @Override
        public Endpoint get(int index) {
            return states.get(index).endpoint();
        }

        @Override
        public int size() {
            return states.size();
        }
    }

    /** The cycle's candidates: a view of the first {@code stateCount} pooled states, rebuilt by every decision. */
    private final class States extends AbstractList<EndpointState> implements RandomAccess {
        @Override
        public EndpointState get(int index) {
            Objects.checkIndex(index, stateCount);
            return statePool[index];
        }

        @Override
        public int size() {
            return stateCount;
        }
    }
}
