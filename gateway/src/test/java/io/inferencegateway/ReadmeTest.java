package io.inferencegateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.inferencegateway.testing.MarkdownTable;
import io.inferencegateway.testing.ProjectFiles;
import io.inferencegateway.testing.RouteSteps;

/**
 * The README is the screen a newcomer starts from, so what it says of the code is held to the code: the quick start
 * comes before the results, "How it works" names every step of a chat request in the order the routes run them, and
 * the layout table maps the design card's words to folders that exist, with a row for every folder.
 */
class ReadmeTest {

    static final Path README = ProjectFiles.of("README.md");
    /** The design card's top level: the words the layout table maps to this repository's folders. */
    static final List<String> DESIGN_CARD =
            List.of("pom.xml", "routes/", "processors/", "src/", "camel-k/", "kamelets/", "README.md");

    @Test
    void theQuickStartComesBeforeTheResults() throws IOException {
        String readme = Files.readString(README);

        assertThat(readme.indexOf("\n## Quick start\n")).isPositive()
                .isLessThan(readme.indexOf("\n## Result\n"));
    }

    /**
     * Every step id of the chat request's routes (routes/openai-ingress.camel.yaml, then the route its dispatch table
     * names, routes/inference.camel.yaml) stands in the "How it works" drawing, after the one the routes run before it.
     */
    @Test
    void howItWorksNamesEveryStepOfAChatRequestInTheOrderTheRoutesRunThem() throws IOException {
        String drawing = howItWorks(Files.readString(README));
        List<String> problems = new ArrayList<>();
        int after = 0;
        String previous = null;
        for (RouteSteps.Step step : RouteSteps.chatRequest()) {
            if (step.id() == null) {
                continue;
            }
            Matcher named = Pattern.compile("(?<![\\w-])" + Pattern.quote(step.id()) + "(?![\\w-])").matcher(drawing);
            if (named.find(after)) {
                after = named.end();
                previous = step.id();
            } else if (named.find(0)) {
                problems.add("README.md, How it works: " + step.id() + " stands before " + previous + ", but the route "
                        + step.route() + " runs it after; move its line below " + previous + "'s");
            } else {
                problems.add("README.md, How it works: no line names " + step.id() + " (route " + step.route()
                        + "); add one " + (previous == null ? "at the top" : "below " + previous + "'s")
                        + " that says what it does");
            }
        }
        assertThat(problems).as("README's How it works against the routes").isEmpty();
    }

    @Test
    void theLayoutTableMapsTheDesignCardToFoldersThatExistWithARowForEveryFolder() throws IOException {
        List<MarkdownTable.Row> rows = MarkdownTable.below(Files.readString(README), "## Project layout").rows();
        List<String> problems = new ArrayList<>();
        Set<String> words = new TreeSet<>();
        Set<String> tops = new TreeSet<>();
        for (MarkdownTable.Row row : rows) {
            for (String word : MarkdownTable.codeSpans(row.cell(0))) {
                if (!DESIGN_CARD.contains(word)) {
                    problems.add("README.md:" + row.line() + ": `" + word + "` is not a word of the design card "
                            + DESIGN_CARD + "; write — for a folder the card does not name");
                }
                words.add(word);
            }
            for (String path : MarkdownTable.codeSpans(row.cell(1))) {
                if (!Files.exists(ProjectFiles.of(path))) {
                    problems.add("README.md:" + row.line() + ": `" + path + "` does not exist; write where it is now");
                }
                tops.add(Path.of(path).getName(0).toString());
            }
        }
        for (String word : DESIGN_CARD) {
            if (!words.contains(word)) {
                problems.add("README.md, Project layout: no row for the design card's `" + word + "`; add one that "
                        + "says where it is here");
            }
        }
        for (String folder : topLevel()) {
            if (!tops.contains(folder)) {
                problems.add("README.md, Project layout: no row for `" + folder + "`; add | — | `" + folder
                        + "` | (what is there) |");
            }
        }
        assertThat(problems).as("README's Project layout against the repository").isEmpty();
    }

    /** The first fenced block of the "How it works" section. */
    private static String howItWorks(String readme) {
        int section = readme.indexOf("\n## How it works\n");
        assertThat(section).as("a \"## How it works\" section").isPositive();
        int open = readme.indexOf("\n```", section);
        int close = readme.indexOf("\n```", open + 4);
        assertThat(open).as("a drawing in How it works").isPositive().isLessThan(readme.indexOf("\n## ", section + 1));
        return readme.substring(open, close);
    }

    /** What the top of the repository holds that git keeps: not hidden, not ignored. */
    private static List<String> topLevel() throws IOException {
        List<PathMatcher> ignored = Files.readAllLines(ProjectFiles.of(".gitignore")).stream()
                .map(String::strip)
                .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                .filter(line -> !line.substring(0, line.length() - 1).contains("/")) // top-level patterns only
                .map(line -> FileSystems.getDefault().getPathMatcher("glob:" + line.replaceAll("/$", "")))
                .toList();
        try (Stream<Path> top = Files.list(ProjectFiles.ROOT)) {
            return top.map(Path::getFileName)
                    .filter(name -> !name.toString().startsWith("."))
                    .filter(name -> ignored.stream().noneMatch(m -> m.matches(name)))
                    .map(Path::toString)
                    .sorted()
                    .toList();
        }
    }
}
