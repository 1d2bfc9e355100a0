package io.inferencegateway.deployed;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.inferencegateway.testing.ConfigMapVolume;
import io.inferencegateway.testing.GatewayHarness;
import io.inferencegateway.testing.ProjectFiles;

/**
 * Runs the Camel Quarkus application that {@code src/it/camel-quarkus} builds the way a Camel K 2.11 operator runs an
 * Integration's pod on its default runtime (plain Camel Quarkus, JVM mode), with the files of
 * {@code camel-k/integration.yaml} laid out as the pod's volumes would hold them, under a directory that stands for
 * the container's root:
 * <ul>
 * <li>each source of the Integration, from {@code routes/}, mounted alone under {@code /etc/camel/sources/};</li>
 * <li>the Kamelets of the kamelets trait, from {@code kamelets/}, in one bundle directory under
 * {@code /etc/camel/kamelets/};</li>
 * <li>{@code /etc/camel/application.properties}, what the operator itself configures: where the routes and Kamelets
 * are, and the log settings;</li>
 * <li>{@code /etc/camel/conf.d/user.properties}, the camel trait's properties, paths in them moved under the root, and
 * the test's own properties last (a free port for {@code gateway.port}, the mock API server, ...);</li>
 * <li>the config ConfigMap of the mount trait, with the kubelet's symlink layout ({@link ConfigMapVolume});</li>
 * <li>the built {@code quarkus-app} as {@code /deployments/dependencies}.</li>
 * </ul>
 * The container command is the operator's: {@code java -cp <mounts and the app's jars> QuarkusEntryPoint} in
 * {@code /deployments}, with {@code QUARKUS_CONFIG_LOCATIONS} naming the two properties files.
 */
final class CamelKPodLauncher {

    /** The built application; the failsafe configuration in pom.xml names it. */
    static final Path APP = Path.of(System.getProperty("camelQuarkus.app",
            "target/it/camel-quarkus/target/quarkus-app"));
    static final Path INTEGRATION = ProjectFiles.of("camel-k", "integration.yaml");
    static final String MAIN_CLASS = "io.quarkus.bootstrap.runner.QuarkusEntryPoint";

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private CamelKPodLauncher() {
    }

    static DeployedGateway deploy(Path root, String configYaml, Map<String, String> extraProperties) throws Exception {
        if (!Files.isRegularFile(APP.resolve("quarkus-run.jar"))) {
            throw new AssertionError(APP + " is missing: `mvn verify` builds it from src/it/camel-quarkus in "
                    + "pre-integration-test");
        }
        JsonNode integration = YAML.readTree(INTEGRATION.toFile());
        String name = integration.at("/metadata/name").asText();
        Path etcCamel = Files.createDirectories(root.resolve("etc/camel"));
        List<Path> mounts = new ArrayList<>();

        Path sources = Files.createDirectories(etcCamel.resolve("sources"));
        for (JsonNode source : integration.at("/spec/sources")) {
            Path mounted = sources.resolve(source.path("name").asText());
            Files.copy(ProjectFiles.of("routes", source.path("contentKey").asText()), mounted);
            mounts.add(mounted);
        }

        Path kamelets = Files.createDirectories(etcCamel.resolve("kamelets/kamelets-bundle-" + name + "-000"));
        for (String kamelet : integration.at("/spec/traits/kamelets/list").asText().split(",")) {
            Files.copy(ProjectFiles.of("kamelets", kamelet.trim() + ".kamelet.yaml"),
                    kamelets.resolve(kamelet.trim() + ".kamelet.yaml"));
        }
        mounts.add(kamelets);

        Path applicationProperties = etcCamel.resolve("application.properties");
        Files.writeString(applicationProperties, properties(operatorProperties(sources, kamelets)));
        mounts.add(applicationProperties);

        int port = GatewayHarness.freePort();
        Map<String, String> user = new LinkedHashMap<>();
        for (JsonNode property : integration.at("/spec/traits/camel/properties")) {
            String[] kv = property.asText().split("=", 2);
            user.put(kv[0].trim(), underRoot(root, kv[1].trim()));
        }
        user.put("gateway.port", Integer.toString(port));
        user.putAll(extraProperties);
        Path userProperties = Files.createDirectories(etcCamel.resolve("conf.d")).resolve("user.properties");
        Files.writeString(userProperties, properties(user));
        mounts.add(userProperties);

        Path configFile = Path.of(user.get("gateway.config"));
        Path configMount = Files.createDirectories(configFile.getParent());
        ConfigMapVolume config = ConfigMapVolume.create(configMount, configFile.getFileName().toString(), configYaml);
        mounts.add(configMount);

        Path deployments = Files.createDirectories(root.resolve("deployments"));
        Files.createSymbolicLink(deployments.resolve("dependencies"), APP.toAbsolutePath());

        List<String> command = List.of(ChildJvm.java(), "-Xmx512m", "-cp", classpath(root, mounts), MAIN_CLASS);
        ChildJvm jvm = ChildJvm.start(command, deployments, environment(root, integration, applicationProperties,
                userProperties), root.resolve("pod.log"), "http://127.0.0.1:" + port + "/health");
        return new DeployedGateway(jvm, port, config);
    }

