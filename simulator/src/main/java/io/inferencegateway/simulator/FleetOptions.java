package io.inferencegateway.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How to start a {@link SimulatedFleet}. Build with {@link #builder()}; every field has a default.
 *
 * @param pods        number of pods
 * @param host        address to bind (loopback by default)
 * @param basePort    pod i listens on basePort + i; 0 = every pod on an ephemeral port
 * @param adminPort   fleet admin API port; 0 = ephemeral, -1 = none
 * @param model       served model name
 * @param loras       LoRA adapters registered on every pod, named {@link #adapterNames()}
 * @param maxLoras    adapters per batch / GPU slots (vLLM --max-loras)
 * @param kvBlocks    KV-cache blocks per pod
 * @param maxNumSeqs  running requests per pod at most
 * @param speeds      per-pod GPU speed factors; the last one repeats for the remaining pods
 * @param engine      metrics dialect
 * @param timeScale   how many times faster than real time the fleet runs
 * @param seed        seed of generated text
 * @param ioThreads   event-loop threads shared by all pods (engines and connections)
 */
public record FleetOptions(int pods, String host, int basePort, int adminPort, String model, int loras, int maxLoras,
                           int kvBlocks, int maxNumSeqs, List<Double> speeds, MetricsDialect engine, double timeScale,
                           long seed, int ioThreads) {

    public FleetOptions {
        speeds = List.copyOf(speeds);
        if (pods < 1) {
            throw new IllegalArgumentException("pods must be at least 1");
        }
        if (basePort < 0 || basePort + pods - 1 > 65535) {
            throw new IllegalArgumentException("base port out of range");
        }
        if (loras < 0 || maxLoras < 1 || kvBlocks < 1 || maxNumSeqs < 1 || ioThreads < 1) {
            throw new IllegalArgumentException("loras >= 0, max-loras, kv-blocks, max-num-seqs, io-threads >= 1");
        }
        if (!(timeScale > 0)) {
            throw new IllegalArgumentException("time scale must be positive");
        }
        for (double s : speeds) {
            if (!(s > 0)) {
                throw new IllegalArgumentException("speed factors must be positive");
            }
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Speed factor of pod {@code i}. */
    public double speedOf(int i) {
        if (speeds.isEmpty()) {
            return 1.0;
        }
        return speeds.get(Math.min(i, speeds.size() - 1));
    }

    /**
     * Adapter names: {@code <model-short>-lora-<i>}, i = 0..loras-1, where model-short is the
     * model name after its last '/', lower-cased (meta-llama/Llama-3.1-8B-Instruct →
     * llama-3.1-8b-instruct-lora-0).
     */
    public List<String> adapterNames() {
        return adapterNames(model, loras);
    }

    public static List<String> adapterNames(String model, int count) {
        String shortName = model.substring(model.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            names.add(shortName + "-lora-" + i);
        }
        return names;
    }

    /** The engine configuration of pod {@code i}. */
    public EngineConfig engineConfig(int i) {
        return EngineConfig.defaults().withModel(model).withAdapters(adapterNames(), maxLoras).withKvBlocks(kvBlocks)
                .withMaxNumSeqs(maxNumSeqs).withSpeed(speedOf(i)).withSeed(seed + i);
    }

    /** Builder with vLLM/H100 defaults, loopback, ephemeral ports, no admin port. */
    public static final class Builder {
        private int pods = 1;
        private String host = "127.0.0.1";
        private int basePort;
        private int adminPort = -1;
        private String model = EngineConfig.DEFAULT_MODEL;
        private int loras;
        private int maxLoras = EngineConfig.DEFAULT_MAX_LORAS;
        private int kvBlocks = EngineConfig.DEFAULT_KV_BLOCKS;
        private int maxNumSeqs = 256;
        private List<Double> speeds = List.of();
        private MetricsDialect engine = MetricsDialect.VLLM;
        private double timeScale = 1.0;
        private long seed = 42;
        private int ioThreads = Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors()));

        public Builder pods(int n) {
            this.pods = n;
            return this;
        }

        public Builder host(String h) {
            this.host = h;
            return this;
        }

        public Builder basePort(int p) {
            this.basePort = p;
            return this;
        }

        public Builder adminPort(int p) {
            this.adminPort = p;
            return this;
        }

        public Builder model(String m) {
            this.model = m;
            return this;
        }

        public Builder loras(int k) {
            this.loras = k;
            return this;
        }

        public Builder maxLoras(int m) {
            this.maxLoras = m;
            return this;
        }

        public Builder kvBlocks(int b) {
            this.kvBlocks = b;
            return this;
        }

        public Builder maxNumSeqs(int n) {
            this.maxNumSeqs = n;
            return this;
        }

        public Builder speeds(List<Double> s) {
            this.speeds = s;
            return this;
        }

        public Builder speeds(double... s) {
            List<Double> l = new ArrayList<>();
            for (double v : s) {
                l.add(v);
            }
            this.speeds = l;
            return this;
        }

        public Builder engine(MetricsDialect e) {
            this.engine = e;
            return this;
        }

        public Builder timeScale(double x) {
            this.timeScale = x;
            return this;
        }

        public Builder seed(long s) {
            this.seed = s;
            return this;
        }

        public Builder ioThreads(int n) {
            this.ioThreads = n;
            return this;
        }

        public FleetOptions build() {
            return new FleetOptions(pods, host, basePort, adminPort, model, loras, maxLoras, kvBlocks, maxNumSeqs,
                    speeds, engine, timeScale, seed, ioThreads);
        }
    }
}
