package org.tonpayouts.local.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The launcher's packages import one way, as Kafka keeps trogdor's faults apart from its workloads
 * and its benchmarks apart from the product: the stack (starting and supervising the processes)
 * knows nothing of what runs on it; demo, bench and soak share only the measuring package; the
 * chain auditor is a judge of its own, told what to expect through its own records; only the
 * top-level package ({@code LocalStackMain}, {@code up}) sees everything.
 *
 * <p>ArchUnit reads bytecode: a reference to a {@code static final} String or primitive constant is
 * inlined by javac and invisible here, so no rule may be dodged by one (none is).
 */
class PackageDependenciesTest {
  private static final String LOCAL = "org.tonpayouts.local";
  private static final String STACK = LOCAL + ".stack..";
  private static final String MEASURE = LOCAL + ".measure..";
  private static final String DEMO = LOCAL + ".demo..";
  private static final String BENCH = LOCAL + ".bench..";
  private static final String SOAK = LOCAL + ".soak..";
  private static final String AUDIT = LOCAL + ".audit..";
  private static final JavaClasses MAIN = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages(LOCAL);

  @Test
  void shouldFindTheClassesOfEveryPackageTheRulesName() {
    assertThat(MAIN.stream().map(JavaClass::getPackageName).distinct())
        .as("a package renamed away would make its rules hold for nothing")
        .containsExactlyInAnyOrder(LOCAL, pkg(STACK), pkg(MEASURE), pkg(DEMO), pkg(BENCH), pkg(SOAK), pkg(AUDIT));
  }

  @Test
  void shouldKeepTheStackIgnorantOfWhatRunsOnIt() {
    noClasses().that().resideInAPackage(STACK)
        .should().dependOnClassesThat().resideInAnyPackage(MEASURE, DEMO, BENCH, SOAK, AUDIT, LOCAL)
        .check(MAIN);
  }

  @Test
  void shouldKeepTheAuditorAnIndependentJudge() {
    noClasses().that().resideInAPackage(AUDIT)
        .should().dependOnClassesThat().resideInAnyPackage(SOAK, BENCH, DEMO, MEASURE, STACK, LOCAL)
        .because("the auditor reads the chain, the ledger and the topics itself and is told the rest through its"
            + " own records (ExpectedTransfer, ForeignPayment, ReusedRequestId), which the soak adapts to")
        .check(MAIN);
  }

  @Test
  void shouldLetDemoBenchAndSoakShareOnlyTheMeasuringPackage() {
    noClasses().that().resideInAPackage(DEMO).should().dependOnClassesThat().resideInAnyPackage(BENCH, SOAK, LOCAL)
        .check(MAIN);
    noClasses().that().resideInAPackage(BENCH).should().dependOnClassesThat().resideInAnyPackage(DEMO, SOAK, LOCAL)
        .check(MAIN);
    noClasses().that().resideInAPackage(SOAK).should().dependOnClassesThat().resideInAnyPackage(DEMO, BENCH, LOCAL)
        .check(MAIN);
    noClasses().that().resideInAPackage(MEASURE).should().dependOnClassesThat()
        .resideInAnyPackage(DEMO, BENCH, SOAK, LOCAL)
        .because("a shared package that knew one of its users would connect them")
        .check(MAIN);
  }

  @Test
  void shouldHaveNoCycleBetweenPackages() {
    slices().matching(LOCAL + ".(*)..").should().beFreeOfCycles().check(MAIN);
  }

  /** {@code a.b..} as a package name, {@code a.b}. */
  private static String pkg(String pattern) {
    return pattern.substring(0, pattern.length() - 2);
  }
}
