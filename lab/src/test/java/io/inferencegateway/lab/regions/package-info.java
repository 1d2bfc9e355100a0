/**
 * Fixtures for end-to-end tests across regions: each region's gateway and simulated pods in a network namespace of
 * its own, reached from the host over a link with real delay that can be cut.
 *
 * <ul>
 *   <li>{@link io.inferencegateway.lab.regions.DelayProxy}: the wide-area link, a TCP proxy with a one-way delay each
 *       way, cut by reset or blackhole, restored; counters for assertions. Needs nothing but loopback.</li>
 *   <li>{@link io.inferencegateway.lab.regions.RegionNamespace}: {@code igw-<region>}, its veth pair
 *       ({@code 10.77.<k>.1} host, {@code 10.77.<k>.2} namespace), the processes started in it and their logs.</li>
 *   <li>{@link io.inferencegateway.lab.regions.Region}, described by a
 *       {@link io.inferencegateway.lab.regions.RegionSpec}: pods and a gateway in a namespace, behind a link.</li>
 *   <li>{@link io.inferencegateway.lab.regions.GlobalTier}: a global tier over the regions, a process on the host;
 *       {@link io.inferencegateway.lab.regions.GlobalTierIT} is the suite that uses it.</li>
 * </ul>
 *
 * <p>A new IT (failsafe, {@code *IT.java} in the lab; it runs the jar that {@code package} built):
 *
 * <pre>{@code
 * @BeforeAll
 * static void start() throws Exception {
 *     assumeTrue(RegionNamespace.available(), "network namespaces need root");   // CI runs as root
 *     regions = Region.startAll(List.of(
 *             RegionSpec.of("east", 11).withPods(2).withLinkDelay(Duration.ofMillis(20)),
 *             RegionSpec.of("west", 12).withPods(2).withLinkDelay(Duration.ofMillis(60))));
 * }
 * // the global gateway, on the host, names each region's gateway at region.gatewayAddress() (127.0.0.1:<port>);
 * // clients use region.baseUrl() + "/v1"; faults: region.killGateway(), region.restartGateway(),
 * // region.slowLink(d), region.cutLink(CutMode.RESET | BLACKHOLE), region.restoreLink()
 * @AfterAll
 * static void stop() {
 *     regions.forEach(Region::close);
 * }
 * }</pre>
 *
 * <p>Indexes must differ between the regions of one run and from those of other ITs that may run at the same time
 * (these ITs use 221-222 and 231-243). Logs: {@code lab/target/regions/<region>/} (gateway.log, pods.log,
 * gateway.yaml); the global tier's in {@code lab/target/regions/global-tier/}.
 */
package io.inferencegateway.lab.regions;
