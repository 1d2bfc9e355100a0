package io.inferencegateway.lab.regions;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * What a {@link Region} runs: {@code RegionSpec.of("east", 1)} and the {@code with…} methods for the rest.
 *
 * @param name           the region, {@code igw-<name>} its namespace
 * @param index          1..254, distinct per region of a run: its subnet {@code 10.77.<index>.0/24}
 * @param pods           simulated pods, on ports {@code podBasePort + i} in the namespace
 * @param model          the model they serve
 * @param loras          LoRA adapters per pod ({@code <model-short>-lora-<i>})
 * @param timeScale      how many times faster than real time the pods run
 * @param podSpeeds      per-pod speed factors, the last one repeating; empty for all 1
 * @param linkDelay      the one-way delay between the host and the region's gateway
 * @param linkListenHost where the host side of the link listens: {@code 127.0.0.1}, or {@code 0.0.0.0} for other
 *                       regions' namespaces to reach it too (at their own {@code hostAddress()})
 * @param gatewayConfig  the gateway's config YAML from this spec and the pods' endpoints ({@code 127.0.0.1:<port>});
 *                       by default {@link Region#defaultGatewayConfig}
 * @param gatewayProperties {@code gateway.*} and other system properties of the gateway's JVM
 * @param jvmOptions     options of both JVMs (heap, JIT)
 * @param readyTimeout   how long the pods and the gateway may take to answer
 * @param logRoot        the logs go to {@code <logRoot>/<name>/}
 */
public record RegionSpec(String name, int index, int pods, String model, int loras, double timeScale,
                         List<Double> podSpeeds, Duration linkDelay, String linkListenHost,
                         BiFunction<RegionSpec, List<String>, String> gatewayConfig,
                         Map<String, String> gatewayProperties, List<String> jvmOptions, Duration readyTimeout,
                         Path logRoot) {

    /** Port of the gateway inside the namespace (each namespace has ports of its own, so a fixed one will do). */
    public static final int GATEWAY_PORT = 8080;
    /** Port of pod 0 inside the namespace. */
    public static final int POD_BASE_PORT = 8000;
    /** Port of the simulator's fault-injection admin API inside the namespace. */
    public static final int POD_ADMIN_PORT = 7999;

    /**
     * Small heaps and C1 only: several JVMs share a small box, and the tests want them up fast rather than at peak
     * speed (a gateway is ready ~1 s sooner with C1 only, see {@link Region}).
     */
    public static final List<String> SMALL_JVM = List.of("-Xmx256m", "-Xss512k", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1");

    public RegionSpec {
        podSpeeds = List.copyOf(podSpeeds);
        gatewayProperties = Map.copyOf(gatewayProperties);
        jvmOptions = List.copyOf(jvmOptions);
        if (pods < 0 || loras < 0 || !(timeScale > 0) || linkDelay.isNegative()) {
            throw new IllegalArgumentException("pods, loras >= 0, timeScale > 0, linkDelay >= 0: " + this);
        }
    }

    /**
     * Two pods of Llama-3.1-8B-Instruct at 20 times real speed, no adapters, no link delay, the default gateway
     * config, small JVMs, 120 s to come up (a loaded CI box is slow), logs under {@code target/regions}.
     */
    public static RegionSpec of(String name, int index) {
        return new RegionSpec(name, index, 2, "meta-llama/Llama-3.1-8B-Instruct", 0, 20, List.of(), Duration.ZERO,
                "127.0.0.1", Region::defaultGatewayConfig, Map.of(), SMALL_JVM,
                Duration.ofSeconds(120), Path.of("target", "regions"));
    }

    public RegionSpec withPods(int n) {
        return new RegionSpec(name, index, n, model, loras, timeScale, podSpeeds, linkDelay, linkListenHost,
                gatewayConfig, gatewayProperties, jvmOptions, readyTimeout, logRoot);
    }

    public RegionSpec withModel(String servedModel, int adapters) {
        return new RegionSpec(name, index, pods, servedModel, adapters, timeScale, podSpeeds, linkDelay, linkListenHost,
                gatewayConfig, gatewayProperties, jvmOptions, readyTimeout, logRoot);
    }

    public RegionSpec withTimeScale(double scale) {
        return new RegionSpec(name, index, pods, model, loras, scale, podSpeeds, linkDelay, linkListenHost,
                gatewayConfig, gatewayProperties, jvmOptions, readyTimeout, logRoot);
    }

    public RegionSpec withPodSpeeds(List<Double> speeds) {
        return new RegionSpec(name, index, pods, model, loras, timeScale, speeds, linkDelay, linkListenHost,
                gatewayConfig, gatewayProperties, jvmOptions, readyTimeout, logRoot);
    }

    public RegionSpec withLinkDelay(Duration oneWay) {
        return new RegionSpec(name, index, pods, model, loras, timeScale, podSpeeds, oneWay, linkListenHost,
                gatewayConfig, gatewayProperties, jvmOptions, readyTimeout, logRoot);
    }

    public RegionSpec withLinkListenHost(String host) {
        return new RegionSpec(name, index, pods, model, loras, timeScale, podSpeeds, linkDelay, host,
                gatewayConfig, gatewayProperties, jvmOptions, readyTimeout, logRoot);
    }

    /**
     * The gateway's config YAML, written from this spec and the pods' endpoints as the gateway reaches them
     * ({@code 127.0.0.1:<port>}); {@link Region#defaultGatewayConfig} is the default.
     */
    public RegionSpec withGatewayConfig(BiFunction<RegionSpec, List<String>, String> yaml) {
        return new RegionSpec(name, index, pods, model, loras, timeScale, podSpeeds, linkDelay, linkListenHost,
                yaml, gatewayProperties, jvmOptions, readyTimeout, logRoot);
    }

    public RegionSpec withGatewayProperties(Map<String, String> properties) {
        return new RegionSpec(name, index, pods, model, loras, timeScale, podSpeeds, linkDelay, linkListenHost,
                gatewayConfig, properties, jvmOptions, readyTimeout, logRoot);
    }

    public RegionSpec withJvmOptions(List<String> options) {
        return new RegionSpec(name, index, pods, model, loras, timeScale, podSpeeds, linkDelay, linkListenHost,
                gatewayConfig, gatewayProperties, options, readyTimeout, logRoot);
    }

    public RegionSpec withReadyTimeout(Duration timeout) {
        return new RegionSpec(name, index, pods, model, loras, timeScale, podSpeeds, linkDelay, linkListenHost,
                gatewayConfig, gatewayProperties, jvmOptions, timeout, logRoot);
    }

    public RegionSpec withLogRoot(Path root) {
        return new RegionSpec(name, index, pods, model, loras, timeScale, podSpeeds, linkDelay, linkListenHost,
                gatewayConfig, gatewayProperties, jvmOptions, readyTimeout, root);
    }

    /** The gateway's config for the given pod endpoints. */
    String renderGatewayConfig(List<String> podEndpoints) {
        return gatewayConfig.apply(this, podEndpoints);
    }
}
