package org.tonpayouts.streams.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * streams-app's packages depend on each other one way: a reader follows an arrow from the
 * topology down to the wallet state machine, the ledger and the send lifecycle, never in a circle.
 */
class PackageDependenciesTest {
  private static final JavaClasses MAIN = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("org.tonpayouts.streams");

  @Test
  void shouldHaveNoCycleBetweenPackages() {
    slices().matching("org.tonpayouts.streams.(**)").should().beFreeOfCycles().check(MAIN);
  }
}
