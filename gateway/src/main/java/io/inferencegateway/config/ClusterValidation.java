package io.inferencegateway.config;

import java.nio.file.Path;

/** Validates {@code spec.cluster}: names that are label values, and the summary's token file. */
final class ClusterValidation {

    private static final String LABEL_VALUE = "[A-Za-z0-9][A-Za-z0-9._-]{0,62}";

    private ClusterValidation() {
    }

    static ClusterConfig cluster(InferenceGatewayConfig.Cluster c) throws InvalidConfigException {
        if (c == null) {
            return ClusterConfig.NONE;
        }
        labelValue(c.name(), "spec.cluster.name");
        labelValue(c.region(), "spec.cluster.region");
        Path token = c.tokenFile() == null ? null
                : Path.of(ConfigChecks.required(c.tokenFile(), "spec.cluster.tokenFile"));
        return new ClusterConfig(c.name() == null ? "" : c.name(), c.region() == null ? "" : c.region(), token);
    }

    private static void labelValue(String value, String path) throws InvalidConfigException {
        if (value != null && !value.matches(LABEL_VALUE)) {
            throw new InvalidConfigException(path + " must be 1..63 letters, digits, '.', '_' or '-', got '" + value
                    + "'");
        }
    }
}
