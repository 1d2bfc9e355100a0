package io.inferencegateway.kubernetes;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

/**
 * Validates a resource against a CRD's {@code openAPIV3Schema} the way {@code kubectl apply --validate=strict}
 * would: as JSON Schema, plus unknown fields rejected (the API server would otherwise drop them silently) and the
 * uniqueness that {@code x-kubernetes-list-type: map|set} demands.
 */
final class CrdSchema {

    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private final JsonNode schema;
    private final JsonSchema validator;

    private CrdSchema(JsonNode crd) {
        this.schema = crd.at("/spec/versions/0/schema/openAPIV3Schema");
        JsonNode strict = schema.deepCopy();
        closeObjects(strict);
        this.validator = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4).getSchema(strict);
    }

    static CrdSchema fromResource(String resource) throws IOException {
        try (InputStream in = CrdSchema.class.getResourceAsStream(resource)) {
            return new CrdSchema(firstCrd(YAML.readerFor(JsonNode.class).<JsonNode>readValues(in).readAll()));
        }
    }

    static CrdSchema fromFile(Path file) throws IOException {
        return new CrdSchema(firstCrd(YAML.readerFor(JsonNode.class).<JsonNode>readValues(file.toFile()).readAll()));
    }

    private static JsonNode firstCrd(List<JsonNode> docs) {
        for (JsonNode doc : docs) {
            if (doc != null && "CustomResourceDefinition".equals(doc.path("kind").asText())) {
                return doc;
            }
        }
        throw new IllegalArgumentException("no CustomResourceDefinition in the file");
    }

    JsonNode schema() {
        return schema;
    }

    /** Every problem found, as readable lines; empty when the resource is valid. */
    List<String> problems(JsonNode resource) {
        List<String> problems = new ArrayList<>();
        for (ValidationMessage m : validator.validate(resource)) {
            problems.add(m.getMessage());
        }
        listUniqueness(schema, resource, "$", problems);
        return problems;
    }

    private static void closeObjects(JsonNode node) {
        if (!(node instanceof ObjectNode object)) {
            return;
        }
        if (object.has("properties") && !object.has("additionalProperties")
                && !object.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
            object.put("additionalProperties", false);
        }
        for (Iterator<JsonNode> it = object.path("properties").elements(); it.hasNext();) {
            closeObjects(it.next());
        }
        closeObjects(object.get("items"));
        closeObjects(object.get("additionalProperties"));
    }

    private static void listUniqueness(JsonNode schema, JsonNode value, String at, List<String> problems) {
        if (schema == null || value == null) {
            return;
        }
        if (value.isArray()) {
            String listType = schema.path("x-kubernetes-list-type").asText("");
            Set<String> seen = new HashSet<>();
            for (JsonNode item : value) {
                String key = switch (listType) {
                    case "map" -> keyOf(item, schema.path("x-kubernetes-list-map-keys"));
                    case "set" -> item.toString();
                    default -> null;
                };
                if (key != null && !seen.add(key)) {
                    problems.add(at + ": duplicate entry " + key);
                }
                listUniqueness(schema.get("items"), item, at + "[]", problems);
            }
        } else if (value.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> field = it.next();
                JsonNode child = schema.path("properties").get(field.getKey());
                listUniqueness(child != null ? child : schema.get("additionalProperties"), field.getValue(),
                        at + "." + field.getKey(), problems);
            }
        }
    }

    private static String keyOf(JsonNode item, JsonNode keys) {
        StringBuilder key = new StringBuilder();
        for (JsonNode k : keys) {
            key.append(k.asText()).append('=').append(item.path(k.asText()).asText()).append(';');
        }
        return key.toString();
    }
}
