package io.inferencegateway.simulator;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * vLLM V1's engine loop as a pure, deterministic state machine in virtual time: no threads, no
 * clock. A driver calls {@link #beginStep(long)} (schedule a batch; returns how long the GPU
 * takes), then {@link #finishStep(long)} at that time (tokens come out, finished requests leave).
 *
 * <p>Scheduling follows vLLM's Scheduler.schedule(): running requests first (a decode token, or
 * the next chunk of a partial prefill) under the step's token budget; a running request whose KV
 * cannot grow preempts the newest running request (freed, back to the front of the waiting queue,
 * recomputed later). Without preemptions, waiting requests are admitted FCFS after a prefix-cache
 * lookup; a request whose adapter would exceed max_loras distinct adapters is skipped (others go
 * ahead of it); a KV allocation failure stops admission (head of line). Not thread-safe: one
 * thread drives an engine.
 */
public final class EngineCore {

    private final EngineConfig config;
    private final MetricsDialect dialect;
    private final KvCacheManager kv;
    private final ArrayDeque<SimRequest> waiting = new ArrayDeque<>();
    private final ArrayList<SimRequest> running = new ArrayList<>();
    private final Set<String> adapters = new LinkedHashSet<>();
    private final Set<String> adaptersReadFromDisk = new LinkedHashSet<>();
    /** Adapters resident in GPU slots, least recently used first. */
    private final LinkedHashMap<String, Boolean> gpuSlots = new LinkedHashMap<>(16, 0.75f, true);
    private final EngineMetrics metrics;
    private final long unixEpochNanosAtZero;
    private final double timeScale;
    private double speed;
    private long nextSeq;

    private final ArrayList<SimRequest> scheduled = new ArrayList<>();
    private int[] scheduledTokens = new int[64];
    private boolean inStep;
    private long stepStartNanos;

    /**
     * @param unixEpochNanosAtZero Unix time (ns) that virtual time 0 stands for; vLLM's
     *                             lora_requests_info values are Unix timestamps
     * @param timeScale            virtual ns per real ns, to map virtual time back to Unix time
     */
    public EngineCore(EngineConfig config, MetricsDialect dialect, long unixEpochNanosAtZero, double timeScale) {
        this.timeScale = timeScale;
        this.config = config;
        this.dialect = dialect;
        this.kv = new KvCacheManager(config.numGpuBlocks(), config.blockSize());
        this.metrics = new EngineMetrics(dialect.buckets(config.maxModelLen()));
        this.adapters.addAll(config.adapters());
        this.speed = config.speed();
        this.unixEpochNanosAtZero = unixEpochNanosAtZero;
    }

    public EngineCore(EngineConfig config) {
        this(config, MetricsDialect.VLLM, 0, 1.0);
    }

    /**
     * Queues a request. {@code adapter} is null for the base model and must be registered otherwise.
     * The caller must have checked the length limits ({@link #validate}).
     */
    public SimRequest submit(String adapter, int[] promptTokens, int maxTokens, long nowNanos,
                             SimRequest.Listener listener) {
        if (adapter != null && !adapters.contains(adapter)) {
            throw new IllegalArgumentException("unknown adapter " + adapter);
        }
        long seq = nextSeq++;
        long seed = Tokenizer.mix(config.seed() ^ Tokenizer.mix(seq + 1));
        SimRequest r = new SimRequest(seq, adapter, promptTokens, maxTokens, seed, nowNanos, listener);
        waiting.addLast(r);
        metrics.requestsReceived++;
        return r;
    }

    /** Null if the request fits the model's context, else vLLM's error message. */
    public String validate(int promptTokens, int maxTokens) {
        if (promptTokens + maxTokens > config.maxModelLen()) {
            return "This model's maximum context length is " + config.maxModelLen() + " tokens. However, you requested "
                    + (promptTokens + maxTokens) + " tokens (" + promptTokens + " in the messages, " + maxTokens
                    + " in the completion). Please reduce the length of the messages or completion.";
        }
        if (promptTokens > (long) config.numGpuBlocks() * config.blockSize()) {
            return "The prompt (" + promptTokens + " tokens) does not fit in the KV cache.";
        }
        return null;
    }

