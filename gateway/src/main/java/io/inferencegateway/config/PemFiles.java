package io.inferencegateway.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Checks the PEM files a TLS set-up names (certificates, keys, CAs) before Netty reads them, so that a wrong path or a
 * file of another format fails with the file's name and role in the message rather than a parser's stack trace.
 */
public final class PemFiles {

    private PemFiles() {
    }

    /**
     * {@code file} when it is a readable file with at least one PEM block ({@code -----BEGIN ...-----}).
     *
     * @param role what the file is for, named in the message ({@code "CA file"}, {@code "client key file"})
     * @throws IllegalArgumentException naming the file and its role when it is missing, unreadable or not PEM
     */
    public static Path require(Path file, String role) {
        if (file == null) {
            throw new IllegalArgumentException(role + " is required");
        }
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(role + " " + file + " does not exist or is not a file");
        }
        String text;
        try {
            text = Files.readString(file, StandardCharsets.ISO_8859_1); // PEM is ASCII; this never fails to decode
        } catch (IOException e) {
            throw new IllegalArgumentException(role + " " + file + " cannot be read: " + e.getMessage(), e);
        }
        if (!text.contains("-----BEGIN ")) {
            throw new IllegalArgumentException(role + " " + file + " is not PEM (no -----BEGIN line)");
        }
        return file;
    }
}
