package io.inferencegateway.lab.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.inferencegateway.camel.GatewayServer;
import io.inferencegateway.lab.bench.global.GlobalPolicy;
import io.inferencegateway.lab.bench.global.RegionProfile;
import io.inferencegateway.lab.bench.global.TierConfigWriter;
import io.inferencegateway.lab.regions.DelayProxy;
import io.inferencegateway.simulator.MetricsDialect;
import io.inferencegateway.simulator.SimulatedFleet;

/**
 * {@code demo --clusters N}: N simulated regions, each its pods and its cluster gateway (in this process), a delayed
 * link to each, and a global tier gateway in front of the links whose home is the first region. Farther regions are
 * slower to reach and cheaper.
 */
record GlobalDemo(List<Region> regions, GatewayServer tier, Path tierConfig, int port) implements AutoCloseable {

    private static final List<String> REGION_NAMES = List.of("us-east", "eu-west", "ap-southeast", "sa-east");

    /** One region: its pods, its cluster gateway and config, the tier's link to it. */
    record Region(RegionProfile spec, SimulatedFleet fleet, GatewayServer gateway, int gatewayPort, Path config,
                  DelayProxy link) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            try {
                link.close();
            } finally {
                try {
                    gateway.close();
                } finally {
                    try {
                        fleet.close();
                    } finally {
                        Files.deleteIfExists(config);
                    }
                }
            }
        }
    }

    /**
     * Region {@code i} (from 0): the first 5 ms away each way, the second 40 ms, each further one 40 ms more; prices
     * of the first divided by {@code i + 1}.
     */
    static RegionProfile region(int i) {
        Duration delay = i == 0 ? Duration.ofMillis(5) : Duration.ofMillis(40L * i);
        String name = i < REGION_NAMES.size() ? REGION_NAMES.get(i) : "region-" + (i + 1);
        return new RegionProfile("cluster-" + (i + 1), name, delay, 0.60 / (i + 1), 2.40 / (i + 1));
    }

    static GlobalDemo start(MetricsDialect engine, int clusters, int pods, double timeScale, int port)
            throws Exception {
        List<Region> regions = new ArrayList<>();
        Path tierConfig = null;
        try {
            for (int i = 0; i < clusters; i++) {
                regions.add(startRegion(region(i), engine, pods, timeScale));
            }
            tierConfig = Files.createTempFile("inference-gateway-demo-tier", ".yaml");
            Files.writeString(tierConfig, TierConfigWriter.render(DemoCommand.MODEL, regions.stream()
                            .map(r -> new TierConfigWriter.Cluster(r.spec(), r.link().address())).toList(),
                    GlobalPolicy.of(GlobalPolicy.GLOBAL, regions.get(0).spec().cluster()), null, false));
            return new GlobalDemo(List.copyOf(regions), GatewayServer.start(tierConfig, port), tierConfig, port);
        } catch (Exception e) {
            for (Region r : regions) {
                r.close();
            }
            if (tierConfig != null) {
                Files.deleteIfExists(tierConfig);
            }
            throw e;
        }
    }

    private static Region startRegion(RegionProfile spec, MetricsDialect engine, int pods, double timeScale)
            throws Exception {
        SimulatedFleet fleet = SimulatedFleet.start(DemoCommand.fleetOptions(engine, pods, timeScale));
        Path config = null;
        GatewayServer gateway = null;
        try {
            config = Files.createTempFile("inference-gateway-demo-" + spec.cluster(), ".yaml");
            Files.writeString(config, DemoCommand.config(engine, fleet.endpoints(), fleet.adapterNames()));
            int gatewayPort = freePort();
            gateway = GatewayServer.start(config, gatewayPort);
            DelayProxy link = DelayProxy.start(spec.cluster(), new InetSocketAddress("127.0.0.1", 0),
                    new InetSocketAddress("127.0.0.1", gatewayPort), spec.wallDelay(timeScale));
            return new Region(spec, fleet, gateway, gatewayPort, config, link);
        } catch (Exception e) {
            if (gateway != null) {
                gateway.close();
            }
            fleet.close();
            if (config != null) {
                Files.deleteIfExists(config);
            }
            throw e;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() throws Exception {
        try {
            tier.close();
        } finally {
            try {
                for (Region r : regions) {
                    r.close();
                }
            } finally {
                Files.deleteIfExists(tierConfig);
            }
        }
    }

    String banner(MetricsDialect engine, double timeScale) {
        String base = "http://localhost:" + port;
        StringBuilder where = new StringBuilder();
        for (Region r : regions) {
            RegionProfile s = r.spec();
            where.append(String.format(Locale.ROOT, "  %-10s %-13s %d %s pods %s, gateway http://127.0.0.1:%d, link "
                            + "http://127.0.0.1:%d (%d ms each way), price %.2f / %.2f per million input / output tokens%n",
                    s.cluster(), s.region(), r.fleet().ports().size(), DemoCommand.engineName(engine),
                    r.fleet().endpoints(), r.gatewayPort(), r.link().address().getPort(), s.oneWayDelay().toMillis(),
                    s.inputPrice(), s.outputPrice()));
        }
        return """

                Inference Gateway demo: a global tier over %d regions (time scale %s)
                  tier      %s/v1   (home region %s, config %s)
                %s
                Try it (x-gateway-priority: critical goes to the fastest region, sheddable to the cheapest):
                  curl -N %s/v1/chat/completions -H 'Content-Type: application/json' -H 'x-gateway-priority: sheddable' \\
                    -d '{"model":"%s","stream":true,"max_tokens":32,"messages":[{"role":"user","content":"Hello!"}]}'

                Watch it:   %s/metrics   (inference_gateway_target_requests_total, _spend_total, _tokens_total)

                From Python (pip install openai):
                  from openai import OpenAI
                  client = OpenAI(base_url="%s/v1", api_key="unused")
                  print(client.chat.completions.create(model="%s", extra_headers={"x-gateway-priority": "critical"},
                        messages=[{"role": "user", "content": "Hello!"}]).choices[0].message.content)

                Ctrl-C stops the tier, the links, the cluster gateways and the pods.
                """.formatted(regions.size(), timeScale, base, regions.get(0).spec().region(), tierConfig, where, base,
                DemoCommand.MODEL, base, base, DemoCommand.MODEL);
    }
}
