package io.inferencegateway.simulator;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import java.nio.file.Path;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

/** The simulator is the referee of the gateway's benchmarks: it sees no code of the gateway, nor of the rest of the lab. */
class SimulatorArchitectureTest {

    @Test
    void theSimulatorSeesNothingElseOfTheProject() {
        classes().should().onlyDependOnClassesThat(resideOutsideOfPackage("io.inferencegateway..")
                        .or(resideInAPackage("io.inferencegateway.simulator..")))
                .check(new ClassFileImporter().importPath(Path.of("target", "classes")));
    }
}
