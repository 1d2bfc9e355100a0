package io.inferencegateway.lab.bench.fleet;

import java.util.ArrayList;
import java.util.List;

/**
 * The fleet a scenario runs on: what a {@link FleetLauncher} must start (or, for {@link #external}, find).
 * Engine settings follow vLLM's names.
 *
 * @param modelName           the base model every pod serves
 * @param pods                one entry per pod, in port order
 * @param loraAdapters        adapters every pod can load (empty: none)
 * @param maxLoras            adapters a pod's running batch can hold at once ({@code --max-loras})
 * @param kvBlocksPerPod      KV-cache capacity of a pod in 16-token blocks (an H100 holds about 29,205
 *                            for Llama-3.1-8B; scenarios use less so that caching pressure shows in a
 *                            short run)
 * @param maxNumSeqs          most requests a pod runs at once ({@code --max-num-seqs})
 * @param maxNumBatchedTokens token budget of one engine step ({@code --max-num-batched-tokens})
 * @param timeScale           simulated seconds per wall-clock second: 2.0 runs twice as fast as real
 *                            time. Every latency the bench reports is in simulated time (wall × scale)
 * @param external            the servers a user runs, when the pods are theirs ({@code bench --endpoints}); then the
 *                            pods are named by their endpoints, the time scale is 1 and the engine settings above
 *                            are the scenario's, not the servers' (which the bench cannot know). Null for the pods
 *                            the bench starts itself
 */
public record FleetSpec(String modelName, List<PodSpec> pods, List<String> loraAdapters, int maxLoras,
                        int kvBlocksPerPod, int maxNumSeqs, int maxNumBatchedTokens, double timeScale,
                        ExternalServers external) {

    public static final int DEFAULT_MAX_NUM_BATCHED_TOKENS = 8192;

    /** A fleet of pods the bench starts (simulator or stub). */
    public FleetSpec(String modelName, List<PodSpec> pods, List<String> loraAdapters, int maxLoras,
                     int kvBlocksPerPod, int maxNumSeqs, int maxNumBatchedTokens, double timeScale) {
        this(modelName, pods, loraAdapters, maxLoras, kvBlocksPerPod, maxNumSeqs, maxNumBatchedTokens, timeScale,
                null);
    }

    /**
     * A user's servers in place of {@code scenarioFleet}: one pod per endpoint, named {@code host:port} (speed 1, since
     * the bench cannot know it), the scenario's model, no adapters, real time.
     */
    public static FleetSpec onServers(ExternalServers servers, FleetSpec scenarioFleet) {
        List<PodSpec> pods = servers.names().stream().map(name -> new PodSpec(name, 1.0)).toList();
        return new FleetSpec(scenarioFleet.modelName(), pods, List.of(), 0, scenarioFleet.kvBlocksPerPod(),
                scenarioFleet.maxNumSeqs(), scenarioFleet.maxNumBatchedTokens(), 1.0, servers);
    }

    public FleetSpec {
        pods = List.copyOf(pods);
        loraAdapters = List.copyOf(loraAdapters);
        if (pods.isEmpty()) {
            throw new IllegalArgumentException("a fleet needs at least one pod");
        }
        if (maxLoras < 0 || kvBlocksPerPod < 1 || maxNumSeqs < 1 || maxNumBatchedTokens < 1) {
            throw new IllegalArgumentException("engine limits must be positive");
        }
        if (!(timeScale > 0)) {
            throw new IllegalArgumentException("timeScale must be positive, got " + timeScale);
        }
        if (external != null && timeScale != 1.0) {
            throw new IllegalArgumentException("servers the bench does not run go at real time, not x" + timeScale);
        }
    }

    /** Whether the pods are a user's own servers ({@link #external}). */
    public boolean isExternal() {
        return external != null;
    }

    /** {@code count} pods of the given speeds, cycling through {@code speeds}, named pod-0, pod-1, ... */
    public static List<PodSpec> pods(int count, double... speeds) {
        List<PodSpec> list = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            list.add(new PodSpec("pod-" + i, speeds.length == 0 ? 1.0 : speeds[i % speeds.length]));
        }
        return list;
    }

    public FleetSpec withTimeScale(double scale) {
        return new FleetSpec(modelName, pods, loraAdapters, maxLoras, kvBlocksPerPod, maxNumSeqs, maxNumBatchedTokens,
                scale, external);
    }

    public FleetSpec withModelName(String name) {
        return new FleetSpec(name, pods, loraAdapters, maxLoras, kvBlocksPerPod, maxNumSeqs, maxNumBatchedTokens,
                timeScale, external);
    }

    public double totalSpeed() {
        return pods.stream().mapToDouble(PodSpec::speedFactor).sum();
    }
}
