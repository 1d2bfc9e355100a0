package io.inferencegateway;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noCodeUnits;
import static io.inferencegateway.ArchitectureTest.GATEWAY;
import static io.inferencegateway.ArchitectureTest.RUNTIME;

import java.util.List;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.domain.JavaModifier;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.junit.jupiter.api.Test;

/**
 * One way to add a meter (docs/architecture.md, "observability"): a subsystem exposes its meters as a Micrometer
 * {@link MeterBinder} in its own package and takes that binder, never the registry; the wiring (runtime/GatewayMeters)
 * binds every binder to the one registry.
 */
class MeterConventionTest {

    static final DescribedPredicate<JavaCodeUnit> A_BINDERS_BIND_TO = DescribedPredicate.describe(
            "a MeterBinder's bindTo", u -> u.getName().equals("bindTo") && u.getOwner().isAssignableTo(MeterBinder.class));

    /** What the compiler writes for a lambda: not something a class takes, whatever the lambda captures. */
    static final DescribedPredicate<JavaCodeUnit> SYNTHETIC = DescribedPredicate.describe("synthetic",
            u -> u.getModifiers().contains(JavaModifier.SYNTHETIC));

    static final DescribedPredicate<List<JavaClass>> A_REGISTRY = DescribedPredicate.describe(
            "a MeterRegistry among them", types -> types.stream().anyMatch(t -> t.isAssignableTo(MeterRegistry.class)));

    @Test
    void noClassOutsideTheWiringTakesTheRegistryButABindersBindTo() {
        noCodeUnits().that().areDeclaredInClassesThat().resideOutsideOfPackage(RUNTIME)
                .and(DescribedPredicate.not(A_BINDERS_BIND_TO)).and(DescribedPredicate.not(SYNTHETIC))
                .should().haveRawParameterTypes(A_REGISTRY)
                .because("a subsystem's meters are a MeterBinder in its package, bound by the wiring")
                .check(GATEWAY);
    }

    @Test
    void onlyTheWiringBindsTheBinders() {
        noClasses().that().resideOutsideOfPackage(RUNTIME)
                .should().callMethodWhere(DescribedPredicate.describe("MeterBinder.bindTo",
                        (JavaMethodCall call) -> call.getName().equals("bindTo")
                                && call.getTargetOwner().isAssignableTo(MeterBinder.class)))
                .because("every binder is bound to the registry in one place, runtime/GatewayMeters")
                .check(GATEWAY);
    }
}
