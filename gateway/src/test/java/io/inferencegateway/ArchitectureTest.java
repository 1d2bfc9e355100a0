package io.inferencegateway;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

/**
 * The package graph of docs/architecture.md, as rules: every arrow points down, no package cycle, Camel only in the
 * Camel layer, the edge free of Camel and of the gateway's state. (The lab is a module of its own, which depends on
 * the gateway and which the gateway cannot see: lab/.../LabArchitectureTest.)
 */
class ArchitectureTest {

    /** This module's classes only: on the test classpath the simulator's sit beside them. */
    static final JavaClasses GATEWAY = new ClassFileImporter().importPath(Path.of("target", "classes"));

    static final String DOMAIN = "io.inferencegateway.domain..";
    static final String CONFIG = "io.inferencegateway.config..";
    static final String POOL = "io.inferencegateway.pool..";
    static final String[] SUBSYSTEMS = {"io.inferencegateway.metrics..", "io.inferencegateway.discovery..",
            "io.inferencegateway.openai..", "io.inferencegateway.proxy..", "io.inferencegateway.scheduling..",
            "io.inferencegateway.tracing..", "io.inferencegateway.auth..", "io.inferencegateway.ratelimit..",
            "io.inferencegateway.request..", "io.inferencegateway.edge..", "io.inferencegateway.rollout..",
            "io.inferencegateway.shadow..", "io.inferencegateway.tokenize..",
            "io.inferencegateway.kvevents.."};
    static final String OBSERVABILITY = "io.inferencegateway.observability..";
    static final String RUNTIME = "io.inferencegateway.runtime..";
    static final String EDGE = "io.inferencegateway.edge..";
    static final String CAMEL = "io.inferencegateway.camel..";

    @Test
    void layersOnlyPointDown() {
        layeredArchitecture()
                .consideringOnlyDependenciesInAnyPackage("io.inferencegateway..")
                .layer("Domain").definedBy(DOMAIN)
                .layer("Config").definedBy(CONFIG)
                .layer("Pool").definedBy(POOL)
                .layer("Subsystems").definedBy(SUBSYSTEMS)
                .layer("Observability").definedBy(OBSERVABILITY)
                .layer("Runtime").definedBy(RUNTIME)
                .layer("Camel").definedBy(CAMEL)
                .whereLayer("Camel").mayNotBeAccessedByAnyLayer()
                .whereLayer("Runtime").mayOnlyBeAccessedByLayers("Camel")
                .whereLayer("Observability").mayOnlyBeAccessedByLayers("Runtime", "Camel")
                .whereLayer("Subsystems").mayOnlyBeAccessedByLayers("Observability", "Runtime", "Camel")
                .whereLayer("Pool").mayOnlyBeAccessedByLayers("Subsystems", "Observability", "Runtime", "Camel")
                .whereLayer("Config").mayOnlyBeAccessedByLayers("Pool", "Subsystems", "Observability", "Runtime", "Camel")
                .whereLayer("Domain").mayOnlyBeAccessedByLayers("Config", "Pool", "Subsystems", "Observability", "Runtime",
                        "Camel")
                .check(GATEWAY);
    }

    @Test
    void everyProjectClassIsInALayer() {
        List<String> layers = new ArrayList<>(List.of(DOMAIN, CONFIG, POOL, OBSERVABILITY, RUNTIME, CAMEL));
        layers.addAll(List.of(SUBSYSTEMS));
        classes().should().resideInAnyPackage(layers.toArray(String[]::new))
                .check(GATEWAY);
    }

    @Test
    void noPackageCycles() {
        slices().matching("io.inferencegateway.(**)").should().beFreeOfCycles()
                .check(GATEWAY);
    }

    @Test
    void onlyTheCamelLayerSeesCamel() {
        noClasses().that().resideOutsideOfPackage(CAMEL)
                .should().dependOnClassesThat().resideInAPackage("org.apache.camel..")
                .check(GATEWAY);
    }

    /**
     * The edge is the ingress's Netty handlers and its dispatch table: Netty, the request's route, and the OpenAI
     * error shape it answers bad HTTP in; no Camel (the Camel layer adapts it) and no gateway state.
     */
    @Test
    void theEdgeIsNettyAndTheRequestsRouteOnly() {
        classes().that().resideInAPackage(EDGE)
                .should().onlyDependOnClassesThat(resideInAPackage("java..").or(resideInAPackage("io.netty.."))
                        .or(resideInAPackage("io.micrometer..")).or(resideInAPackage(EDGE))
                        .or(resideInAPackage("io.inferencegateway.request.."))
                        .or(resideInAPackage("io.inferencegateway.openai.."))
                        .or(resideInAPackage("io.inferencegateway.config.."))
                        .or(resideInAPackage(DOMAIN)))
                .check(GATEWAY);
    }

    /**
     * The Camel layer holds adapters: what is not about Camel lives below it (the edge, the request, the rest). Its
     * one Camel-free class makes the YAML beans out of the gateway's parts (GatewayBeans).
     */
    @Test
    void theCamelLayerHoldsNothingWithoutCamel() {
        classes().that().resideInAPackage(CAMEL).and().areTopLevelClasses()
                .and().doNotHaveSimpleName("GatewayBeans")
                .should().dependOnClassesThat().resideInAPackage("org.apache.camel..")
                .check(GATEWAY);
    }

    @Test
    void theDomainStandsOnTheJdkAlone() {
        classes().that().resideInAPackage(DOMAIN)
                .should().onlyDependOnClassesThat(resideInAPackage("java..").or(resideInAPackage(DOMAIN)))
                .check(GATEWAY);
    }

    /** Nested classes count too: a name says one thing wherever it is read (anonymous and local classes have none). */
    @Test
    void noTwoClassesShareASimpleName() {
        Map<String, List<String>> byName = GATEWAY.stream()
                .filter(c -> !c.isAnonymousClass() && !c.isLocalClass())
                .filter(c -> !c.getSimpleName().equals("package-info"))
                .collect(Collectors.groupingBy(JavaClass::getSimpleName,
                        Collectors.mapping(JavaClass::getName, Collectors.toList())));
        assertThat(byName.values().stream().filter(names -> names.size() > 1).toList()).isEmpty();
    }
}