    /** Aborts a waiting or running request (client went away) and frees its KV blocks. */
    public void abort(SimRequest r, long nowNanos) {
        if (r.status == SimRequest.Status.WAITING || r.status == SimRequest.Status.PREEMPTED) {
            waiting.remove(r);
        } else if (r.status == SimRequest.Status.RUNNING) {
            running.remove(r);
            kv.free(r);
        } else {
            return;
        }
        r.status = SimRequest.Status.ABORTED;
        r.finishedNanos = nowNanos;
        metrics.aborted++;
        r.listener.onFinish(r, "abort", nowNanos);
    }

    /** True when a step would have something to do. */
    public boolean hasWork() {
        return !running.isEmpty() || !waiting.isEmpty();
    }

    public boolean inStep() {
        return inStep;
    }

    /**
     * Schedules the next batch at {@code nowNanos}; returns the step's duration in ns, or -1 when
     * there is nothing to schedule.
     */
    public long beginStep(long nowNanos) {
        if (inStep) {
            throw new IllegalStateException("a step is already running");
        }
        scheduled.clear();
        int budget = config.maxNumBatchedTokens();
        int numScheduled = 0;
        boolean preempted = false;

        int i = 0;
        while (i < running.size() && budget > 0) {
            SimRequest r = running.get(i);
            int numNew = Math.min(r.numTokens - r.numComputed, budget);
            boolean canSchedule = false;
            while (true) {
                if (kv.allocate(r, numNew, 0)) {
                    canSchedule = true;
                    break;
                }
                SimRequest victim = running.remove(running.size() - 1);
                preempt(victim);
                preempted = true;
                if (victim == r) {
                    break;
                }
            }
            if (!canSchedule) {
                break;
            }
            addScheduled(r, numNew, numScheduled++);
            budget -= numNew;
            i++;
        }

        Set<String> batchAdapters = new LinkedHashSet<>();
        for (SimRequest r : scheduled) {
            if (r.adapter != null) {
                batchAdapters.add(r.adapter);
            }
        }

        if (!preempted) {
            ArrayDeque<SimRequest> skipped = new ArrayDeque<>();
            while (!waiting.isEmpty() && budget > 0 && running.size() < config.maxNumSeqs()) {
                SimRequest r = waiting.peekFirst();
                if (r.adapter != null && !batchAdapters.contains(r.adapter)
                        && batchAdapters.size() >= config.maxLoras()) {
                    skipped.addLast(waiting.pollFirst());
                    continue;
                }
                int hitBlocks = 0;
                if (r.numComputed == 0) {
                    hitBlocks = kv.lookupPrefixBlocks(r);
                    metrics.prefixQueries += r.numTokens;
                    metrics.prefixHits += (long) hitBlocks * config.blockSize();
                }
                int computedBefore = hitBlocks * config.blockSize();
                int numNew = Math.min(r.numTokens - computedBefore, budget);
                r.numComputed = computedBefore;
                if (!kv.allocate(r, numNew, hitBlocks)) {
                    r.numComputed = 0;
                    break;
                }
                waiting.pollFirst();
                if (r.cachedPromptTokens < 0) {
                    r.cachedPromptTokens = Math.min(computedBefore, r.promptLength);
                }
                if (r.firstScheduledNanos < 0) {
                    // a real-time driver may start a step a hair before an arrival it already saw
                    r.firstScheduledNanos = Math.max(nowNanos, r.arrivalNanos);
                    metrics.queueTime.observe(seconds(r.firstScheduledNanos - r.arrivalNanos));
                }
                r.status = SimRequest.Status.RUNNING;
                running.add(r);
                if (r.adapter != null) {
                    batchAdapters.add(r.adapter);
                }
                addScheduled(r, numNew, numScheduled++);
                budget -= numNew;
            }
            while (!skipped.isEmpty()) {
                waiting.addFirst(skipped.pollLast());
            }
        }

        if (scheduled.isEmpty()) {
            return -1;
        }
        long contextTokens = 0;
        long prefillTokens = 0;
        long stepTokens = 0;
        for (int k = 0; k < scheduled.size(); k++) {
            SimRequest r = scheduled.get(k);
            int n = scheduledTokens[k];
            contextTokens += r.numComputed + n;
            boolean decode = r.numOutput > 0 && n == 1 && r.numComputed == r.numTokens - 1;
            if (!decode) {
                prefillTokens += n;
            }
            stepTokens += n;
            r.numComputed += n;
        }
        int loads = 0;
        int diskLoads = 0;
        for (String a : batchAdapters) {
            if (gpuSlots.get(a) == null) {
                loads++;
                if (adaptersReadFromDisk.add(a)) {
                    diskLoads++;
                }
                if (gpuSlots.size() >= config.maxLoras()) {
                    Iterator<String> lru = gpuSlots.keySet().iterator();
                    while (lru.hasNext()) {
                        if (!batchAdapters.contains(lru.next())) {
                            lru.remove();
                            break;
                        }
                    }
                }
                gpuSlots.put(a, Boolean.TRUE);
            }
        }
        metrics.prefillTokensComputed += prefillTokens;
        metrics.iterationTokens.observe(stepTokens);
        metrics.steps++;
        metrics.scheduledSequences += scheduled.size();
        inStep = true;
        stepStartNanos = nowNanos;
        return config.cost().stepNanos(scheduled.size(), contextTokens, prefillTokens, batchAdapters.size(), loads,
                diskLoads, speed);
    }

