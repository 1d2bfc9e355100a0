package io.inferencegateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/** The simulator is the referee: it must not see any gateway code. */
class SimulatorBoundaryTest {

    private static final Pattern PROJECT_REF = Pattern.compile("io\\.inferencegateway\\.(\\w+)");

    @Test
    void simulatorSourcesReferenceNoOtherProjectPackage() throws IOException {
        Path dir = Path.of("src/main/java/io/inferencegateway/simulator");
        assertThat(dir).isDirectory();
        List<String> violations = new ArrayList<>();
        int files = 0;
        try (Stream<Path> sources = Files.walk(dir)) {
            for (Path p : sources.filter(f -> f.toString().endsWith(".java")).toList()) {
                files++;
                String text = Files.readString(p);
                Matcher m = PROJECT_REF.matcher(text);
                while (m.find()) {
                    if (!m.group(1).equals("simulator")) {
                        violations.add(p.getFileName() + ": " + m.group());
                    }
                }
            }
        }
        assertThat(files).isGreaterThan(10);
        assertThat(violations).isEmpty();
    }
}
