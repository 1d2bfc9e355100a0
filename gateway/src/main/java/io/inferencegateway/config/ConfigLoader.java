package io.inferencegateway.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/**
 * Reads an {@code InferenceGatewayConfig} YAML document and hands it to the validators, one per section
 * ({@link SpecValidation} first). Every problem is reported as one line that names the path in the document, e.g.
 * {@code spec.schedulers[1].modelName is required}: the validators' own, and Jackson's, which this loader words so
 * (a field it does not know, with the known one it is most like; a value of the wrong type; YAML that does not parse).
 */
public final class ConfigLoader {

    public static final String KIND = "InferenceGatewayConfig";

    /** The one version of the document this loader reads (the CRD's group and version); a config may leave it out. */
    public static final String API_VERSION = "inferencegateway.io/v1alpha1";

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    private ConfigLoader() {
    }

    public static GatewayConfig load(Path file) throws InvalidConfigException {
        try (InputStream in = Files.newInputStream(file)) {
            return parse(in);
        } catch (NoSuchFileException e) {
            throw new InvalidConfigException("config file not found: " + file);
        } catch (IOException e) {
            throw new InvalidConfigException("cannot read config file " + file + ": " + e.getMessage());
        }
    }

    public static GatewayConfig parse(String yaml) throws InvalidConfigException {
        try {
            return read(YAML.readTree(yaml));
        } catch (JsonProcessingException e) {
            throw describe(e);
        }
    }

    public static GatewayConfig parse(InputStream yaml) throws InvalidConfigException {
        try {
            return read(YAML.readTree(yaml));
        } catch (JsonProcessingException e) {
            throw describe(e);
        } catch (IOException e) {
            throw new InvalidConfigException("cannot read config: " + e.getMessage());
        }
    }

    /**
     * The document's kind and apiVersion first, so that another resource (a CRD, a Deployment) is refused by what it
     * is rather than by its first field this loader does not know; then the whole document.
     */
    private static GatewayConfig read(JsonNode tree) throws JsonProcessingException, InvalidConfigException {
        if (tree == null || tree.isMissingNode() || tree.isNull()) {
            throw new InvalidConfigException("config is empty");
        }
        if (tree.isObject()) {
            checkHeader(text(tree.get("kind")), text(tree.get("apiVersion")));
        }
        return validate(YAML.treeToValue(tree, InferenceGatewayConfig.class));
    }

    private static String text(JsonNode node) {
        return node == null || node.isNull() ? null : node.isValueNode() ? node.asText() : node.toString();
    }

    private static void checkHeader(String kind, String apiVersion) throws InvalidConfigException {
        if (!KIND.equals(kind)) {
            throw new InvalidConfigException("kind must be " + KIND + ", got " + kind);
        }
        if (apiVersion != null && !API_VERSION.equals(apiVersion.strip())) {
            throw new InvalidConfigException("apiVersion must be " + API_VERSION + ", got '" + apiVersion + "'");
        }
    }

    private static InvalidConfigException describe(JsonProcessingException e) {
        StreamReadException syntax = syntaxError(e);
        if (syntax != null) {
            String where = syntax.getLocation() == null ? "" : " at line " + syntax.getLocation().getLineNr();
            return new InvalidConfigException("config is not valid YAML" + where + ": "
                    + syntax.getOriginalMessage().split("\n")[0]);
        }
        if (e instanceof UnrecognizedPropertyException u) {
            return new InvalidConfigException(path(u) + " is not a known field"
                    + ConfigChecks.didYouMean(u.getPropertyName(), u.getKnownPropertyIds()));
        }
        if (e instanceof JsonMappingException m && !m.getPath().isEmpty()) {
            return new InvalidConfigException(path(m) + " has the wrong type: "
                    + m.getOriginalMessage().split("\n")[0]);
        }
        return new InvalidConfigException("config cannot be read: " + e.getOriginalMessage().split("\n")[0]);
    }

    private static StreamReadException syntaxError(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof StreamReadException s) {
                return s;
            }
        }
        return null;
    }

    private static String path(JsonMappingException e) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                if (sb.length() > 0) {
                    sb.append('.');
                }
                sb.append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                sb.append('[').append(ref.getIndex()).append(']');
            }
        }
        return sb.toString();
    }

    /** The document read: its kind and apiVersion, then its {@code spec}, section by section. */
    private static GatewayConfig validate(InferenceGatewayConfig doc) throws InvalidConfigException {
        if (doc == null) {
            throw new InvalidConfigException("config is empty");
        }
        checkHeader(doc.kind(), doc.apiVersion());
        return SpecValidation.spec(doc.spec());
    }
}
