package io.inferencegateway.lab.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import io.inferencegateway.camel.GatewayServer;
import io.inferencegateway.camel.ServeCommand;
import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.MetricsDialect;
import io.inferencegateway.simulator.SimulatedFleet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Start a simulated fleet (fast and slow pods; LoRA adapters except on llama.cpp) and the gateway "
                + "in front of it; runs until Ctrl-C.")
final class DemoCommand implements Callable<Integer> {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
    /** Slots of each simulated llama.cpp pod, as in the captured server ({@code --parallel 4}). */
    static final int LLAMACPP_SLOTS = 4;

    @Spec
    CommandSpec spec;

    @Option(names = "--port", defaultValue = "8080", paramLabel = "N",
            description = "Port of the gateway's OpenAI endpoint (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--pods", defaultValue = "4", paramLabel = "N", description = "Simulated pods (default: ${DEFAULT-VALUE}).")
    int pods;

    @Option(names = "--time-scale", defaultValue = "1", paramLabel = "X",
            description = "Run the simulated fleet X times faster than real time (default: ${DEFAULT-VALUE}).")
    double timeScale;

    @Option(names = "--engine", defaultValue = "vllm", paramLabel = "vllm|sglang|tgi|trtllm|llamacpp",
            description = "Engine the pods imitate and the gateway reads them as (default: ${DEFAULT-VALUE}).")
    String engine;

    @Option(names = "--clusters", paramLabel = "N",
            description = "Run N simulated regions (each --pods pods and a cluster gateway, behind a delayed link: the "
                    + "first 5 ms away each way, the others 40 ms more each and cheaper) and a global tier gateway on "
                    + "--port in front of them. At least 2.")
    Integer clusters;

    @Option(names = "--routes", paramLabel = "DIR",
            description = "Load the gateway's YAML routes from DIR (and Kamelets from DIR/kamelets) instead of the "
                    + "jar's own: a copy of the repository's routes/ to edit.")
    Path routes;

    @Option(names = "--watch-routes",
            description = "With --routes: apply each saved edit of a route file while the demo runs.")
    boolean watchRoutes;

    /** A running demo: the simulated fleet, the gateway in front of it and the gateway's config file. */
    record Demo(MetricsDialect engine, SimulatedFleet fleet, GatewayServer gateway, Path configFile, int port)
            implements AutoCloseable {

        /** Starts the fleet, then the gateway on {@code port}; if the gateway cannot start, the fleet is stopped. */
        static Demo start(MetricsDialect engine, int pods, double timeScale, int port) throws Exception {
            return start(engine, pods, timeScale, port, GatewayServer.Routes.JAR);
        }

        /** As above, the gateway running {@code routes}. */
        static Demo start(MetricsDialect engine, int pods, double timeScale, int port, GatewayServer.Routes routes)
                throws Exception {
            SimulatedFleet fleet = SimulatedFleet.start(fleetOptions(engine, pods, timeScale));
            Path file = null;
            try {
                file = Files.createTempFile("inference-gateway-demo", ".yaml");
                Files.writeString(file, DemoCommand.config(engine, fleet.endpoints(), fleet.adapterNames()));
                return new Demo(engine, fleet, GatewayServer.start(file, port, Map.of(), routes), file, port);
            } catch (Exception e) {
                fleet.close();
                if (file != null) {
                    Files.deleteIfExists(file);
                }
                throw e;
            }
        }

        String baseUrl() {
            return "http://localhost:" + port;
        }

        @Override
        public void close() throws Exception {
            try {
                gateway.close();
            } finally {
                try {
                    fleet.close();
                } finally {
                    Files.deleteIfExists(configFile);
                }
            }
        }
    }

    @Override
    public Integer call() throws Exception {
        MetricsDialect dialect;
        try {
            dialect = MetricsDialect.fromCliName(engine);
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("demo: " + e.getMessage());
            return InferenceGatewayCli.EXIT_USAGE;
        }
        if (clusters != null) {
            return global(dialect);
        }
        Demo demo;
        try {
            demo = Demo.start(dialect, pods, timeScale, port, ServeCommand.routes(routes, watchRoutes));
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("demo: " + e.getMessage());
            return InferenceGatewayCli.EXIT_USAGE;
        } catch (Exception e) {
            spec.commandLine().getErr().println("cannot start the gateway on port " + port + ": " + e.getMessage());
            return InferenceGatewayCli.EXIT_USAGE;
        }
        runUntilStopped(demo, banner(demo));
        return 0;
    }

