package io.inferencegateway.kamelets;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
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

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

import io.inferencegateway.testing.ProjectFiles;

/**
 * Every Kamelet in {@code kamelets/} follows the catalogue rules (name and type match the file, every property
 * documented and validated), stands on its own (no bean of this gateway behind it) and conforms to the Camel K
 * Kamelet CRD (src/test/resources/schemas/camel-k-crd-kamelets.yaml).
 */
class KameletCatalogueTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Set<String> TYPES = Set.of("source", "sink", "action");

    static Stream<Path> kamelets() throws IOException {
        try (Stream<Path> files = Files.list(ProjectFiles.of("kamelets"))) {
            List<Path> found = files.filter(p -> p.getFileName().toString().endsWith(".kamelet.yaml")).sorted().toList();
            assertThat(found).isNotEmpty();
            return found.stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kamelets")
    void nameAndTypeMatchTheFile(Path file) throws IOException {
        JsonNode kamelet = YAML.readTree(file.toFile());
        String name = file.getFileName().toString().replace(".kamelet.yaml", "");
        String type = kamelet.at("/metadata/labels/camel.apache.org~1kamelet.type").asText();

        assertThat(kamelet.at("/kind").asText()).isEqualTo("Kamelet");
        assertThat(kamelet.at("/metadata/name").asText()).isEqualTo(name);
        assertThat(type).isIn(TYPES);
        assertThat(name).endsWith("-" + type);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kamelets")
    void everyPropertyIsDocumentedAndItsDefaultOrExampleIsValid(Path file) throws IOException {
        JsonNode definition = YAML.readTree(file.toFile()).at("/spec/definition");
        assertThat(definition.path("title").asText()).isNotBlank();
        assertThat(definition.path("description").asText()).isNotBlank();

        JsonNode properties = definition.path("properties");
        assertThat(properties.size()).isPositive();
        for (Iterator<Map.Entry<String, JsonNode>> it = properties.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> property = it.next();
            JsonNode p = property.getValue();
            String at = property.getKey();
            assertThat(p.path("title").asText()).as(at + " title").isNotBlank();
            assertThat(p.path("description").asText()).as(at + " description").isNotBlank();
            assertThat(p.path("type").asText()).as(at + " type").isIn("string", "integer", "number", "boolean");
            JsonNode sample = p.has("default") ? p.get("default") : p.get("example");
            assertThat(sample).as(at + " needs a default or an example").isNotNull();
            if (p.has("pattern")) {
                assertThat(Pattern.compile(p.get("pattern").asText()).matcher(sample.asText()).matches())
                        .as(at + " sample matches its pattern").isTrue();
            }
            if (p.has("minimum")) {
                assertThat(sample.asDouble()).as(at + " sample above its minimum")
                        .isGreaterThanOrEqualTo(p.get("minimum").asDouble());
            }
        }
        for (JsonNode required : definition.path("required")) {
            assertThat(properties.has(required.asText())).as("required " + required.asText() + " is defined").isTrue();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kamelets")
    void isUsedByARouteAndExercisedByARouteTest(Path file) throws IOException {
        String name = file.getFileName().toString().replace(".kamelet.yaml", "");
        // a Kamelet's route is named after it without the type suffix, e.g. model-server-pods-<pool>
        String routeStem = name.substring(0, name.lastIndexOf('-') + 1);

        assertThat(filesContaining(ProjectFiles.of("routes"), "kamelet:" + name)).as("routes using " + name).isNotEmpty();
        assertThat(filesContaining(Path.of("src/test/java"), routeStem)).as("tests running " + name)
                .anyMatch(test -> !test.endsWith("KameletCatalogueTest.java"));
    }

    /**
     * A Kamelet stands on its own: every bean its template names is one it defines itself ({@code template.beans})
     * or one the user passes as a required property without a default, never one an application happens to bind.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("kamelets")
    void namesOnlyBeansItDefinesOrTheUserPasses(Path file) throws IOException {
        JsonNode spec = YAML.readTree(file.toFile()).at("/spec");
        Set<String> own = new TreeSet<>();
        spec.at("/template/beans").forEach(bean -> own.add(bean.path("name").asText()));
        Set<String> required = new TreeSet<>();
        spec.at("/definition/required").forEach(r -> required.add(r.asText()));
        List<String> named = new ArrayList<>();
        collectBeanNames(spec.path("template"), null, named);

        for (String name : named) {
            Matcher property = Pattern.compile("\\{\\{(\\w+)}}").matcher(name);
            if (property.matches() && own.contains(property.group(1))) {
                continue; // a template bean, placed by its placeholder
            }
            assertThat(property.matches()).as(name + " is a bean the Kamelet neither defines nor takes as a property")
                    .isTrue();
            JsonNode p = spec.at("/definition/properties/" + property.group(1));
            assertThat(required).as(name + " is required").contains(property.group(1));
            assertThat(p.has("default")).as(name + " has no default naming someone else's bean").isFalse();
        }
    }

    /** Bean names in a template: {@code #bean:x} and {@code #x} values, {@code bean:x} URIs, {@code ref:} fields. */
    private static void collectBeanNames(JsonNode node, String field, List<String> names) {
        if (node.isTextual()) {
            String v = node.asText();
            if (v.startsWith("#bean:")) {
                names.add(v.substring("#bean:".length()));
            } else if (v.startsWith("#") && !v.startsWith("#class:") && !v.startsWith("#type:")) {
                names.add(v.substring(1));
            } else if (v.startsWith("bean:")) {
                names.add(v.substring("bean:".length()).split("\\?")[0]);
            } else if ("ref".equals(field)) {
                names.add(v);
            }
        } else if (node.isArray()) {
            node.forEach(item -> collectBeanNames(item, field, names));
        } else if (node.isObject() && !"beans".equals(field)) {
            node.fields().forEachRemaining(e -> collectBeanNames(e.getValue(), e.getKey(), names));
        }
    }

    private static List<Path> filesContaining(Path dir, String text) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).filter(f -> {
                try {
                    return Files.readString(f).contains(text);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).toList();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kamelets")
    void conformsToTheCamelKKameletCrd(Path file) throws IOException {
        JsonNode crdSchema;
        try (InputStream in = KameletCatalogueTest.class.getResourceAsStream("/schemas/camel-k-crd-kamelets.yaml")) {
            crdSchema = YAML.readTree(in).at("/spec/versions/0/schema/openAPIV3Schema");
        }
        JsonSchema schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4).getSchema(crdSchema);

        Set<ValidationMessage> errors = schema.validate(YAML.readTree(file.toFile()));

        assertThat(errors).isEmpty();
    }
}
