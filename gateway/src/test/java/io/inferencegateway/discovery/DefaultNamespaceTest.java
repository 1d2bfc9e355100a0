package io.inferencegateway.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DefaultNamespaceTest {

    @TempDir
    Path dir;

    @Test
    void environmentFirstThenTheServiceAccountThenDefault() throws Exception {
        Path serviceAccount = dir.resolve("namespace");
        Files.writeString(serviceAccount, "inference\n");

        assertThat(DefaultNamespace.detect(Map.of("KUBERNETES_NAMESPACE", " models "), serviceAccount)).isEqualTo("models");
        assertThat(DefaultNamespace.detect(Map.of("KUBERNETES_NAMESPACE", " "), serviceAccount)).isEqualTo("inference");
        assertThat(DefaultNamespace.detect(Map.of(), dir.resolve("missing"))).isEqualTo("default");
    }
}
