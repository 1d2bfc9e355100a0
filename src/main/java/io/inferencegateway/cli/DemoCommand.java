package io.inferencegateway.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import io.inferencegateway.camel.GatewayServer;
import io.inferencegateway.simulator.FleetOptions;
import io.inferencegateway.simulator.SimulatedFleet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Start a simulated vLLM fleet (fast and slow pods, LoRA adapters) and the gateway in front "
                + "of it; runs until Ctrl-C.")
final class DemoCommand implements Callable<Integer> {

    static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";

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

    @Override
    public Integer call() throws Exception {
        // every other pod is an older, half-speed GPU: the gateway should notice
        double[] speeds = new double[pods];
        for (int i = 0; i < pods; i++) {
            speeds[i] = i % 2 == 0 ? 1.0 : 0.5;
        }
        SimulatedFleet fleet = SimulatedFleet.start(FleetOptions.builder().pods(pods).basePort(0).adminPort(0)
                .model(MODEL).loras(4).maxLoras(2).speeds(speeds).timeScale(timeScale).seed(7).build());
        Path config = Files.createTempFile("inference-gateway-demo", ".yaml");
        Files.writeString(config, config(fleet.endpoints(), fleet.adapterNames()));
        GatewayServer gateway;
        try {
            gateway = GatewayServer.start(config, port);
        } catch (Exception e) {
            fleet.close();
            spec.commandLine().getErr().println("cannot start the gateway on port " + port + ": " + e.getMessage());
            return InferenceGatewayCli.EXIT_USAGE;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            gateway.close();
            fleet.close();
            stopped.countDown();
        }, "demo-shutdown"));
        spec.commandLine().getOut().println(banner(fleet, config));
        spec.commandLine().getOut().flush();
        stopped.await();
        return 0;
    }

    static String config(List<String> endpoints, List<String> adapters) {
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
                      policy: gpu-aware
                """.formatted(MODEL, String.join(", ", adapters),
                String.join(", ", endpoints.stream().map(e -> "\"" + e + "\"").toList()));
    }

    private String banner(SimulatedFleet fleet, Path config) {
        String base = "http://localhost:" + port;
        return """

                Inference Gateway demo
                  gateway   %s/v1   (policy gpu-aware, config %s)
                  fleet     %d simulated vLLM pods %s, speeds 1 and 0.5 alternating, time scale %s
                            fault admin API on http://127.0.0.1:%d/pods
                  models    %s and LoRA adapters %s

                Try it:
                  curl -N %s/v1/chat/completions -H 'Content-Type: application/json' \\
                    -d '{"model":"%s","stream":true,"max_tokens":32,"messages":[{"role":"user","content":"Hello!"}]}'
                  curl %s/v1/models

                From Python (pip install openai):
                  from openai import OpenAI
                  client = OpenAI(base_url="%s/v1", api_key="unused")
                  print(client.chat.completions.create(model="%s",
                        messages=[{"role": "user", "content": "Hello!"}]).choices[0].message.content)

                Ctrl-C stops the gateway and the fleet.
                """.formatted(base, config, fleet.ports().size(), fleet.endpoints(), timeScale, fleet.adminPort(),
                MODEL, fleet.adapterNames(), base, fleet.adapterNames().get(0), base, base, MODEL);
    }
}
