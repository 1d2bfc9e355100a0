package io.inferencegateway.lab.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.inferencegateway.lab.bench.fleet.ExternalFleetLauncher;
import io.inferencegateway.lab.bench.fleet.ExternalServers;
import io.inferencegateway.lab.bench.fleet.FleetLauncher;
import io.inferencegateway.lab.bench.fleet.ServerEngine;
import io.inferencegateway.lab.bench.fleet.ServerProbe;
import io.inferencegateway.lab.bench.fleet.SimulatorFleetLauncher;
import io.inferencegateway.lab.bench.fleet.StubFleetLauncher;
import io.inferencegateway.lab.bench.gateway.GatewayConfigWriter;
import io.inferencegateway.lab.bench.gateway.GatewayLauncher;
import io.inferencegateway.lab.bench.gateway.GatewayProcess;
import io.inferencegateway.lab.bench.gateway.ReplicaMode;
import io.inferencegateway.lab.bench.global.ClusterLoss;
import io.inferencegateway.lab.bench.global.GlobalLayout;
import io.inferencegateway.lab.bench.global.GlobalPolicy;
import io.inferencegateway.lab.bench.global.GlobalRunner;
import io.inferencegateway.lab.bench.report.Progress;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code inference-gateway bench}: TTFT of each routing policy on the same simulated fleet and traffic.
 * Not yet registered in the main CLI; until then run it as
 * {@code java -cp target/inference-gateway.jar io.inferencegateway.lab.bench.BenchCommand ...}.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Compare routing policies on simulated fleets: for every scenario and policy a fresh fleet, "
                + "the gateway over HTTP in front of it, and the same open-loop traffic.",
                "Latencies are in simulated time. Writes report.md, PNG charts and one JSON per run to --out.",
                "With --endpoints and --engine the fleet is model servers you run: nothing is started, runs go in real "
                        + "time, and the servers' caches carry over from run to run (docs/benchmarks/own-fleet.md)."})
public final class BenchCommand implements Callable<Integer> {

    /** Exit code for a usage problem, as the main CLI uses. */
    static final int EXIT_USAGE = 2;

    /** How long each of a user's servers has to answer the checks before a bench on them. */
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(5);

    /** How the bench gets a fleet; {@code sim} is filled in when the simulator lands. */
    public enum FleetKind { sim, stub }

    /** How requests reach the pods: the real gateway as a subprocess, or straight to the pods. */
    public enum GatewayKind { process, direct }

    @Spec
    CommandSpec spec;

    @Option(names = {"--scenario", "--scenarios"}, split = ",", paramLabel = "NAME",
            description = "Scenarios to run, comma-separated (default: the routing ones): shared-prefix, lora, mixed, "
                    + "bursty, heterogeneous, uniform; named only: priorities, faults, slo, slo-tight, global, "
                    + "conversations, long-conversations, rollout.")
    List<String> scenarios = new ArrayList<>();

    /** What {@code --policies} is when not given, for every scenario but {@code global}. */
    static final List<String> ROUTING_POLICIES = List.of("round-robin", "least-request", "gpu-aware");

    @Option(names = "--policies", split = ",", paramLabel = "POLICY",
            description = "Gateway policies to compare (default: round-robin,least-request,gpu-aware). Put round-robin "
                    + "in to get ratios. gpu-aware-no-slo is gpu-aware with weights {latency: 0}: latency targets "
                    + "ignored; gpu-aware-no-session is gpu-aware with sessionAffinity off; gpu-aware-predicted-time "
                    + "is gpu-aware with picker: predicted-time (conversations and long-conversations compare "
                    + "round-robin, least-request, gpu-aware and gpu-aware-predicted-time unless some are named). "
                    + "The global scenario compares global tiers: global, nearest-only, round-robin, global-no-cost "
                    + "(all of them unless some are named).")
    List<String> policies;

