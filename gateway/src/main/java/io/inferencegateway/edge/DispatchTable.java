package io.inferencegateway.edge;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import io.inferencegateway.domain.GatewayError;
import io.inferencegateway.request.IngressRoute;
import io.inferencegateway.request.IngressRoute.AuthRule;

/**
 * The ingress's dispatch table: which route serves a request's path and method, and what that route is
 * ({@link IngressRoute}). Text, one line per path and method (declared in routes/gateway-beans.camel.yaml, so that a
 * path is added there without a build):
 *
 * <pre>
 * METHOD /path route-id [auth=required|none|metrics|ui|cluster] [drain=refuse|answer] [operation=NAME] [streamUsage=false|true]
 * </pre>
 *
 * {@code auth}: whether a caller needs credentials while {@code spec.auth} is on (always, never, or as
 * {@code protectMetrics} / {@code protectUi} say; {@code cluster}: the cluster token of {@code spec.cluster.tokenFile}
 * when one is set, else as {@code protectMetrics}); {@code drain=answer}: still answered while the gateway drains;
 * {@code operation}: the GenAI operation name of the route's traces; {@code streamUsage=true}: a pool's
 * {@code streamUsage} applies. A {@code {name}} segment matches any one non-empty segment, and a last
 * {@code {name...}} segment the rest of the path (a model id such as {@code meta-llama/Llama-3.1-8B-Instruct} holds a
 * slash); either is handed to the route as a parameter of that name. Exact paths are one map lookup.
 */
public final class DispatchTable {

    private static final Pattern METHOD = Pattern.compile("[A-Z]+");
    private static final Pattern ROUTE = Pattern.compile("[a-z0-9][a-z0-9-]*");
    private static final Pattern PATH = Pattern.compile(
            "(/([^/{}\\s]+|\\{[A-Za-z][A-Za-z0-9]*\\}))*(/([^/{}\\s]+|\\{[A-Za-z][A-Za-z0-9]*(\\.\\.\\.)?\\}))");
    private static final Pattern OPERATION = Pattern.compile("[a-z][a-z0-9_]*");

    /**
     * The route a request goes to, with the values of the path's {@code {name}} segments.
     *
     * @param names  the names of those segments, or null when the path has none
     * @param values their values, in the same order
     */
    public record Match(IngressRoute route, String[] names, String[] values) {
    }

    /** One path of the table: its segments ({@code names[i]} non-null for a {@code {name}} one) and its routes. */
    private static final class PathRoutes {
        final String[] segments;
        final String[] names;
        final Map<String, Match> byMethod = new LinkedHashMap<>();
        /** The last segment is a {@code {name...}} one. */
        final boolean rest;
        String allow;

        PathRoutes(String path) {
            segments = path.substring(1).split("/");
            rest = path.endsWith("...}");
            String[] n = new String[segments.length];
            boolean any = false;
            for (int i = 0; i < segments.length; i++) {
                if (segments[i].startsWith("{")) {
                    n[i] = segments[i].substring(1, segments[i].length() - (rest && i == segments.length - 1 ? 4 : 1));
                    any = true;
                }
            }
            names = any ? n : null;
        }
    }

    private final Map<String, PathRoutes> exact = new HashMap<>();
    private final List<PathRoutes> templates = new ArrayList<>();
    private final Set<String> routeIds = new LinkedHashSet<>();