    private int global(MetricsDialect dialect) throws InterruptedException {
        if (clusters < 2) {
            spec.commandLine().getErr().println("demo: --clusters must be at least 2, got " + clusters);
            return InferenceGatewayCli.EXIT_USAGE;
        }
        GlobalDemo demo;
        try {
            demo = GlobalDemo.start(dialect, clusters, pods, timeScale, port);
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("demo: " + e.getMessage());
            return InferenceGatewayCli.EXIT_USAGE;
        } catch (Exception e) {
            spec.commandLine().getErr().println("cannot start the global tier on port " + port + ": " + e.getMessage());
            return InferenceGatewayCli.EXIT_USAGE;
        }
        runUntilStopped(demo, demo.banner(dialect, timeScale));
        return 0;
    }

    /** Prints the banner and waits; Ctrl-C closes the demo. */
    private void runUntilStopped(AutoCloseable demo, String banner) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                demo.close();
            } catch (Exception ignored) {
                // shutting down anyway
            }
            stopped.countDown();
        }, "demo-shutdown"));
        spec.commandLine().getOut().println(banner);
        spec.commandLine().getOut().flush();
        stopped.await();
    }

    /**
     * Every other pod is an older, half-speed GPU: the gateway should notice. llama.cpp pods get few slots, as a
     * llama-server has, and no LoRA adapters: llama-server does not serve an adapter under its own model name.
     */
    static FleetOptions fleetOptions(MetricsDialect engine, int pods, double timeScale) {
        double[] speeds = new double[Math.max(0, pods)];
        for (int i = 0; i < speeds.length; i++) {
            speeds[i] = i % 2 == 0 ? 1.0 : 0.5;
        }
        FleetOptions.Builder options = FleetOptions.builder().pods(pods).basePort(0).adminPort(0).model(MODEL)
                .speeds(speeds).engine(engine).timeScale(timeScale).seed(7);
        if (engine == MetricsDialect.LLAMACPP) {
            options.maxNumSeqs(LLAMACPP_SLOTS);
        } else {
            options.loras(4).maxLoras(2);
        }
        return options.build();
    }

    static String config(MetricsDialect engine, List<String> endpoints, List<String> adapters) {
        return """
                apiVersion: inferencegateway.io/v1alpha1
                kind: InferenceGatewayConfig
                metadata: {name: demo}
                spec:
                  schedulers:
                    - name: llama
                      modelName: %s
                      loraAdapters: [%s]
                      endpoints: [%s]
                      engineType: %s
                      policy: gpu-aware
                      streamUsage: true
                """.formatted(MODEL, String.join(", ", adapters),
                String.join(", ", endpoints.stream().map(e -> "\"" + e + "\"").toList()), engine.cliName());
    }

    static String engineName(MetricsDialect engine) {
        return switch (engine) {
            case VLLM -> "vLLM";
            case SGLANG -> "SGLang";
            case TGI -> "TGI";
            case TRTLLM -> "TensorRT-LLM";
            case LLAMACPP -> "llama.cpp";
        };
    }

    private String banner(Demo demo) {
        SimulatedFleet fleet = demo.fleet();
        List<String> adapters = fleet.adapterNames();
        String base = demo.baseUrl();
        String pods = fleet.ports().size() + " simulated " + engineName(demo.engine()) + " pods"
                + (demo.engine() == MetricsDialect.LLAMACPP ? " (" + LLAMACPP_SLOTS + " slots each)" : "");
        String models = adapters.isEmpty() ? MODEL : MODEL + " and LoRA adapters " + adapters;
        return """

                Inference Gateway demo
                  gateway   %s/v1   (policy gpu-aware, engineType %s, config %s)
                  fleet     %s %s, speeds 1 and 0.5 alternating, time scale %s
                            fault admin API on http://127.0.0.1:%d/pods
                  models    %s

                Try it:
                  curl -N %s/v1/chat/completions -H 'Content-Type: application/json' \\
                    -d '{"model":"%s","stream":true,"max_tokens":32,"messages":[{"role":"user","content":"Hello!"}]}'
                  curl -N %s/v1/responses -H 'Content-Type: application/json' \\
                    -d '{"model":"%s","stream":true,"max_output_tokens":16,"instructions":"Be brief.","input":"Hello!"}'
                  curl %s/v1/models

                Watch it:   %s/ui   (live fleet page)     %s/metrics   (Prometheus)

                From Python (pip install openai):
                  from openai import OpenAI
                  client = OpenAI(base_url="%s/v1", api_key="unused")
                  print(client.chat.completions.create(model="%s",
                        messages=[{"role": "user", "content": "Hello!"}]).choices[0].message.content)

                Ctrl-C stops the gateway and the fleet.
                """.formatted(base, demo.engine().cliName(), demo.configFile(), pods, fleet.endpoints(), timeScale,
                fleet.adminPort(), models, base, adapters.isEmpty() ? MODEL : adapters.get(0), base, MODEL, base, base,
                base, base, MODEL);
    }
}
