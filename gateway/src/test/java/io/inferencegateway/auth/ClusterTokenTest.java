package io.inferencegateway.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cluster-to-cluster token of spec.cluster.tokenFile: one token in a file, re-read when the file changes. */
class ClusterTokenTest {

    @TempDir
    Path dir;

    @Test
    void theTokenInTheFileIsAcceptedAsABearerCredentialAndNothingElseIs() throws Exception {
        Path file = Files.writeString(dir.resolve("token"), "  s3cret-token\n");
        try (ClusterToken token = ClusterToken.watch(file, "spec.cluster.tokenFile")) {
            assertThat(token.accepts("Bearer s3cret-token")).isTrue();
            assertThat(token.accepts("bearer s3cret-token")).as("the scheme is case-insensitive").isTrue();
            assertThat(token.accepts("Bearer s3cret-tokenX")).isFalse();
            assertThat(token.accepts("Bearer s3cret")).isFalse();
            assertThat(token.accepts("Basic s3cret-token")).isFalse();
            assertThat(token.accepts(null)).isFalse();
            assertThat(token.authorization()).isEqualTo("Bearer s3cret-token");
        }
    }

    @Test
    void aRewrittenFileReplacesTheTokenAndAnEmptyOneKeepsIt() throws Exception {
        Path file = Files.writeString(dir.resolve("token"), "first");
        try (ClusterToken token = ClusterToken.watch(file, "spec.cluster.tokenFile")) {
            Files.writeString(file, "second\n");
            await().atMost(Duration.ofSeconds(20)).until(() -> token.accepts("Bearer second"));
            assertThat(token.accepts("Bearer first")).isFalse();

            Files.writeString(file, "\n");
            Files.writeString(dir.resolve("other"), "a change nearby, so the watcher has looked again");
            await().pollDelay(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5))
                    .until(() -> token.accepts("Bearer second"));
        }
    }

    @Test
    void aMissingOrEmptyFileStopsTheStartNamingTheConfigPath() throws Exception {
        assertThatThrownBy(() -> ClusterToken.watch(dir.resolve("absent"), "spec.cluster.tokenFile"))
                .hasMessageStartingWith("cannot read spec.cluster.tokenFile");
        Path empty = Files.writeString(dir.resolve("empty"), " \n");
        assertThatThrownBy(() -> ClusterToken.watch(empty, "spec.cluster.tokenFile"))
                .hasMessageEndingWith("is empty");
    }
}