    @Option(names = "--cluster-loss", defaultValue = "kill", paramLabel = "kill|reset|blackhole",
            description = "How the global scenario loses a cluster: kill its gateway (SIGKILL), or cut its link with "
                    + "resets or silently (default: ${DEFAULT-VALUE}).")
    String clusterLoss;

    @ArgGroup(exclusive = true)
    Offered offered = new Offered();

    static final class Offered {
        @Option(names = "--rate", paramLabel = "R",
                description = "Mean arrivals per simulated second (per second with --endpoints, which needs it).")
        Double rate;

        @Option(names = "--load", paramLabel = "F",
                description = "Offered load as a share of the fleet's estimated capacity (default: per scenario, "
                        + "0.85 mostly).")
        Double load;
    }

    @Option(names = "--duration", paramLabel = "S", description = "Simulated seconds of arrivals (default: per scenario).")
    Double durationSeconds;

    @Option(names = "--max-requests", paramLabel = "N", description = "Cap on requests per run (default: per scenario).")
    Integer maxRequests;

    @Option(names = "--seed", defaultValue = "42", paramLabel = "N", description = "Run seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", defaultValue = "bench-results", paramLabel = "DIR",
            description = "Output directory (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--time-scale", paramLabel = "X",
            description = "Simulated seconds per wall second (default: chosen from --event-budget; always 1 with "
                    + "--endpoints).")
    Double timeScale;

    @Option(names = "--event-budget", defaultValue = "2000", paramLabel = "N",
            description = "SSE events per wall second to aim for when choosing the time scale (default: ${DEFAULT-VALUE}).")
    double eventBudget;

    @Option(names = "--model", paramLabel = "NAME",
            description = "Base model the fleet serves (default: " + ScenarioCatalog.DEFAULT_MODEL + "; with "
                    + "--endpoints, the first model the first server lists in GET /v1/models).")
    String model;

    @Option(names = "--fleet", paramLabel = "KIND",
            description = "sim (the simulator) or stub (fixed-delay stub servers, to check the instrument). "
                    + "Default: sim.")
    FleetKind fleet;

    @Option(names = "--endpoints", split = ",", paramLabel = "HOST:PORT",
            description = "Model servers you run, comma-separated: the bench starts none and uses these as the pods "
                    + "(needs --engine and --rate; not with --fleet). Scenarios that need the simulator (lora, mixed, "
                    + "heterogeneous, faults, global, conversations, long-conversations, rollout) are refused.")
    List<String> endpoints;

    @Option(names = "--engine", paramLabel = "NAME",
            description = "What the --endpoints servers run, which says which metrics the gateway reads: llamacpp, "
                    + "vllm, sglang, tgi or trtllm.")
    String engine;

    @Option(names = "--gateway", defaultValue = "process", paramLabel = "KIND",
            description = "process (run the gateway jar) or direct (no gateway: client-side round-robin). "
                    + "Default: ${DEFAULT-VALUE}.")
    GatewayKind gateway;

    @Option(names = "--gateway-jar", defaultValue = "target/inference-gateway.jar", paramLabel = "JAR",
            description = "Gateway jar to run (default: ${DEFAULT-VALUE}).")
    Path gatewayJar;

    @Option(names = "--gateway-jvm-opt", paramLabel = "OPT", description = "Extra JVM option for the gateway process.")
    List<String> gatewayJvmOptions = new ArrayList<>();

    @Option(names = "--access-log",
            description = "Have the gateway log one JSON line per request (pod, attempts, status) into each run's "
                    + "gateway.log.")
    boolean accessLog;

    @Option(names = "--flow-control", arity = "0..1", defaultValue = "auto", fallbackValue = "on",
            paramLabel = "on|off|auto",
            description = "The gateway's flow control (requests wait in the gateway while every pod is saturated): "
                    + "on, off (the gateway's default config), or auto (default: on when the priorities, faults, slo "
                    + "or slo-tight scenario is named). --flow-control alone means on.")
    String flowControl;

