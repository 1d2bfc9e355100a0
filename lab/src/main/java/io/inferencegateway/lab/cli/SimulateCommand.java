package io.inferencegateway.lab.cli;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import io.inferencegateway.simulator.Calibration;
import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.MetricsDialect;
import io.inferencegateway.simulator.SimulatedFleet;
import io.inferencegateway.simulator.SimulatedPod;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "simulate", mixinStandardHelpOptions = true,
        description = {"Run N simulated vLLM model-server pods (one port each) until Ctrl-C.",
            "Adapters are named <model-short>-lora-0..K-1 (model name after its last '/', lower-cased).",
            "With --calibrate: print the calibration table of one 8B/H100 pod against published measurements and exit."})
final class SimulateCommand implements Callable<Integer> {

    @Option(names = "--pods", defaultValue = "1", paramLabel = "N", description = "Number of pods (default: ${DEFAULT-VALUE}).")
    int pods;

    @Option(names = "--base-port", defaultValue = "8000", paramLabel = "P",
            description = "Pod i listens on P+i; 0 = ephemeral ports (default: ${DEFAULT-VALUE}).")
    int basePort;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to bind (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--admin-port", defaultValue = "-1", paramLabel = "A",
            description = "Port of the fault-injection admin API; 0 = ephemeral, -1 = none (default: ${DEFAULT-VALUE}).")
    int adminPort;

    @Option(names = "--model", defaultValue = "meta-llama/Llama-3.1-8B-Instruct",
            description = "Served model name (default: ${DEFAULT-VALUE}).")
    String model;

    @Option(names = "--loras", defaultValue = "0", paramLabel = "K", description = "LoRA adapters per pod (default: ${DEFAULT-VALUE}).")
    int loras;

    @Option(names = "--max-loras", defaultValue = "4", paramLabel = "M",
            description = "Distinct adapters per batch / GPU slots (default: ${DEFAULT-VALUE}).")
    int maxLoras;

    @Option(names = "--kv-blocks", defaultValue = "29205", paramLabel = "B",
            description = "KV-cache blocks of 16 tokens per pod (default: ${DEFAULT-VALUE}).")
    int kvBlocks;

    @Option(names = "--max-num-seqs", defaultValue = "256", description = "Running requests per pod (default: ${DEFAULT-VALUE}).")
    int maxNumSeqs;

    @Option(names = "--speed", split = ",", paramLabel = "F",
            description = "Per-pod GPU speed factors, e.g. 1,1,0.5; the last one repeats (default: 1).")
    List<Double> speeds = List.of();

    @Option(names = "--engine", defaultValue = "vllm", paramLabel = "vllm|sglang|tgi|trtllm|llamacpp",
            description = "Metrics dialect (default: ${DEFAULT-VALUE}).")
    String engine;

    @Option(names = "--time-scale", defaultValue = "1", paramLabel = "X",
            description = "Run X times faster than real time (default: ${DEFAULT-VALUE}).")
    double timeScale;

    @Option(names = "--seed", defaultValue = "42", description = "Seed of generated text (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--io-threads", defaultValue = "2", description = "Event-loop threads for all pods (default: ${DEFAULT-VALUE}).")
    int ioThreads;

    @Option(names = "--calibrate", description = "Print the calibration table and exit.")
    boolean calibrate;

    @Override
    public Integer call() throws Exception {
        quietNettyLogging();
        if (calibrate) {
            System.out.print(Calibration.format(new Calibration().run()));
            return 0;
        }
        FleetOptions options;
        try {
            options = FleetOptions.builder().pods(pods).host(host).basePort(basePort).adminPort(adminPort).model(model)
                    .loras(loras).maxLoras(maxLoras).kvBlocks(kvBlocks).maxNumSeqs(maxNumSeqs).speeds(speeds)
                    .engine(MetricsDialect.fromCliName(engine)).timeScale(timeScale).seed(seed).ioThreads(ioThreads)
                    .build();
        } catch (IllegalArgumentException e) {
            System.err.println("simulate: " + e.getMessage());
            return InferenceGatewayCli.EXIT_USAGE;
        }
        SimulatedFleet fleet = SimulatedFleet.start(options);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            fleet.close();
            stopped.countDown();
        }, "simulate-shutdown"));
        for (SimulatedPod p : fleet.pods()) {
            System.out.printf("pod %d listening on %s (speed %s, engine %s)%n", p.index(), p.baseUrl(), p.speed(),
                    options.engine().cliName());
        }
        if (!options.adapterNames().isEmpty()) {
            System.out.println("adapters: " + String.join(",", options.adapterNames()));
        }
        if (fleet.adminPort() >= 0) {
            System.out.printf("admin API on http://%s:%d/pods%n", host, fleet.adminPort());
        }
        System.out.println("time scale " + timeScale + "; Ctrl-C to stop");
        System.out.flush();
        stopped.await();
        return 0;
    }

    /** Netty logs its start-up at DEBUG when no logging config is given; the pods' lines should stand out. */
    private static void quietNettyLogging() {
        if (org.slf4j.LoggerFactory.getLogger("io.netty") instanceof ch.qos.logback.classic.Logger netty) {
            netty.setLevel(ch.qos.logback.classic.Level.WARN);
        }
    }
}
