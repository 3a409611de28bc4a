package org.tonpayouts.streams.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * streams-app's packages depend on each other one way: a reader follows the arrows from the
 * topology down to the wallet state machine, the ledger and the send lifecycle, never in a circle.
 * Two views of it: the compiled classes (ArchUnit), and the source's references, since javac inlines
 * a constant such as a topology node's name and leaves no trace of it in the class files.
 */
class PackageDependenciesTest {
  private static final String ROOT = "org.tonpayouts.streams";
  /** Surefire runs in the module directory. */
  private static final Path SOURCES = Path.of("src", "main", "java");
  private static final Pattern REFERENCE = Pattern.compile("\\b(org\\.tonpayouts\\.streams(?:\\.[a-z]\\w*)*)\\.[A-Z]");
  private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);

  @Test
  void shouldHaveNoCycleBetweenThePackagesOfTheCompiledClasses() {
    JavaClasses main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages(ROOT);

    slices().matching(ROOT + ".(**)").should().beFreeOfCycles().check(main);
  }

  @Test
  void shouldHaveNoCycleBetweenThePackagesTheSourceRefersTo() throws IOException {
    Map<String, Set<String>> graph = sourceGraph();

    assertThat(graph).as("the packages were read").containsKeys(ROOT + ".wallet", ROOT + ".topology", ROOT + ".ledger");
    assertThat(cycles(graph)).as("package cycles (each listed from a package back to itself)").isEmpty();
  }

  /** Each package of the main source and the other streams-app packages its files import or name. */
  private static Map<String, Set<String>> sourceGraph() throws IOException {
    Map<String, Set<String>> graph = new TreeMap<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        String source = Files.readString(file);
        Matcher pkg = PACKAGE.matcher(source);
        if (!pkg.find()) {
          continue;
        }
        Set<String> targets = graph.computeIfAbsent(pkg.group(1), p -> new TreeSet<>());
        Matcher ref = REFERENCE.matcher(source.substring(pkg.end()));
        while (ref.find()) {
          if (!ref.group(1).equals(pkg.group(1))) {
            targets.add(ref.group(1));
          }
        }
      }
    }
    return graph;
  }

  private static List<String> cycles(Map<String, Set<String>> graph) {
    List<String> found = new ArrayList<>();
    for (String start : graph.keySet()) {
      walk(graph, start, new ArrayList<>(List.of(start)), found);
    }
    return found;
  }

  private static void walk(Map<String, Set<String>> graph, String at, List<String> path, List<String> found) {
    for (String next : graph.getOrDefault(at, Set.of())) {
      if (next.equals(path.get(0))) {
        found.add(String.join(" -> ", path) + " -> " + next);
      } else if (!path.contains(next) && next.compareTo(path.get(0)) > 0) {
        path.add(next);
        walk(graph, next, path, found);
        path.remove(path.size() - 1);
      }
    }
  }
}
