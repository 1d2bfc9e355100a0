package io.inferencegateway.lab.bench.fleet;

import java.util.ArrayList;
import java.util.List;

/**
 * The simulated fleet a scenario runs on: what a {@link FleetLauncher} must start. Engine settings
 * follow vLLM's names.
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
 */
public record FleetSpec(String modelName, List<PodSpec> pods, List<String> loraAdapters, int maxLoras,
                        int kvBlocksPerPod, int maxNumSeqs, int maxNumBatchedTokens, double timeScale) {

    public static final int DEFAULT_MAX_NUM_BATCHED_TOKENS = 8192;

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
                scale);
    }

    public FleetSpec withModelName(String name) {
        return new FleetSpec(name, pods, loraAdapters, maxLoras, kvBlocksPerPod, maxNumSeqs, maxNumBatchedTokens,
                timeScale);
    }

    public double totalSpeed() {
        return pods.stream().mapToDouble(PodSpec::speedFactor).sum();
    }
}
