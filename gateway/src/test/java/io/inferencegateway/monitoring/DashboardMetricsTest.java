package io.inferencegateway.monitoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Every metric the Grafana dashboard and the alert rules (monitoring/) query is one the gateway exports: a real
 * gateway over simulated pods serves streamed and plain chats, prefix-sharing requests, a request with latency
 * targets and requests that fail, a global tier in front of it serves requests on that cluster and on a provider,
 * and each name in the PromQL must then be a series in the two gateways' {@code GET /metrics} (a {@code _bucket},
 * {@code _sum} or {@code _count} only of a histogram) carrying every label the expression matches or groups on.
 */
class DashboardMetricsTest {

    static ObservedFleet observed;

    @BeforeAll
    static void driveTraffic() throws Exception {
        observed = ObservedFleet.start(1.0);
        observed.mixedTraffic(9, "consistency");
        assertThat(observed.chatToTheDeadPool()).isEqualTo(502);
        assertThat(observed.chatWithTargets("judged against its latency targets")).isEqualTo(200);
        observed.awaitEveryPodScraped();
        observed.joinARollout();
        observed.startGlobalTier();
        for (int i = 0; i < 3; i++) {
            assertThat(observed.chatThroughTheTier(ObservedFleet.MODEL)).as("served by the home cluster").isEqualTo(200);
        }
        assertThat(observed.chatThroughTheTier(ObservedFleet.OVERFLOW_MODEL)).as("spilled to the provider")
                .isEqualTo(200);
        // a pod whose metrics go stale is filtered out of the picks, which the filter counter records
        observed.fleet.pod(1).failMetrics();
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(300)).until(() -> {
            observed.chat("while pod 1 is stale");
            return observed.gatewayMetrics().contains("inference_gateway_scheduler_filtered_total");
        });
    }

    @AfterAll
    static void stop() throws Exception {
        if (observed != null) {
            observed.close();
        }
    }

    @Test
    void everyMetricTheDashboardAndTheAlertsQueryIsExported() throws Exception {
        List<MonitoringFiles.Query> queries = MonitoringFiles.allQueries();
        // a request is counted when it ends, which may be just after the client has its last byte
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertExported(queries,
                        Exposition.parse(observed.gatewayMetrics() + observed.tierMetrics())));
    }

    private static void assertExported(List<MonitoringFiles.Query> queries, Exposition exposition) {
        Map<String, String> unknown = new LinkedHashMap<>();
        for (MonitoringFiles.Query q : queries) {
            Set<String> names = q.grafanaVariable() ? PromQl.variableQueryMetricNames(q.expr())
                    : PromQl.metricNames(q.expr());
            assertThat(names).as("metrics in %s: %s", q.where(), q.expr()).isNotEmpty();
            Set<String> labelsOfAll = new HashSet<>();
            boolean allExported = true;
            for (String name : names) {
                String problem = exposition.problemWith(name);
                if (problem != null) {
                    unknown.merge(name, q.where() + " (" + problem + ")", (a, b) -> a + "; " + b);
                    allExported = false;
                    continue;
                }
                Set<String> labels = exposition.labelNames(name);
                labelsOfAll.addAll(labels);
                for (String label : PromQl.matcherLabels(q.expr()).getOrDefault(name, Set.of())) {
                    if (!labels.contains(label)) {
                        unknown.merge(name + "{" + label + "}", q.where() + " (no such label; it has " + labels + ")",
                                (a, b) -> a + "; " + b);
                    }
                }
            }
            if (allExported) {
                for (String label : PromQl.groupingLabels(q.expr())) {
                    if (!labelsOfAll.contains(label)) {
                        unknown.merge("by (" + label + ") over " + String.join(", ", names),
                                q.where() + " (no metric of the expression has it)", (a, b) -> a + "; " + b);
                    }
                }
            }
        }
        assertThat(unknown).as("metrics and labels the monitoring files use that GET /metrics does not export")
                .isEmpty();
    }

    @Test
    void everyPanelUsesTheDatasourceVariableAndFiltersByPool() throws Exception {
        JsonNode d = MonitoringFiles.dashboard();
        Set<String> variables = new HashSet<>();
        d.path("templating").path("list").forEach(v -> variables.add(v.path("name").asText()));
        assertThat(variables).contains("datasource", "pool");
        Set<Integer> ids = new HashSet<>();
        for (JsonNode p : MonitoringFiles.panels(d)) {
            assertThat(ids.add(p.path("id").asInt())).as("panel id %s is unique", p.path("id")).isTrue();
            if ("row".equals(p.path("type").asText())) {
                continue;
            }
            String title = p.path("title").asText();
            assertThat(p.path("datasource").path("uid").asText()).as(title).isEqualTo("${datasource}");
            assertThat(p.path("targets")).as(title).isNotEmpty();
            for (JsonNode t : p.path("targets")) {
                assertThat(t.path("datasource").path("uid").asText()).as(title).isEqualTo("${datasource}");
                assertThat(t.path("expr").asText()).as(title).contains("$pool");
            }
        }
    }
}
