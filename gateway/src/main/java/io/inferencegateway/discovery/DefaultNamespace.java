package io.inferencegateway.discovery;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The namespace pools without a {@code namespace} look in: the {@code KUBERNETES_NAMESPACE} environment
 * variable, else the namespace of the pod's service account (what a pod runs in), else {@code default}.
 */
public final class DefaultNamespace {

    public static final String ENV = "KUBERNETES_NAMESPACE";
    static final Path SERVICE_ACCOUNT_NAMESPACE = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");

    private DefaultNamespace() {
    }

    public static String detect() {
        return detect(System.getenv(), SERVICE_ACCOUNT_NAMESPACE);
    }

    static String detect(Map<String, String> env, Path serviceAccountNamespace) {
        String fromEnv = env.get(ENV);
        if (fromEnv != null && !fromEnv.isBlank()) {
            return fromEnv.trim();
        }
        try {
            String fromFile = Files.readString(serviceAccountNamespace).trim();
            if (!fromFile.isEmpty()) {
                return fromFile;
            }
        } catch (IOException | SecurityException e) {
            // not in a pod
        }
        return "default";
    }
}