    /** Ends the current step at {@code nowNanos}: samples tokens, finishes requests, records stats. */
    public void finishStep(long nowNanos) {
        if (!inStep) {
            throw new IllegalStateException("no step is running");
        }
        inStep = false;
        for (int k = 0; k < scheduled.size(); k++) {
            SimRequest r = scheduled.get(k);
            if (r.status != SimRequest.Status.RUNNING || r.numComputed < r.numTokens) {
                continue;
            }
            int index = r.numOutput;
            String word = Tokenizer.generatedWord(r.generationSeed, index);
            r.appendToken(Tokenizer.wordId(word));
            r.numOutput++;
            metrics.generationTokens++;
            metrics.maxSequenceTokens = Math.max(metrics.maxSequenceTokens, (long) r.promptLength + r.numOutput);
            if (index == 0) {
                r.firstTokenNanos = nowNanos;
                metrics.promptTokens += r.promptLength;
                metrics.timeToFirstToken.observe(seconds(Math.max(0, nowNanos - r.arrivalNanos)));
            } else {
                metrics.interTokenLatency.observe(seconds(nowNanos - r.lastTokenNanos));
            }
            r.lastTokenNanos = nowNanos;
            r.listener.onToken(r, index, word, nowNanos);
            if (r.numOutput >= r.maxTokens) {
                finish(r, nowNanos);
            }
        }
        scheduled.clear();
        metrics.updateThroughput(nowNanos);
        recordLoraInfo(nowNanos);
    }

    private void finish(SimRequest r, long nowNanos) {
        running.remove(r);
        kv.free(r);
        r.status = SimRequest.Status.FINISHED;
        r.finishedNanos = nowNanos;
        metrics.finishedLength++;
        metrics.e2eLatency.observe(seconds(nowNanos - r.arrivalNanos));
        metrics.prefillTime.observe(seconds(r.firstTokenNanos - r.firstScheduledNanos));
        metrics.decodeTime.observe(seconds(nowNanos - r.firstTokenNanos));
        metrics.inferenceTime.observe(seconds(nowNanos - r.firstScheduledNanos));
        metrics.promptTokensPerRequest.observe(r.promptLength);
        metrics.generationTokensPerRequest.observe(r.numOutput);
        metrics.maxTokensParam.observe(r.maxTokens);
        r.listener.onFinish(r, "length", nowNanos);
    }

    private void preempt(SimRequest victim) {
        kv.free(victim);
        victim.status = SimRequest.Status.PREEMPTED;
        victim.everPreempted = true;
        victim.numComputed = 0;
        waiting.addFirst(victim);
        metrics.preemptions++;
    }