    @Option(names = "--request-timeout", defaultValue = "300", paramLabel = "S",
            description = "Per-request timeout, simulated seconds (default: ${DEFAULT-VALUE}).")
    double requestTimeoutSeconds;

    @Option(names = "--drain-timeout", defaultValue = "60", paramLabel = "S",
            description = "Wall seconds to wait for requests in flight after the last send (default: ${DEFAULT-VALUE}).")
    double drainTimeoutSeconds;

    @Option(names = "--replicas", split = ",", paramLabel = "N",
            description = "Gateway replicas per run, comma-separated (default: 1; 1,3 for the conversation scenarios); "
                    + "requests go to them round-robin, like a Kubernetes Service.")
    List<Integer> replicas;

    @Option(names = "--replica-modes", split = ",", paramLabel = "MODE", defaultValue = "naive,rendezvous",
            description = "How gpu-aware replicas know about each other (default: ${DEFAULT-VALUE}): naive "
                    + "(independent, as before), rendezvous (replicas section: rendezvous homes, herding x N, "
                    + "spread scrapes), rendezvous-every-scrape (the same, every replica scraping at the full rate), "
                    + "shared (decisions shared through a redis-server the bench starts, which must be installed; "
                    + "herding x N, spread scrapes). The conversation scenarios run gpu-aware replicas in each mode "
                    + "named but naive (rendezvous when none is).")
    List<String> replicaModes;

    @Option(names = "--kill-replica-at", paramLabel = "F",
            description = "Kill one replica (SIGKILL, after taking it out of rotation) once this share of the "
                    + "arrivals has passed, in runs with more than one replica.")
    Double killReplicaAt;

    @Option(names = "--list", description = "List the scenarios with their fleets and workloads, then exit.")
    boolean list;

    @Override
    public Integer call() throws Exception {
        if (list) {
            listScenarios();
            return 0;
        }
        ClusterLoss loss;
        ExternalServers servers;
        try {
            loss = ClusterLoss.fromLabel(clusterLoss);
            servers = externalServers();
        } catch (IllegalArgumentException e) {
            System.err.println("bench: " + e.getMessage());
            return EXIT_USAGE;
        }
        List<String> named = !scenarios.isEmpty() ? scenarios
                : servers != null ? ExternalFleetScenarios.defaultNames() : ScenarioCatalog.defaultNames();
        String benchedModel = model != null ? model : ScenarioCatalog.DEFAULT_MODEL;
        if (servers != null) {
            try {
                benchedModel = new ServerProbe(PROBE_TIMEOUT).check(servers, model, System.err);
            } catch (IllegalArgumentException e) {
                System.err.println("bench: " + e.getMessage());
                return EXIT_USAGE;
            } catch (IOException e) {
                System.err.println("bench: " + e.getMessage());
                return 1;
            }
        }
        boolean conversations = named.stream().allMatch(ConversationScenario.NAMES::contains);
        BenchSettings settings = new BenchSettings(named, policies != null ? policies
                : named.stream().allMatch(GlobalLayout.SCENARIO::equals) ? GlobalPolicy.LABELS
                : conversations ? ConversationScenario.POLICIES : ROUTING_POLICIES,
                offered.rate, offered.load, durationSeconds == null ? null : seconds(durationSeconds), maxRequests, seed,
                servers != null ? Double.valueOf(1.0) : timeScale, eventBudget, benchedModel,
                seconds(requestTimeoutSeconds), seconds(drainTimeoutSeconds), out, replicas(conversations),
                replicaModes.stream().map(ReplicaMode::fromLabel).toList(), killReplicaAt);
        if (gateway == GatewayKind.direct && settings.replicas().stream().anyMatch(r -> r > 1)) {
            System.err.println("bench: --replicas above 1 needs --gateway process");
            return EXIT_USAGE;
        }
        FleetLauncher fleets = fleetLauncher(servers, settings);
        BenchRunner runner = new BenchRunner(fleets, gatewayLauncher(settings, servers != null), gateway.name(),
                System.err, Progress.onTerminal());
        if (gateway == GatewayKind.process && servers == null) {
            runner.withGlobal(new GlobalRunner(fleets, GatewayProcess.javaJarCommand(gatewayJar,
                    gatewayJvmOptions), Duration.ofSeconds(180), GatewayConfigWriter.DEFAULT_METRICS_INTERVAL, loss,
                    System.err, Progress.onTerminal()));
            runner.withRollout(new RolloutBench(fleets, GatewayProcess.javaJarCommand(gatewayJar,
                    gatewayJvmOptions), Duration.ofSeconds(180), System.err, Progress.onTerminal()));
        }
        try {
            runner.run(settings, commandLine(spec.commandLine().getParseResult().originalArgs()));
        } catch (IllegalArgumentException | IllegalStateException e) {
            // a usage problem (unknown scenario, no simulator yet): one line, not a stack trace
            System.err.println("bench: " + e.getMessage());
            return EXIT_USAGE;
        } catch (IOException e) {
            // e.g. the gateway did not come up; the message carries the end of its log
            System.err.println("bench: " + e.getMessage());
            return 1;
        }
        return 0;
    }

