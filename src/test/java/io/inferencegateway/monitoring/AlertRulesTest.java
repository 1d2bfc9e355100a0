package io.inferencegateway.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.inferencegateway.testing.DebianProgram;

/**
 * The alert rules (monitoring/alert-rules.yaml) pass Prometheus' own checker and their unit tests
 * (monitoring/alert-rules-test.yaml), both run by the real promtool.
 */
class AlertRulesTest {

    @Test
    void promtoolAcceptsTheRules() throws Exception {
        Run r = promtool("check", "rules", MonitoringFiles.ALERT_RULES.toString());
        assertThat(r.exit()).as(r.output()).isZero();
        assertThat(r.output()).contains("SUCCESS");
    }

    @Test
    void theRulesUnitTestsPass() throws Exception {
        Run r = promtool("test", "rules", MonitoringFiles.ALERT_RULES_TEST.toString());
        assertThat(r.exit()).as(r.output()).isZero();
        assertThat(r.output()).contains("SUCCESS");
    }

    @Test
    void everyAlertHasASeveritySummaryAndDescription() throws Exception {
        Set<String> severities = Set.of("warning", "critical");
        int alerts = 0;
        for (JsonNode g : MonitoringFiles.alertRules().path("groups")) {
            for (JsonNode rule : g.path("rules")) {
                String name = rule.path("alert").asText();
                assertThat(name).as("a rule in %s", g.path("name")).isNotEmpty();
                assertThat(rule.path("labels").path("severity").asText()).as(name).isIn(severities);
                assertThat(rule.path("annotations").path("summary").asText()).as(name).isNotBlank();
                assertThat(rule.path("annotations").path("description").asText()).as(name).isNotBlank();
                alerts++;
            }
        }
        assertThat(alerts).isGreaterThanOrEqualTo(5);
    }

    record Run(int exit, String output) {
    }

    static Run promtool(String... args) throws Exception {
        String[] command = new String[args.length + 1];
        command[0] = DebianProgram.find("promtool", "prometheus");
        System.arraycopy(args, 0, command, 1, args.length);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("promtool did not finish: " + out);
        }
        return new Run(p.exitValue(), out);
    }
}
