package io.inferencegateway.lab;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import java.nio.file.Path;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

/**
 * The lab's arrows (docs/architecture.md): the routing benchmark measures the gateway from outside, over HTTP, and
 * drives the simulator and the delayed links between regions; only the CLI starts the gateway in-process (demo) and
 * offers its serve command. The links know nothing of the project.
 */
class LabArchitectureTest {

    /** This module's classes only. */
    static final JavaClasses LAB = new ClassFileImporter().importPath(Path.of("target", "classes"));

    @Test
    void theBenchmarkSeesTheGatewayOverHttpOnly() {
        classes().that().resideInAPackage("io.inferencegateway.lab.bench..")
                .should().onlyDependOnClassesThat(not(resideInAPackage("io.inferencegateway.."))
                        .or(resideInAPackage("io.inferencegateway.lab.bench.."))
                        .or(resideInAPackage("io.inferencegateway.lab.regions.."))
                        .or(resideInAPackage("io.inferencegateway.simulator..")))
                .check(LAB);
    }

    @Test
    void theLinksBetweenRegionsAreTcpOnly() {
        classes().that().resideInAPackage("io.inferencegateway.lab.regions..")
                .should().onlyDependOnClassesThat(not(resideInAPackage("io.inferencegateway.."))
                        .or(resideInAPackage("io.inferencegateway.lab.regions..")))
                .check(LAB);
    }

    @Test
    void everyClassIsTheBenchmarksTheLinksOrTheCommandLines() {
        classes().should().resideInAnyPackage("io.inferencegateway.lab.bench..", "io.inferencegateway.lab.regions..",
                        "io.inferencegateway.lab.cli..")
                .check(LAB);
    }
}
