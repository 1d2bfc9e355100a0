package io.inferencegateway.config;

import java.nio.file.Path;

/**
 * This gateway as one cluster of a global tier ({@code spec.cluster}, docs/global.md): the name and region its capacity
 * summary ({@code GET /capacity}) gives, and the token that summary asks for.
 *
 * @param name      the cluster's name, a label of the summary; empty when unset
 * @param region    the cluster's region, a label of the summary; empty when unset
 * @param tokenFile a file holding the token a caller of {@code /capacity} must send as {@code Authorization: Bearer},
 *                  re-read when it changes; null: {@code /capacity} is open like {@code /metrics}
 */
public record ClusterConfig(String name, String region, Path tokenFile) {

    public static final ClusterConfig NONE = new ClusterConfig("", "", null);
}
