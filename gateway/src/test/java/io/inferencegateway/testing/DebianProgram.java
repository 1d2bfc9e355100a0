package io.inferencegateway.testing;

import static org.assertj.core.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A program from a Debian package that a test runs (promtool, prometheus); tools/provision.sh installs them
 * before the tests when it can.
 */
public final class DebianProgram {

    private DebianProgram() {
    }

    /** The program's path on PATH; fails the test, naming the package to install, when it is not there. */
    public static String find(String program, String debianPackage) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path p = Path.of(dir, program);
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        fail(program + " not found on PATH: install the Debian package '" + debianPackage + "' (apt-get install "
                + debianPackage + "; tools/provision.sh does it when run as root or with sudo)");
        return null;
    }
}
