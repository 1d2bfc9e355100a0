package io.inferencegateway.scheduling.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import io.inferencegateway.config.PluginCatalog;
import io.inferencegateway.scheduling.RegisteredPlugins;
import io.inferencegateway.scheduling.ScriptedRandom;
import io.inferencegateway.scheduling.framework.Filter;
import io.inferencegateway.scheduling.framework.InvalidPluginException;
import io.inferencegateway.scheduling.framework.PluginRegistry;
import io.inferencegateway.scheduling.framework.PluginContext;
import io.inferencegateway.scheduling.framework.PluginType;
import io.inferencegateway.scheduling.framework.Scorer;
import io.inferencegateway.testing.ProjectFiles;

/**
 * The registry round trip, and the convention that makes a new plugin one file plus one registration line
 * (docs/adding-a-scorer.md): nothing outside this package names a plugin class, the CRD names no plugin
 * type, and every type has its card in docs/scheduling.md.
 */
class BuiltInPluginsTest {

    static Stream<PluginType<?>> types() {
        return BuiltInPlugins.REGISTRY.types().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("types")
    void everyTypeBuildsWithItsDefaultsAsItsRole(PluginType<?> type) throws Exception {
        Object plugin = type.create("p", Map.of(), PluginContext.forChecking(new ScriptedRandom()));

        assertThat(plugin).isInstanceOf(type.role()).hasToString(type.name());
        assertThat(BuiltInPlugins.REGISTRY.type(type.name())).isSameAs(type);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("types")
    void everyTypeRejectsAParameterItDoesNotRead(PluginType<?> type) {
        assertThatThrownBy(() -> type.create("at", Map.of("noSuchKnob", 1), PluginContext.forChecking(new ScriptedRandom())))
                .isInstanceOf(InvalidPluginException.class)
                .hasMessageStartingWith("at.noSuchKnob is not a parameter of this plugin");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("types")
    void everyTypeHasItsCardInTheSchedulingDoc(PluginType<?> type) throws IOException {
        String doc = Files.readString(ProjectFiles.of("docs/scheduling.md"));
        int card = doc.indexOf("\n### " + type.name() + "\n");
        assertThat(card).as("a '### %s' section", type.name()).isPositive();
        int next = doc.indexOf("\n#", card + 1);
        assertThat(doc.substring(card, next < 0 ? doc.length() : next)).contains("*What:*", "*Intent:*", "*Config:*");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("types")
    void noCodeOutsideThisPackageNamesThePluginClass(PluginType<?> type) throws Exception {
        String simpleName = type.create("p", Map.of(), PluginContext.forChecking(new ScriptedRandom())).getClass().getSimpleName();
        Path plugins = Path.of("src/main/java/io/inferencegateway/scheduling/plugins");
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            List<Path> naming = files.filter(f -> f.toString().endsWith(".java") && !f.startsWith(plugins))
                    .filter(f -> read(f).matches("(?s).*\\b" + simpleName + "\\b.*"))
                    .toList();
            assertThat(naming).as("files outside scheduling/plugins naming %s", simpleName).isEmpty();
        }
    }

    @Test
    void theCrdTakesPluginTypesAndParametersGenerically() throws IOException {
        String crd = Files.readString(ProjectFiles.of("camel-k/inferencegatewayconfig-crd.yaml"));
        assertThat(types().map(PluginType::name)).noneMatch(crd::contains);
    }

    @Test
    void configValidationSeesTheseTypesThroughTheServiceLoader() {
        PluginCatalog catalog = ServiceLoader.load(PluginCatalog.class).findFirst().orElseThrow();

        assertThat(catalog).isInstanceOf(RegisteredPlugins.class);
        assertThat(catalog.types()).containsExactlyElementsOf(types().map(PluginType::name).toList());
        assertThat(catalog.role("saturation-filter")).isEqualTo(PluginCatalog.Role.FILTER);
        assertThat(catalog.role("queue-scorer")).isEqualTo(PluginCatalog.Role.SCORER);
        assertThat(catalog.role("max-score-picker")).isEqualTo(PluginCatalog.Role.PICKER);
        assertThat(catalog.role("queue")).isNull();
    }

    @Test
    void aTypeIsKebabCaseEndingInItsRoleAndRegisteredOnce() {
        assertThatThrownBy(() -> PluginType.scorer("queueScorer", p -> LoadScorer.queue()))
                .hasMessage("plugin type 'queueScorer' must be kebab-case and end in -scorer");
        assertThatThrownBy(() -> PluginType.filter("queue-scorer", p -> new LoraAffinityFilter()))
                .hasMessage("plugin type 'queue-scorer' must be kebab-case and end in -filter");
        PluginType<Scorer> twin = PluginType.scorer(LoadScorer.QUEUE_TYPE, p -> LoadScorer.queue());
        assertThatThrownBy(() -> new PluginRegistry(List.of(LoadScorer.QUEUE, twin)))
                .hasMessage("plugin type 'queue-scorer' is registered twice");
        assertThat(PluginType.filter("x-filter", p -> new LoraAffinityFilter()).role()).isEqualTo(Filter.class);
    }

    private static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