    /** The command as typed, for the report: the main CLI passes "bench" along with the options, main() does not. */
    static String commandLine(List<String> originalArgs) {
        String args = String.join(" ", originalArgs);
        return originalArgs.isEmpty() || !originalArgs.get(0).equals("bench") ? "bench " + args : args;
    }

    /**
     * The servers of {@code --endpoints} with their {@code --engine}, once the options around them are checked: not
     * with {@code --fleet}, real time only, an explicit {@code --rate}, and only scenarios a real server can run.
     * Null without {@code --endpoints}.
     *
     * @throws IllegalArgumentException saying what is wrong, for the user
     */
    ExternalServers externalServers() {
        if (endpoints == null) {
            if (engine != null) {
                throw new IllegalArgumentException("--engine names the engine of the servers of --endpoints; give "
                        + "--endpoints too, or leave --engine out");
            }
            return null;
        }
        if (fleet != null) {
            throw new IllegalArgumentException("--endpoints and --fleet exclude each other: with --endpoints the "
                    + "servers you list are the fleet");
        }
        if (engine == null) {
            throw new IllegalArgumentException("--endpoints needs --engine, the engine the servers run ("
                    + ServerEngine.labels() + "): the gateway reads its metric names");
        }
        ServerEngine serverEngine;
        try {
            serverEngine = ServerEngine.fromLabel(engine);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--engine: " + e.getMessage(), e);
        }
        if (timeScale != null && timeScale != 1.0) {
            throw new IllegalArgumentException("--time-scale must be 1 with --endpoints: real servers run in real "
                    + "time (leave it out)");
        }
        if (offered.load != null) {
            throw new IllegalArgumentException("--load is a share of the fleet's capacity, which the bench knows only "
                    + "for simulated fleets; with --endpoints give --rate, the requests per second to offer");
        }
        if (offered.rate == null) {
            throw new IllegalArgumentException("--endpoints needs --rate, the requests per second to offer your "
                    + "servers (the scenarios' own rates are for a simulated GPU fleet, hundreds per second)");
        }
        if (!scenarios.isEmpty()) {
            ExternalFleetScenarios.check(scenarios);
        }
        return new ExternalServers(serverEngine, ExternalServers.parse(endpoints));
    }

    FleetLauncher fleetLauncher(ExternalServers servers, BenchSettings settings) {
        if (servers != null) {
            // between runs, wait for the servers to finish the last run's stragglers as long as for a drain
            return new ExternalFleetLauncher(servers, settings.drainTimeout(), System.err);
        }
        return fleet == FleetKind.stub ? new StubFleetLauncher() : new SimulatorFleetLauncher();
    }

