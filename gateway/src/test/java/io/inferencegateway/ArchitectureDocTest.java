package io.inferencegateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;

import io.inferencegateway.testing.MarkdownTable;
import io.inferencegateway.testing.ProjectFiles;
import io.inferencegateway.testing.RouteSteps;
import io.inferencegateway.testing.RouteSteps.Step;

/**
 * docs/architecture.md's two tables say what the code does, so they are checked against it as the CRD is against the
 * config records: the package arrows against the dependencies of the compiled classes, the chat request's steps
 * against the YAML routes and the classes their beans are. A failure names the row to change and how.
 */
class ArchitectureDocTest {

    static final Path DOC = ProjectFiles.of("docs", "architecture.md");
    static final String ARROWS = "Each package's arrows, as the code has them";
    static final String STEPS = "## A chat request, step by step";
    static final String PROJECT = "io.inferencegateway.";

    /**
     * The arrows table, both ways: a row per package, and a package's arrows are the other top-level packages its
     * classes depend on (subpackages count as their top-level package). Its {@code uses} column names them in code
     * spans, or says "nothing of the project".
     */
    @Test
    void theArrowsTableHasEveryArrowTheCodeHasAndNoOther() throws IOException {
        Map<String, Map<String, Dependency>> code = arrows(ArchitectureTest.GATEWAY);
        List<String> problems = new ArrayList<>();
        Set<String> rows = new HashSet<>();
        for (MarkdownTable.Row row : MarkdownTable.below(Files.readString(DOC), ARROWS).rows()) {
            String at = "docs/architecture.md:" + row.line() + ", the row of `" + strip(row.cell(0)) + "`";
            String pkg = strip(row.cell(0));
            if (!code.containsKey(pkg)) {
                problems.add(at + ": no package io.inferencegateway." + pkg + " has classes; remove the row");
                continue;
            }
            if (!rows.add(pkg)) {
                problems.add(at + ": a second row for the package; merge the two");
            }
            Map<String, Dependency> has = code.get(pkg);
            Set<String> says = uses(row.cell(1));
            if (says == null) {
                problems.add(at + ": write the packages it uses in code spans (`pool`, `domain`), or \"nothing of the "
                        + "project\"");
                continue;
            }
            for (String used : says) {
                if (!has.containsKey(used)) {
                    problems.add(at + ": says it uses `" + used + "`, which no class of it does; remove `" + used
                            + "` from its uses");
                }
            }
            for (Map.Entry<String, Dependency> used : has.entrySet()) {
                if (!says.contains(used.getKey())) {
                    problems.add(at + ": lacks `" + used.getKey() + "`; add it to its uses (for one: "
                            + used.getValue().getDescription() + ")");
                }
            }
        }
        for (Map.Entry<String, Map<String, Dependency>> pkg : code.entrySet()) {
            if (!rows.contains(pkg.getKey())) {
                problems.add("docs/architecture.md, the arrows table: no row for `" + pkg.getKey() + "`; add | `"
                        + pkg.getKey() + "` | " + pkg.getValue().keySet().stream().map(p -> "`" + p + "`")
                        .collect(Collectors.joining(", ")) + " | (and its place in the drawing above)");
            }
        }
        assertThat(problems).as("the arrows table of docs/architecture.md against the compiled classes").isEmpty();
    }