    private void addScheduled(SimRequest r, int numNew, int index) {
        scheduled.add(r);
        if (index == scheduledTokens.length) {
            scheduledTokens = java.util.Arrays.copyOf(scheduledTokens, index * 2);
        }
        scheduledTokens[index] = numNew;
    }

    private void recordLoraInfo(long nowNanos) {
        if (adapters.isEmpty() && gpuSlots.isEmpty()) {
            return;
        }
        String key = String.join(",", distinctAdapters(running)) + "|" + String.join(",", distinctAdapters(waiting));
        metrics.loraInfo.put(key, unixSeconds(nowNanos));
    }

    private static List<String> distinctAdapters(Iterable<SimRequest> requests) {
        Set<String> names = new LinkedHashSet<>();
        for (SimRequest r : requests) {
            if (r.adapter != null) {
                names.add(r.adapter);
            }
        }
        return new ArrayList<>(names);
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    // ---- adapters -------------------------------------------------------------------------

    /** Registers an adapter (vLLM's load_lora_adapter); false if it was already there. */
    public boolean loadAdapter(String name) {
        return adapters.add(name);
    }

    /** Unregisters an adapter; false if unknown. */
    public boolean unloadAdapter(String name) {
        gpuSlots.remove(name);
        return adapters.remove(name);
    }

    public boolean hasAdapter(String name) {
        return adapters.contains(name);
    }

    public List<String> adapters() {
        return new ArrayList<>(adapters);
    }

    /** Adapters resident in GPU slots, least recently used first. */
    public List<String> gpuResidentAdapters() {
        return new ArrayList<>(gpuSlots.keySet());
    }

    // ---- state ----------------------------------------------------------------------------

    public EngineConfig config() {
        return config;
    }

    public MetricsDialect dialect() {
        return dialect;
    }

    public EngineMetrics metrics() {
        return metrics;
    }

    public int numRunning() {
        return running.size();
    }

    public int numWaiting() {
        return waiting.size();
    }

    /** KV usage 0..1 (cached blocks nobody references count as free). */
    public double kvUsage() {
        return kv.usage();
    }

    public int freeKvBlocks() {
        return kv.freeBlocks();
    }

    public int cachedKvBlocks() {
        return kv.cachedBlocks();
    }

    public long kvEvictions() {
        return kv.evictions();
    }

    /** Tokens held in KV by running requests. */
    public long usedKvTokens() {
        return (long) (kv.numBlocks() - kv.freeBlocks()) * kv.blockSize();
    }

    /** Adapters of running requests, in order of appearance. */
    public List<String> runningAdapters() {
        return distinctAdapters(running);
    }

    /** Adapters of waiting requests, in order of appearance. */
    public List<String> waitingAdapters() {
        return distinctAdapters(waiting);
    }

    public double speed() {
        return speed;
    }

    /** Changes the GPU speed factor from the next step on (fault injection: a slowed pod). */
    public void speed(double factor) {
        if (!(factor > 0)) {
            throw new IllegalArgumentException("speed must be positive");
        }
        this.speed = factor;
    }

    /** Unix time in seconds that virtual time {@code nowNanos} stands for. */
    public double unixSeconds(long nowNanos) {
        return (unixEpochNanosAtZero + nowNanos / timeScale) / 1e9;
    }

    long stepStartNanos() {
        return stepStartNanos;
    }

    /** Aborts everything (the pod was killed). */
    public void abortAll(long nowNanos) {
        for (SimRequest r : new ArrayList<>(running)) {
            abort(r, nowNanos);
        }
        for (SimRequest r : new ArrayList<>(waiting)) {
            abort(r, nowNanos);
        }
    }

    /** For tests: a snapshot of the running queue's order. */
    List<SimRequest> runningQueue() {
        return new ArrayList<>(running);
    }

    List<SimRequest> waitingQueue() {
        return new ArrayList<>(waiting);
    }

    Map<String, Boolean> gpuSlotsView() {
        return gpuSlots;
    }
}