    /**
     * @param external the pods are a user's servers: the access log is then always on, since it is what says how
     *                 many requests each server answered when its engine does not count them
     */
    private GatewayLauncher gatewayLauncher(BenchSettings settings, boolean external) {
        if (gateway == GatewayKind.direct) {
            return GatewayLauncher.direct();
        }
        // the gateway gives up on an upstream no sooner than the bench gives up on the request
        return GatewayProcess.launcher(GatewayProcess.javaJarCommand(gatewayJar, gatewayJvmOptions),
                settings.requestTimeout(), GatewayConfigWriter.DEFAULT_METRICS_INTERVAL, Duration.ofSeconds(180),
                accessLog || external, flowControlOn());
    }

    /** Whether the runs' gateways have flow control on: {@code --flow-control}, or auto by the scenarios named. */
    boolean flowControlOn() {
        return switch (flowControl) {
            case "on" -> true;
            case "off" -> false;
            case "auto" -> scenarios.stream().anyMatch(ScenarioCatalog.FLOW_CONTROL::contains);
            default -> throw new CommandLine.ParameterException(new CommandLine(this),
                    "--flow-control must be on, off or auto, got '" + flowControl + "'");
        };
    }

    /** {@code --replicas} as given, else 1 and 3 for conversation scenarios alone, else 1. */
    private List<Integer> replicas(boolean conversations) {
        return replicas != null ? replicas : conversations ? ConversationScenario.REPLICAS : List.of(1);
    }

    private void listScenarios() {
        String model = this.model != null ? this.model : ScenarioCatalog.DEFAULT_MODEL;
        for (Scenario s : ScenarioCatalog.all(model)) {
            System.out.printf(Locale.ROOT, "%-14s %s%n", s.name(), s.summary());
            System.out.printf(Locale.ROOT, "%-14s fleet: %d pods, speeds %s, KV %d blocks, max_num_seqs %d%s%n", "",
                    s.fleet().pods().size(), s.fleet().pods().stream().map(p -> String.valueOf(p.speedFactor())).toList(),
                    s.fleet().kvBlocksPerPod(), s.fleet().maxNumSeqs(),
                    s.fleet().loraAdapters().isEmpty() ? ""
                            : ", " + s.fleet().loraAdapters().size() + " adapters, max_loras " + s.fleet().maxLoras());
            System.out.printf(Locale.ROOT, "%-14s %s%n", "", s.workload(seed).describe());
            System.out.printf(Locale.ROOT, "%-14s capacity %.1f req/s measured (%.1f without prefix/adapter affinity)%n",
                    "", s.capacity(), s.blindCapacity());
            System.out.printf(Locale.ROOT, "%-14s default: load %.2f, %s, %d s simulated%n%n",
                    "", s.defaultLoad(), s.arrivals().withMeanRate(s.rateForLoad(s.defaultLoad())).describe(),
                    s.duration().toSeconds());
        }
        for (String name : ConversationScenario.NAMES) {
            ConversationScenario c = ConversationScenario.byName(name, model).orElseThrow();
            System.out.printf(Locale.ROOT, "%-14s %s%n%-14s fleet: %d pods, KV %d blocks, max_num_seqs %d%n"
                            + "%-14s %s%n%n", c.name(), c.summary(), "", c.fleet().pods().size(),
                    c.fleet().kvBlocksPerPod(), c.fleet().maxNumSeqs(), "", c.workload().describe());
        }
        RolloutScenario r = RolloutScenario.standard();
        System.out.printf(Locale.ROOT, "%-14s %s%n%-14s candidates: %s%n%-14s %s, %.0f req/s for %d s%n%n", r.name(),
                r.summary(), "", r.variants().stream().map(v -> v.label() + " (" + v.fault() + ")").toList(), "",
                r.workload().describe(), r.rate(), r.span().toSeconds());
    }

    private static Duration seconds(double s) {
        return Duration.ofNanos(Math.round(s * 1e9));
    }

    public static void main(String[] args) {
        CommandLine cli = new CommandLine(new BenchCommand());
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        System.exit(cli.execute(args));
    }
}
