package io.inferencegateway.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.inferencegateway.domain.GatewayError;
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

    /** The error-rate alert leaves out the codes of the client's own failures; each must be a code the meters use. */
    @Test
    void theErrorCodesTheErrorRateAlertLeavesOutExist() throws Exception {
        String expr = MonitoringFiles.alertQueries().stream()
                .filter(q -> q.where().equals("rule InferenceGatewayHighErrorRate")).findFirst().orElseThrow().expr();
        Matcher m = Pattern.compile("error_code!~\"([^\"]+)\"").matcher(expr);
        assertThat(m.find()).as(expr).isTrue();
        // RequestMeters.errorCode: a GatewayError.Reason in lower case, or one of the endings' and statuses' codes
        Set<String> codes = new HashSet<>(List.of("upstream_broken", "client_closed", "upstream_5xx", "upstream_4xx"));
        for (GatewayError.Reason r : GatewayError.Reason.values()) {
            codes.add(r.name().toLowerCase(Locale.ROOT));
        }
        assertThat(List.of(m.group(1).split("\\|"))).isSubsetOf(codes);
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
