package io.inferencegateway.monitoring;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.inferencegateway.testing.ProjectFiles;

/** The PromQL in monitoring/: the Grafana dashboard's queries and the alert rules' expressions. */
final class MonitoringFiles {

    static final Path DIR = ProjectFiles.of("monitoring");
    static final Path DASHBOARD = DIR.resolve("grafana-dashboard.json");
    static final Path ALERT_RULES = DIR.resolve("alert-rules.yaml");
    static final Path ALERT_RULES_TEST = DIR.resolve("alert-rules-test.yaml");

    /** One PromQL expression and where it is: a panel's title and refId, a variable's name, an alert's name. */
    record Query(String where, String expr, boolean grafanaVariable) {
    }

    private MonitoringFiles() {
    }

    static JsonNode dashboard() throws IOException {
        return new ObjectMapper().readTree(DASHBOARD.toFile());
    }

    static JsonNode alertRules() throws IOException {
        return new ObjectMapper(new YAMLFactory()).readTree(ALERT_RULES.toFile());
    }

    /** Every panel in the dashboard, those inside collapsed rows too. */
    static List<JsonNode> panels(JsonNode dashboard) {
        List<JsonNode> all = new ArrayList<>();
        for (JsonNode p : dashboard.path("panels")) {
            all.add(p);
            p.path("panels").forEach(all::add);
        }
        return all;
    }

    static List<Query> dashboardQueries() throws IOException {
        JsonNode d = dashboard();
        List<Query> queries = new ArrayList<>();
        for (JsonNode p : panels(d)) {
            for (JsonNode t : p.path("targets")) {
                queries.add(new Query("panel '" + p.path("title").asText() + "' " + t.path("refId").asText(),
                        t.path("expr").asText(), false));
            }
        }
        for (JsonNode v : d.path("templating").path("list")) {
            if ("query".equals(v.path("type").asText())) {
                JsonNode q = v.path("query");
                queries.add(new Query("variable " + v.path("name").asText(),
                        q.isObject() ? q.path("query").asText() : q.asText(), true));
            }
        }
        return queries;
    }

    static List<Query> alertQueries() throws IOException {
        List<Query> queries = new ArrayList<>();
        for (JsonNode g : alertRules().path("groups")) {
            for (JsonNode r : g.path("rules")) {
                String name = r.has("alert") ? r.path("alert").asText() : r.path("record").asText();
                queries.add(new Query("rule " + name, r.path("expr").asText(), false));
            }
        }
        return queries;
    }

    static List<Query> allQueries() throws IOException {
        List<Query> all = new ArrayList<>(dashboardQueries());
        all.addAll(alertQueries());
        return all;
    }
}
