package org.tonpayouts.devnet;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * devnet's own classes refer to no ton4j class: its cells are the ton module's {@code TonCell}s
 * (ton4j's cost a third of devnet's CPU under load), and ton4j stays in the tests as the oracle
 * devnet is checked against.
 */
class NoTon4jInDevnetTest {
  @Test
  void shouldNotReferToTon4jFromMainClasses() throws IOException, URISyntaxException {
    Path classes = Path.of(Devnet.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<Path> files;
    try (Stream<Path> walk = Files.walk(classes)) {
      files = walk.filter(p -> p.toString().endsWith(".class")).toList();
    }
    assertThat(files).as("devnet's main classes in " + classes).hasSizeGreaterThan(50);
    for (Path file : files) {
      // class names in the constant pool are plain ASCII in the class file
      String content = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
      assertThat(content).as(classes.relativize(file).toString()).doesNotContain("org/ton/ton4j");
    }
  }
}
