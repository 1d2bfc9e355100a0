package io.inferencegateway.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/**
 * The steps of the YAML routes in {@code routes/}, in the order a request runs them, read from the files themselves so
 * that docs which list them can be checked against them. A step is what the route does and what it calls: its EIP
 * (process, choice, toD, …), its node id if it has one, and the bean it calls by reference if any (a processor's
 * {@code ref}, a {@code language:ref:} recipient, a choice's first {@code ref} predicate).
 */
public final class RouteSteps {

    /** Where the routes are read from. */
    public static final Path ROUTES = ProjectFiles.of("routes");
    /** The ingress every HTTP request enters by. */
    public static final String INGRESS = "openai-ingress";
    /** The bean that dispatches the ingress's requests by path and method, and whose table names the routes. */
    public static final String DISPATCH_BEAN = "pathDispatch";

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final String LANGUAGE_REF = "language:ref:";

    /**
     * One step of a route.
     *
     * @param route the id of the route it is in
     * @param kind its EIP as the YAML names it ({@code process}, {@code choice}, {@code toD}, …)
     * @param id its node id, or null
     * @param ref the bean it calls, or null
     */
    public record Step(String route, String kind, String id, String ref) {

        /** How a failure message names the step: its id, else its kind and bean. */
        public String name() {
            return id != null ? id : ref != null ? kind + " " + ref : kind;
        }
    }

    private RouteSteps() {
    }

    /**
     * The steps of one route, nested ones in place (a choice's branches, a doTry's steps, then its doCatch's), in the
     * order they stand in its file.
     */
    public static List<Step> of(String routeId) {
        JsonNode route = routes().get(routeId);
        if (route == null) {
            throw new IllegalArgumentException("no route with id " + routeId + " in " + ROUTES);
        }
        List<Step> steps = new ArrayList<>();
        walk(routeId, route.path("from"), steps);
        return steps;
    }

    /**
     * The steps a chat request ({@code POST /v1/chat/completions}) runs, in order: the ingress's, with the steps of the
     * route its dispatch table names for that path in place of the step that dispatches to it.
     */
    public static List<Step> chatRequest() {
        String dispatched = dispatchedRoute("POST", "/v1/chat/completions");
        List<Step> steps = new ArrayList<>();
        for (Step step : of(INGRESS)) {
            steps.add(step);
            if (step.kind().equals("toD") && DISPATCH_BEAN.equals(step.ref())) {
                steps.addAll(of(dispatched));
            }
        }
        return steps;
    }

    /** The route the dispatch table sends a method and path to. */
    public static String dispatchedRoute(String method, String path) {
        String table = beans().get(DISPATCH_BEAN).at("/constructors/0").asText();
        return table.lines().map(String::strip).map(line -> line.split("\\s+"))
                .filter(line -> line.length >= 3 && line[0].equals(method) && line[1].equals(path))
                .map(line -> line[2])
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("the dispatch table has no " + method + " " + path));
    }

    /** The class each bean of the routes' {@code beans} lists is, by bean name (a fully qualified class name). */
    public static Map<String, String> beanTypes() {
        Map<String, String> types = new LinkedHashMap<>();
        beans().forEach((name, bean) -> types.put(name, bean.path("type").asText()));
        return types;
    }

    private static void walk(String route, JsonNode node, List<Step> steps) {
        if (node.isArray()) {
            node.forEach(child -> walk(route, child, steps));
        } else if (node.isObject()) {
            node.fields().forEachRemaining(field -> {
                if (field.getKey().equals("steps") && field.getValue().isArray()) {
                    field.getValue().forEach(step -> step(route, step, steps));
                } else {
                    walk(route, field.getValue(), steps);
                }
            });
        }
    }

    private static void step(String route, JsonNode step, List<Step> steps) {
        step.fields().forEachRemaining(eip -> {
            JsonNode body = eip.getValue();
            String id = body.path("id").isTextual() ? body.get("id").asText() : null;
            steps.add(new Step(route, eip.getKey(), id, ref(eip.getKey(), body)));
            walk(route, body, steps);
        });
    }

    private static String ref(String kind, JsonNode body) {
        if (kind.equals("choice")) {
            for (JsonNode when : body.path("when")) {
                if (when.path("ref").isTextual()) {
                    return when.get("ref").asText();
                }
            }
            return null;
        }
        if (body.path("ref").isTextual()) {
            return body.get("ref").asText();
        }
        String uri = body.isTextual() ? body.asText() : body.path("uri").asText();
        return uri.startsWith(LANGUAGE_REF) ? uri.substring(LANGUAGE_REF.length()) : null;
    }

    private static Map<String, JsonNode> routes() {
        Map<String, JsonNode> routes = new LinkedHashMap<>();
        for (JsonNode entry : entries()) {
            JsonNode route = entry.path("route");
            if (route.path("id").isTextual()) {
                routes.put(route.get("id").asText(), route);
            }
        }
        return routes;
    }

    private static Map<String, JsonNode> beans() {
        Map<String, JsonNode> beans = new LinkedHashMap<>();
        for (JsonNode entry : entries()) {
            for (JsonNode bean : entry.path("beans")) {
                beans.put(bean.path("name").asText(), bean);
            }
        }
        return beans;
    }

    private static List<JsonNode> entries() {
        try (Stream<Path> files = Files.list(ROUTES)) {
            List<JsonNode> entries = new ArrayList<>();
            for (Path file : files.filter(f -> f.toString().endsWith(".camel.yaml")).sorted().toList()) {
                YAML.readTree(file.toFile()).forEach(entries::add);
            }
            return entries;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