    /** @param table lines of {@code METHOD /path route-id [option...]}; blank lines and lines starting with # skipped */
    public DispatchTable(String table) {
        Map<String, PathRoutes> byPath = new LinkedHashMap<>();
        String[] lines = table.split("\n");
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split("\\s+");
            if (parts.length < 3 || !METHOD.matcher(parts[0]).matches() || !PATH.matcher(parts[1]).matches()
                    || !ROUTE.matcher(parts[2]).matches()) {
                throw invalid(n, line, "expected METHOD /path route-id [option...], a {name} segment standing alone, "
                        + "a {name...} one last");
            }
            IngressRoute route = route(n, line, parts);
            PathRoutes routes = byPath.computeIfAbsent(parts[1], PathRoutes::new);
            if (routes.byMethod.putIfAbsent(parts[0], new Match(route, routes.names, null)) != null) {
                throw invalid(n, line, parts[0] + " " + parts[1] + " is already in the table");
            }
            routeIds.add(route.id());
        }
        if (byPath.isEmpty()) {
            throw new IllegalArgumentException("the dispatch table is empty");
        }
        byPath.forEach((path, routes) -> {
            routes.allow = String.join(", ", new TreeSet<>(routes.byMethod.keySet()));
            if (routes.names != null) {
                templates.add(routes);
            } else {
                exact.put(path, routes);
            }
        });
    }

    /** The line's route and its options. */
    private static IngressRoute route(int n, String line, String[] parts) {
        AuthRule auth = AuthRule.REQUIRED;
        boolean answeredWhileDraining = false;
        String operation = null;
        boolean streamUsage = false;
        Set<String> seen = new LinkedHashSet<>();
        for (int i = 3; i < parts.length; i++) {
            int eq = parts[i].indexOf('=');
            String key = eq < 0 ? parts[i] : parts[i].substring(0, eq);
            String value = eq < 0 ? "" : parts[i].substring(eq + 1);
            if (!seen.add(key)) {
                throw invalid(n, line, "option " + key + " is given twice");
            }
            switch (key) {
                case "auth" -> auth = switch (value) {
                    case "required" -> AuthRule.REQUIRED;
                    case "none" -> AuthRule.NONE;
                    case "metrics" -> AuthRule.METRICS;
                    case "ui" -> AuthRule.UI;
                    case "cluster" -> AuthRule.CLUSTER;
                    default -> throw invalid(n, line, "auth must be required, none, metrics, ui or cluster, got '"
                            + value + "'");
                };
                case "drain" -> answeredWhileDraining = switch (value) {
                    case "refuse" -> false;
                    case "answer" -> true;
                    default -> throw invalid(n, line, "drain must be refuse or answer, got '" + value + "'");
                };
                case "operation" -> {
                    if (!OPERATION.matcher(value).matches()) {
                        throw invalid(n, line, "operation must be a name such as chat, got '" + value + "'");
                    }
                    operation = value;
                }
                case "streamUsage" -> streamUsage = switch (value) {
                    case "false" -> false;
                    case "true" -> true;
                    default -> throw invalid(n, line, "streamUsage must be true or false, got '" + value + "'");
                };
                default -> throw invalid(n, line, "unknown option '" + parts[i]
                        + "' (auth=, drain=, operation=, streamUsage=)");
            }
        }
        return new IngressRoute(parts[2], auth, answeredWhileDraining, operation, streamUsage);
    }

    /** The ids of the routes the table names, in the order of their first line. */
    public Set<String> routeIds() {
        return routeIds;
    }

    /**
     * The route that serves {@code method} on {@code path}.
     *
     * @throws GatewayError 404 {@code unknown_url} for a path not in the table, 405 {@code method_not_allowed} (with
     *                      {@code Allow}) for a path in it with another method
     */
    public Match dispatch(String method, String path) {
        PathRoutes routes = exact.get(path);
        String[] values = null;
        if (routes == null) {
            for (PathRoutes template : templates) {
                values = match(template, path);
                if (values != null) {
                    routes = template;
                    break;
                }
            }
        }
        if (routes == null) {
            throw GatewayError.unknownUrl(method, path);
        }
        Match match = routes.byMethod.get(method);
        if (match == null) {
            throw GatewayError.methodNotAllowed(method, path, routes.allow);
        }
        return values == null ? match : new Match(match.route(), routes.names, values);
    }

    /** Per segment of the template, the value a {@code {name}} segment matched; null when the path does not match. */
    private static String[] match(PathRoutes template, String path) {
        String[] segments = template.segments;
        String[] values = new String[segments.length];
        int at = 0;
        for (int i = 0; i < segments.length; i++) {
            if (at >= path.length() || path.charAt(at) != '/') {
                return null;
            }
            int end = path.indexOf('/', at + 1);
            if (end < 0) {
                end = path.length();
            }
            String segment = segments[i];
            if (template.rest && i == segments.length - 1) {
                if (at + 1 == path.length()) {
                    return null; // nothing left for the rest
                }
                values[i] = path.substring(at + 1);
                return values;
            }
            if (template.names[i] != null) {
                if (end == at + 1) {
                    return null; // an empty segment
                }
                values[i] = path.substring(at + 1, end);
            } else if (end - at - 1 != segment.length() || !path.startsWith(segment, at + 1)) {
                return null;
            }
            at = end;
        }
        return at == path.length() ? values : null;
    }

    private static IllegalArgumentException invalid(int index, String line, String why) {
        return new IllegalArgumentException("dispatch table line " + (index + 1) + " '" + line + "': " + why);
    }
}
