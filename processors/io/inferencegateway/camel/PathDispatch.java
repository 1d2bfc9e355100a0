package io.inferencegateway.camel;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;

import io.inferencegateway.domain.GatewayError;
import org.apache.camel.CamelContext;
import org.apache.camel.Endpoint;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.Processor;
import org.apache.camel.support.service.ServiceHelper;

/**
 * The ingress's one dispatch point (routes/openai-ingress.camel.yaml): the request's path and method name the route
 * that serves it, left in the {@code gatewayRoute} property, and that route's {@code direct:} endpoint in
 * {@code gatewayRouteEndpoint} for the ingress's dynamic to (resolved once per route, so that Camel does not
 * resolve a URI per request); a path not in the table is a 404 {@code unknown_url}, a path in it with another method
 * a 405 {@code method_not_allowed} with {@code Allow}.
 *
 * <p>The table is text, one line per path and method, {@code METHOD /path route-id} (declared in
 * routes/gateway-beans.camel.yaml, so a path is added there without a build). A {@code {name}} segment matches any
 * one non-empty segment, and a last {@code {name...}} segment the rest of the path (a model id such as
 * {@code meta-llama/Llama-3.1-8B-Instruct} holds a slash); either reaches the route as the header {@code name}.
 * Exact paths are one map lookup.
 */
public final class PathDispatch implements Processor {

    private static final Pattern METHOD = Pattern.compile("[A-Z]+");
    private static final Pattern ROUTE = Pattern.compile("[a-z0-9][a-z0-9-]*");
    private static final Pattern PATH = Pattern.compile(
            "(/([^/{}\\s]+|\\{[A-Za-z][A-Za-z0-9]*\\}))*(/([^/{}\\s]+|\\{[A-Za-z][A-Za-z0-9]*(\\.\\.\\.)?\\}))");

    /** One path of the table: its segments ({@code names[i]} non-null for a {@code {name}} one) and its routes by method. */
    private static final class PathRoutes {
        final String[] segments;
        final String[] names;
        final Map<String, Target> byMethod = new LinkedHashMap<>();
        /** The last segment is a {@code {name...}} one. */
        final boolean rest;
        String allow;

        PathRoutes(String path) {
            segments = path.substring(1).split("/");
            names = new String[segments.length];
            rest = path.endsWith("...}");
            for (int i = 0; i < segments.length; i++) {
                if (segments[i].startsWith("{")) {
                    names[i] = segments[i].substring(1, segments[i].length() - (rest && i == segments.length - 1 ? 4 : 1));
                }
            }
        }
    }

    /** A route of the table and its {@code direct:} endpoint, resolved on first use (again should Camel stop it). */
    private static final class Target {
        final String route;
        volatile Endpoint endpoint;

        Target(String route) {
            this.route = route;
        }

        Endpoint endpoint(CamelContext camel) {
            Endpoint e = endpoint;
            if (e == null || ServiceHelper.isStopped(e)) {
                e = camel.getEndpoint("direct:" + route);
                endpoint = e;
            }
            return e;
        }
    }

    private final Map<String, PathRoutes> exact = new HashMap<>();
    private final List<PathRoutes> templates = new ArrayList<>();

    /** @param table lines of {@code METHOD /path route-id}; blank lines and lines starting with # are skipped */
    public PathDispatch(String table) {
        Map<String, PathRoutes> byPath = new LinkedHashMap<>();
        String[] lines = table.split("\n");
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split("\\s+");
            if (parts.length != 3 || !METHOD.matcher(parts[0]).matches() || !PATH.matcher(parts[1]).matches()
                    || !ROUTE.matcher(parts[2]).matches()) {
                throw invalid(n, line, "expected METHOD /path route-id, a {name} segment standing alone, "
                        + "a {name...} one last");
            }
            PathRoutes routes = byPath.computeIfAbsent(parts[1], PathRoutes::new);
            if (routes.byMethod.putIfAbsent(parts[0], new Target(parts[2])) != null) {
                throw invalid(n, line, parts[0] + " " + parts[1] + " is already in the table");
            }
        }
        if (byPath.isEmpty()) {
            throw new IllegalArgumentException("the dispatch table is empty");
        }
        byPath.forEach((path, routes) -> {
            routes.allow = String.join(", ", new TreeSet<>(routes.byMethod.keySet()));
            if (path.contains("{")) {
                templates.add(routes);
            } else {
                exact.put(path, routes);
            }
        });
    }

    @Override
    public void process(Exchange exchange) {
        Message message = exchange.getMessage();
        String path = message.getHeader(Exchange.HTTP_PATH, "", String.class);
        String method = message.getHeader(Exchange.HTTP_METHOD, String.class);
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
        Target target = routes.byMethod.get(method);
        if (target == null) {
            message.setHeader("Allow", routes.allow);
            throw GatewayError.methodNotAllowed(method, path);
        }
        for (int i = 0; values != null && i < values.length; i++) {
            if (routes.names[i] != null) {
                message.setHeader(routes.names[i], values[i]);
            }
        }
        exchange.setProperty(GatewayExchange.ROUTE, target.route);
        exchange.setProperty(GatewayExchange.ROUTE_ENDPOINT, target.endpoint(exchange.getContext()));
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