    /**
     * What the operator writes into {@code application.properties} for this Integration on plain Camel Quarkus: the
     * routes are every file under the sources mount, the Kamelets come from the bundle (then the classpath), Kamelets
     * get no error handler of their own, and the logging trait's defaults.
     */
    private static Map<String, String> operatorProperties(Path sources, Path kamelets) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("camel.main.source-location-enabled", "true");
        p.put("camel.main.routes-include-pattern", "file:" + sources + "/**");
        p.put("camel.component.kamelet.location", "file:" + kamelets + ",classpath:/kamelets");
        p.put("camel.component.kamelet.no-error-handler", "false");
        p.put("camel.k.logging.level", "INFO");
        p.put("camel.k.logging.json", "false");
        p.put("camel.k.logging.color", "true");
        p.put("quarkus.log.level", "${camel.k.logging.level}");
        p.put("quarkus.log.console.json", "${camel.k.logging.json}");
        p.put("quarkus.console.color", "${camel.k.logging.color}");
        return p;
    }

    /** The classpath the jvm trait builds: resource directories, every mount, the app's jars, sorted. */
    private static String classpath(Path root, List<Path> mounts) {
        TreeSet<String> items = new TreeSet<>(List.of("./resources",
                root.resolve("etc/camel/resources.d/_configmaps").toString(),
                root.resolve("etc/camel/resources.d/_secrets").toString(),
                root.resolve("etc/camel/resources").toString(),
                "dependencies/*", "dependencies/app/*", "dependencies/lib/boot/*", "dependencies/lib/main/*"));
        mounts.forEach(m -> items.add(m.toString()));
        return String.join(":", items);
    }

    private static Map<String, String> environment(Path root, JsonNode integration, Path applicationProperties,
            Path userProperties) {
        String name = integration.at("/metadata/name").asText();
        Map<String, String> env = new LinkedHashMap<>();
        env.put("QUARKUS_CONFIG_LOCATIONS", applicationProperties + "," + userProperties);
        env.put("CAMEL_K_CONF", applicationProperties.toString());
        env.put("CAMEL_K_CONF_D", userProperties.getParent().toString());
        env.put("CAMEL_K_INTEGRATION", name);
        env.put("CAMEL_K_VERSION", "2.11.0");
        env.put("CAMEL_K_RUNTIME_VERSION", integration.at("/spec/traits/camel/runtimeVersion").asText());
        env.put("CAMEL_K_OPERATOR_ID", "camel-k");
        env.put("CAMEL_K_MOUNT_PATH_CONFIGMAPS", root.resolve("etc/camel/conf.d/_configmaps").toString());
        env.put("CAMEL_K_MOUNT_PATH_SECRETS", root.resolve("etc/camel/conf.d/_secrets").toString());
        env.put("NAMESPACE", "default");
        env.put("POD_NAME", name + "-test");
        return env;
    }

    /** A value naming a file in the pod ({@code /etc/...}) names the same file under {@code root}. */
    private static String underRoot(Path root, String value) {
        return value.startsWith("/etc/") ? root.resolve(value.substring(1)).toString() : value;
    }

    private static String properties(Map<String, String> p) {
        StringBuilder sb = new StringBuilder();
        p.forEach((k, v) -> sb.append(k).append('=').append(v).append('\n'));
        return sb.toString();
    }
}