    /**
     * The step table, against routes/openai-ingress.camel.yaml and the route its dispatch table names for chat
     * (routes/inference.camel.yaml). A step with a node id is the row that names that id first in code; a step without
     * one that calls a bean is the next row, not an id's, whose "where" is that bean's class. Rows stand in the order
     * the request runs the steps; a step id row's "where" is the class of the bean the step calls
     * (routes/gateway-beans.camel.yaml); a row in code names a step; every "where" ({@code Class} or
     * {@code Class.method}) is a class of the gateway. Rows in plain words that no step matches say what happens
     * around the routes (the binding, the upstream producer, the end).
     */
    @Test
    void theStepTableHasEveryStepOfTheChatRequestInTheOrderTheRoutesRunThem() throws IOException {
        List<Step> steps = RouteSteps.chatRequest().stream().filter(s -> s.id() != null || s.ref() != null).toList();
        Set<String> ids = steps.stream().map(Step::id).filter(id -> id != null).collect(Collectors.toSet());
        Map<String, String> beans = RouteSteps.beanTypes();
        List<MarkdownTable.Row> rows = MarkdownTable.below(Files.readString(DOC), STEPS).rows();
        List<String> problems = new ArrayList<>();

        boolean[] matched = new boolean[rows.size()];
        int last = -1;
        String previous = null;
        for (Step step : steps) {
            String bean = step.ref() == null ? null : simpleName(beans.get(step.ref()));
            if (step.ref() != null && bean == null) {
                problems.add("routes: step " + step.name() + " of " + step.route() + " calls bean " + step.ref()
                        + ", which no beans list declares");
            }
            int found = find(rows, step, bean, ids, last + 1, matched);
            if (found < 0) {
                int earlier = find(rows, step, bean, ids, 0, matched);
                if (earlier >= 0) {
                    problems.add(at(rows.get(earlier)) + " comes before the row of " + previous + ", but the route "
                            + step.route() + " runs " + step.name() + " after it; move the row below it");
                    matched[earlier] = true;
                } else {
                    problems.add("docs/architecture.md, the step table: no row for step " + step.name() + " of route "
                            + step.route() + "; add | " + (step.id() != null ? "`" + step.id() + "`" : "(its words)")
                            + " | `" + (bean == null ? "?" : bean) + "` | (what it does) | "
                            + (previous == null ? "at the top" : "below the row of " + previous));
                }
                continue;
            }
            matched[found] = true;
            last = found;
            previous = step.name();
            MarkdownTable.Row row = rows.get(found);
            if (step.id() != null && bean != null && !bean.equals(whereClass(row))) {
                problems.add(at(row) + ": its where says `" + whereClass(row) + "`, but the step calls bean "
                        + step.ref() + ", a " + bean + "; write `" + bean + "`");
            }
        }
        for (int i = 0; i < rows.size(); i++) {
            MarkdownTable.Row row = rows.get(i);
            if (!matched[i] && row.cell(0).startsWith("`")) {
                problems.add(at(row) + " names no step of the chat request's routes; remove it, or name the step's id");
            }
            String where = row.cell(1).isEmpty() ? "" : MarkdownTable.codeSpans(row.cell(1)).stream().findFirst()
                    .orElse("");
            if (!exists(where)) {
                problems.add(at(row) + ": its where, `" + where + "`, is no class (or Class.method) of the gateway; "
                        + "write the class that does the step");
            }
        }
        assertThat(problems).as("the step table of docs/architecture.md against the routes").isEmpty();
    }

    /** Each top-level package of the project and the other top-level packages its classes depend on, with one example. */
    static Map<String, Map<String, Dependency>> arrows(JavaClasses classes) {
        Map<String, Map<String, Dependency>> arrows = new TreeMap<>();
        for (JavaClass origin : classes) {
            Optional<String> from = topLevel(origin);
            if (from.isEmpty()) {
                continue;
            }
            Map<String, Dependency> uses = arrows.computeIfAbsent(from.get(), p -> new TreeMap<>());
            for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
                topLevel(dependency.getTargetClass().getBaseComponentType())
                        .filter(to -> !to.equals(from.get()))
                        .ifPresent(to -> uses.putIfAbsent(to, dependency));
            }
        }
        return arrows;
    }

    private static Optional<String> topLevel(JavaClass javaClass) {
        String pkg = javaClass.getPackageName() + ".";
        if (!pkg.startsWith(PROJECT) || pkg.length() == PROJECT.length()) {
            return Optional.empty();
        }
        return Optional.of(pkg.substring(PROJECT.length(), pkg.indexOf('.', PROJECT.length())));
    }

    /** The packages a uses cell names, or null when it names none and does not say it uses nothing. */
    private static Set<String> uses(String cell) {
        List<String> named = MarkdownTable.codeSpans(cell);
        if (!named.isEmpty()) {
            return new TreeSet<>(named);
        }
        return cell.startsWith("nothing of the project") ? Set.of() : null;
    }

    private static int find(List<MarkdownTable.Row> rows, Step step, String bean, Set<String> ids, int from,
            boolean[] matched) {
        for (int i = from; i < rows.size(); i++) {
            MarkdownTable.Row row = rows.get(i);
            String named = stepName(row);
            if (step.id() != null ? step.id().equals(named)
                    : !matched[i] && !ids.contains(named) && bean != null && bean.equals(whereClass(row))) {
                return i;
            }
        }
        return -1;
    }

    /** A row's step: its first code span, else its words. */
    private static String stepName(MarkdownTable.Row row) {
        return MarkdownTable.codeSpans(row.cell(0)).stream().findFirst().orElse(row.cell(0));
    }

    /** The class a row's where names: its first code span, without a {@code .method}. */
    private static String whereClass(MarkdownTable.Row row) {
        String where = MarkdownTable.codeSpans(row.cell(1)).stream().findFirst().orElse("");
        int dot = where.indexOf('.');
        return dot < 0 ? where : where.substring(0, dot);
    }

    private static boolean exists(String where) {
        int dot = where.indexOf('.');
        String simpleName = dot < 0 ? where : where.substring(0, dot);
        String member = dot < 0 ? null : where.substring(dot + 1);
        return ArchitectureTest.GATEWAY.stream()
                .filter(c -> c.getSimpleName().equals(simpleName))
                .anyMatch(c -> member == null || c.getAllMethods().stream().anyMatch(m -> m.getName().equals(member)));
    }

    private static String at(MarkdownTable.Row row) {
        return "docs/architecture.md:" + row.line() + ", the row of " + row.cell(0);
    }

    private static String strip(String cell) {
        return cell.replace("`", "").strip();
    }

    private static String simpleName(String className) {
        return className == null ? null : className.substring(className.lastIndexOf('.') + 1);
    }
}
