package io.inferencegateway.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.inferencegateway.testing.ProjectFiles;

/**
 * The deployment in {@code camel-k/}: every manifest conforms to its CRD, the Integration runs exactly the files of
 * {@code routes/} with this build's jar on the runtime it is tested on, {@code kamel-run.sh} issues the same Integration,
 * probes and the Prometheus scrape hit the gateway's own endpoints, and RBAC and mounts fit.
 */
class CamelKManifestsTest {

    static final Path CAMEL_K = ProjectFiles.of("camel-k");
    /** A global tier's Integration and config, beside the gateway's own (one Integration per directory). */
    static final Path GLOBAL_TIER = CAMEL_K.resolve("global-tier");
    static final Set<String> KINDS = Set.of("CustomResourceDefinition", "Integration", "InferenceGatewayConfig",
            "ServiceAccount", "Role", "RoleBinding", "PodMonitor");

    static List<JsonNode> documents() throws IOException {
        return documents(CAMEL_K);
    }

    static List<JsonNode> documents(Path dir) throws IOException {
        List<JsonNode> docs = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                for (JsonNode doc : CrdSchema.YAML.readerFor(JsonNode.class).<JsonNode>readValues(file.toFile())
                        .readAll()) {
                    if (doc != null && !doc.isEmpty()) {
                        docs.add(doc);
                    }
                }
            }
        }
        return docs;
    }

    static JsonNode only(String kind) throws IOException {
        List<JsonNode> found = documents().stream().filter(d -> kind.equals(d.path("kind").asText())).toList();
        assertThat(found).as(kind).hasSize(1);
        return found.get(0);
    }

    static List<String> fileNames(String dir, String suffix) throws IOException {
        try (Stream<Path> files = Files.list(ProjectFiles.of(dir))) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(suffix)).sorted().toList();
        }
    }

    static String pomVersion() throws IOException {
        Matcher m = Pattern.compile("<artifactId>inference-gateway-parent</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(Files.readString(ProjectFiles.of("pom.xml")));
        assertThat(m.find()).isTrue();
        return m.group(1);
    }

    @Test
    void everyManifestHasAKnownKindAndConformsToItsSchema() throws Exception {
        conformsToSchemas(documents());
    }

    @Test
    void everyGlobalTierManifestHasAKnownKindAndConformsToItsSchema() throws Exception {
        conformsToSchemas(documents(GLOBAL_TIER));
    }

    /**
     * The global tier runs what the gateway runs (the same routes, jar, components and Kamelets), and mounts its config
     * and both Secrets whole, where its config reads the provider's key and the clusters' token.
     */
    @Test
    void theGlobalTierRunsTheGatewaysRoutesAndMountsItsSecretsWhereItsConfigReadsThem() throws Exception {
        JsonNode gateway = only("Integration");
        List<JsonNode> docs = documents(GLOBAL_TIER);
        JsonNode tier = docs.stream().filter(d -> d.path("kind").asText().equals("Integration")).findFirst().orElseThrow();
        JsonNode config = docs.stream().filter(d -> d.path("kind").asText().equals("InferenceGatewayConfig"))
                .findFirst().orElseThrow();

        assertThat(tier.at("/metadata/name").asText()).isNotEqualTo(gateway.at("/metadata/name").asText());
        for (String part : List.of("/spec/sources", "/spec/dependencies", "/spec/traits/camel", "/spec/traits/container",
                "/spec/traits/health", "/spec/traits/kamelets")) {
            assertThat(tier.at(part)).as(part).isEqualTo(gateway.at(part));
        }
        Set<String> settings = traitSettings(tier.at("/spec/traits"));
        assertThat(settings).contains("mount.resources=configmap:global-tier-config@/etc/inference-gateway",
                "mount.resources=secret:global-tier-provider-key@/etc/inference-gateway-secrets/provider",
                "mount.resources=secret:global-tier-cluster-token@/etc/inference-gateway-secrets/clusters",
                "camel.properties=gateway.config=/etc/inference-gateway/config.yaml");
        assertThat(config.at("/spec/global/clusterTokenFile").asText())
                .startsWith("/etc/inference-gateway-secrets/clusters/");
        assertThat(config.at("/spec/global/providers")).isNotEmpty()
                .allSatisfy(p -> assertThat(p.path("apiKeyFile").asText())
                        .startsWith("/etc/inference-gateway-secrets/provider/"));
        assertThat(config.at("/spec/global/clusters")).hasSize(2);
    }

    private static void conformsToSchemas(List<JsonNode> docs) throws Exception {
        CrdSchema integrationCrd = CrdSchema.fromResource("/schemas/camel-k-crd-integrations.yaml");
        CrdSchema configCrd = CrdSchema.fromFile(InferenceGatewayConfigCrdTest.CRD);

        assertThat(docs).extracting(d -> d.path("kind").asText()).allMatch(KINDS::contains)
                .contains("Integration", "InferenceGatewayConfig");
        for (JsonNode doc : docs) {
            String kind = doc.path("kind").asText();
            assertThat(doc.at("/metadata/name").asText()).as(kind + " name").isNotBlank();
            if (kind.equals("Integration")) {
                assertThat(integrationCrd.problems(doc)).as("Integration").isEmpty();
                assertThat(doc.path("apiVersion").asText()).isEqualTo("camel.apache.org/v1");
            } else if (kind.equals("InferenceGatewayConfig")) {
                assertThat(configCrd.problems(doc)).as("InferenceGatewayConfig").isEmpty();
            }
        }
    }

    @Test
    void theIntegrationRunsExactlyTheRouteFiles() throws Exception {
        JsonNode sources = only("Integration").at("/spec/sources");
        List<String> names = new ArrayList<>();
        for (JsonNode source : sources) {
            names.add(source.path("name").asText());
            assertThat(source.path("contentKey").asText()).isEqualTo(source.path("name").asText());
            assertThat(source.path("contentRef").asText()).isEqualTo("inference-gateway-routes");
            assertThat(source.path("language").asText()).isEqualTo("yaml");
        }

        assertThat(names).isEqualTo(fileNames("routes", ".camel.yaml"));
        assertThat(Files.readString(CAMEL_K.resolve("kamel-run.sh"))).contains("kamel run routes/*.camel.yaml");
    }

    @Test
    void theIntegrationUsesThisBuildOfTheJarAndListsEveryKamelet() throws Exception {
        JsonNode integration = only("Integration");
        List<String> dependencies = new ArrayList<>();
        integration.at("/spec/dependencies").forEach(d -> dependencies.add(d.asText()));

        assertThat(dependencies).contains("mvn:io.inferencegateway:inference-gateway:" + pomVersion());
        assertThat(List.of(integration.at("/spec/traits/kamelets/list").asText().split(",")))
                .isEqualTo(fileNames("kamelets", ".kamelet.yaml").stream()
                        .map(n -> n.replace(".kamelet.yaml", "")).toList());
    }

    /** The Integration's settings as {@code trait.property=value} lines, list items one per line. */
    static Set<String> traitSettings(JsonNode traits) {
        Set<String> settings = new TreeSet<>();
        for (Iterator<Map.Entry<String, JsonNode>> t = traits.fields(); t.hasNext();) {
            Map.Entry<String, JsonNode> trait = t.next();
            for (Iterator<Map.Entry<String, JsonNode>> p = trait.getValue().fields(); p.hasNext();) {
                Map.Entry<String, JsonNode> property = p.next();
                String key = trait.getKey() + "." + property.getKey() + "=";
                if (property.getValue().isArray()) {
                    property.getValue().forEach(v -> settings.add(key + v.asText()));
                } else {
                    settings.add(key + property.getValue().asText());
                }
            }
        }
        return settings;
    }

    static String camelCase(String kebab) {
        StringBuilder sb = new StringBuilder();
        for (String part : kebab.split("-")) {
            sb.append(sb.length() == 0 ? part : Character.toUpperCase(part.charAt(0)) + part.substring(1));
        }
        return sb.toString();
    }

    @Test
    void kamelRunIssuesTheSameIntegration() throws Exception {
        JsonNode integration = only("Integration");
        String script = Files.readString(CAMEL_K.resolve("kamel-run.sh")).replace("${VERSION}", pomVersion())
                .replace("\"", "");
        Set<String> settings = new TreeSet<>();
        Set<String> dependencies = new TreeSet<>();
        Matcher flag = Pattern.compile("--(trait|property|resource|dependency|service-account|name) (\\S+)")
                .matcher(script);
        String serviceAccount = null;
        String name = null;
        while (flag.find()) {
            String value = flag.group(2);
            switch (flag.group(1)) {
                case "trait" -> {
                    int dot = value.indexOf('.');
                    int eq = value.indexOf('=');
                    settings.add(value.substring(0, dot) + "." + camelCase(value.substring(dot + 1, eq))
                            + value.substring(eq));
                }
                case "property" -> settings.add("camel.properties=" + value);
                case "resource" -> settings.add("mount.resources=" + value);
                case "dependency" -> dependencies.add(value);
                case "service-account" -> serviceAccount = value;
                default -> name = value;
            }
        }
        Set<String> integrationDependencies = new TreeSet<>();
        integration.at("/spec/dependencies").forEach(d -> integrationDependencies.add(d.asText()));

        assertThat(settings).isEqualTo(traitSettings(integration.at("/spec/traits")));
        assertThat(dependencies).isEqualTo(integrationDependencies);
        assertThat(serviceAccount).isEqualTo(integration.at("/spec/serviceAccountName").asText());
        assertThat(name).isEqualTo(integration.at("/metadata/name").asText());
    }

    @Test
    void theConfigMapIsMountedWholeWhereTheGatewayReadsIt() throws Exception {
        Set<String> settings = traitSettings(only("Integration").at("/spec/traits"));

        // no /key in the resource: the ConfigMap is a directory, not a subPath file, so updates reach the pod
        assertThat(settings).contains("mount.resources=configmap:inference-gateway-config@/etc/inference-gateway",
                "camel.properties=gateway.config=/etc/inference-gateway/config.yaml");
        assertThat(Files.readString(CAMEL_K.resolve("kamel-run.sh")))
                .contains("create configmap inference-gateway-config \\\n  --from-file=config.yaml=");
    }

    @Test
    void theServiceAccountMayReadPodsAndConfigMapsAndNothingElse() throws Exception {
        String account = only("Integration").at("/spec/serviceAccountName").asText();
        JsonNode role = only("Role");
        JsonNode binding = only("RoleBinding");

        assertThat(only("ServiceAccount").at("/metadata/name").asText()).isEqualTo(account);
        Set<String> grants = new TreeSet<>();
        for (JsonNode rule : role.path("rules")) {
            assertThat(rule.path("apiGroups").toString()).isEqualTo("[\"\"]");
            for (JsonNode resource : rule.path("resources")) {
                for (JsonNode verb : rule.path("verbs")) {
                    grants.add(resource.asText() + ":" + verb.asText());
                }
            }
        }
        assertThat(grants).containsExactlyInAnyOrder("pods:get", "pods:list", "pods:watch", "configmaps:get",
                "configmaps:list", "configmaps:watch");
        assertThat(binding.at("/roleRef/kind").asText()).isEqualTo("Role");
        assertThat(binding.at("/roleRef/name").asText()).isEqualTo(role.at("/metadata/name").asText());
        assertThat(binding.at("/subjects/0/kind").asText()).isEqualTo("ServiceAccount");
        assertThat(binding.at("/subjects/0/name").asText()).isEqualTo(account);
    }

    @Test
    void probesAndThePrometheusScrapeHitTheGatewaysOwnEndpoints() throws Exception {
        JsonNode integration = only("Integration");
        JsonNode traits = integration.at("/spec/traits");
        int port = traits.at("/container/port").asInt();
        String portName = traits.at("/container/portName").asText();

        assertThat(traits.at("/health/livenessProbeEnabled").asBoolean()).isTrue();
        assertThat(traits.at("/health/livenessProbe").asText()).isEqualTo("/health");
        assertThat(traits.at("/health/livenessPort").asInt()).isEqualTo(port);
        assertThat(traits.at("/health/readinessProbeEnabled").asBoolean()).isTrue();
        assertThat(traits.at("/health/readinessProbe").asText()).isEqualTo("/ready");
        assertThat(traits.at("/health/readinessPort").asInt()).isEqualTo(port);
        assertThat(traits.at("/camel/properties").toString()).contains("gateway.port=" + port);
        // the deprecated prometheus trait scrapes the runtime's registry, where the gateway's meters are not
        assertThat(traits.has("prometheus")).isFalse();

        JsonNode monitor = only("PodMonitor");
        assertThat(monitor.at("/spec/selector/matchLabels/camel.apache.org~1integration").asText())
                .isEqualTo(integration.at("/metadata/name").asText());
        assertThat(monitor.at("/spec/podMetricsEndpoints/0/port").asText()).isEqualTo(portName);
        assertThat(monitor.at("/spec/podMetricsEndpoints/0/path").asText()).isEqualTo("/metrics");
    }

    @Test
    void theIntegrationPinsThePlainCamelQuarkusRuntime() throws Exception {
        JsonNode camel = only("Integration").at("/spec/traits/camel");

        // the version the end-to-end suite runs the jar on (src/it/camel-quarkus, CamelQuarkusGatewayIT)
        Matcher tested = Pattern.compile("<quarkus.platform.version>([^<]+)</quarkus.platform.version>")
                .matcher(Files.readString(Path.of("src/it/camel-quarkus/pom.xml")));
        assertThat(tested.find()).isTrue();

        assertThat(camel.path("runtimeProvider").asText()).isEqualTo("plain-quarkus");
        assertThat(camel.path("runtimeVersion").asText()).isEqualTo(tested.group(1));
    }

    @Test
    void theRuntimeCheckBuildsEveryComponentTheIntegrationNames() throws Exception {
        String app = Files.readString(Path.of("src/it/camel-quarkus/pom.xml"));
        List<String> missing = new ArrayList<>();
        only("Integration").at("/spec/dependencies").forEach(d -> {
            String component = d.asText();
            if (component.startsWith("camel:")) {
                String name = component.substring("camel:".length());
                if (!app.contains("<artifactId>camel-quarkus-" + name + "</artifactId>")
                        && !app.contains("<artifactId>camel-" + name + "</artifactId>")) {
                    missing.add(component);
                }
            }
        });
        assertThat(missing).as("components of camel-k/integration.yaml absent from src/it/camel-quarkus").isEmpty();
    }
}
