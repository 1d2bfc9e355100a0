package io.inferencegateway.monitoring;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression reads, found without a full parser: string literals, label matchers, range
 * and subquery brackets, grouping clauses and Grafana variables are cut out first; what remains that looks like an
 * identifier and is neither a function or aggregation (followed by an opening parenthesis) nor a keyword is a metric
 * name.
 */
final class PromQl {

    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`");
    private static final Pattern GRAFANA_VARIABLE = Pattern.compile("\\$\\{[^}]*}|\\$\\w+");
    private static final Pattern LABEL_MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern BRACKETS = Pattern.compile("\\[[^]]*]");
    private static final Pattern GROUPING = Pattern.compile(
            "\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    /** An identifier not glued to a number (1e3, 5m) or a variable. */
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w.:$])[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "by", "without", "on",
            "ignoring", "group_left", "group_right", "inf", "nan", "start", "end");
    private static final Pattern SELECTOR = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*\\{([^}]*)}");
    private static final Pattern MATCHER = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(?:=~|!~|!=|=)");
    private static final Pattern GROUPING_LABELS = Pattern.compile(
            "\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\(([^)]*)\\)");
    private static final Pattern LABEL_VALUES = Pattern.compile("^\\s*label_values\\s*\\((.*),\\s*\\w+\\s*\\)\\s*$");

    private PromQl() {
    }

    static Set<String> metricNames(String expr) {
        String s = STRING.matcher(expr).replaceAll("\"\"");
        s = GRAFANA_VARIABLE.matcher(s).replaceAll("0");
        s = LABEL_MATCHERS.matcher(s).replaceAll(" ");
        s = BRACKETS.matcher(s).replaceAll(" ");
        s = GROUPING.matcher(s).replaceAll(" ");
        Set<String> names = new LinkedHashSet<>();
        Matcher m = IDENTIFIER.matcher(s);
        while (m.find()) {
            String name = m.group();
            boolean call = s.substring(m.end()).stripLeading().startsWith("(");
            if (!call && !KEYWORDS.contains(name.toLowerCase())) {
                names.add(name);
            }
        }
        return names;
    }

    /** The label names each selector of the expression matches on, by metric name. */
    static Map<String, Set<String>> matcherLabels(String expr) {
        String s = STRING.matcher(expr).replaceAll("\"\"");
        Map<String, Set<String>> labels = new LinkedHashMap<>();
        Matcher selector = SELECTOR.matcher(s);
        while (selector.find()) {
            Set<String> names = labels.computeIfAbsent(selector.group(1), k -> new LinkedHashSet<>());
            Matcher matcher = MATCHER.matcher(selector.group(2));
            while (matcher.find()) {
                names.add(matcher.group(1));
            }
        }
        return labels;
    }

    /** The label names of the expression's grouping clauses ({@code by}, {@code on}, …). */
    static Set<String> groupingLabels(String expr) {
        String s = STRING.matcher(expr).replaceAll("\"\"");
        Set<String> labels = new LinkedHashSet<>();
        Matcher m = GROUPING_LABELS.matcher(s);
        while (m.find()) {
            for (String label : m.group(1).split(",")) {
                if (!label.isBlank()) {
                    labels.add(label.strip());
                }
            }
        }
        return labels;
    }

    /** A Grafana variable query, {@code label_values(selector, label)}: the selector's metric names. */
    static Set<String> variableQueryMetricNames(String query) {
        Matcher m = LABEL_VALUES.matcher(query);
        return m.matches() ? metricNames(m.group(1)) : metricNames(query);
    }
}
