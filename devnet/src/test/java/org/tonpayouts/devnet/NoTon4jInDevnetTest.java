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
 * devnet's own classes refer to no ton4j class but one: its cells are the ton module's
 * {@code TonCell}s (ton4j's cost a third of devnet's CPU under load), ton4j stays in the tests as
 * the oracle devnet is checked against, and {@code chain.IndependentReading} alone reads each accepted
 * wallet message a second time with it.
 */
class NoTon4jInDevnetTest {
  /** The second reading of wallet messages, and its nested records. */
  private static final String SECOND_READING = "org/tonpayouts/devnet/chain/IndependentReading";

  @Test
  void shouldReadWalletMessagesASecondTimeWithTon4j() throws IOException, URISyntaxException {
    List<Path> secondReading = mainClasses().stream()
        .filter(file -> file.toString().replace('\\', '/').contains(SECOND_READING)).toList();
    assertThat(secondReading).as("the second reading's classes").isNotEmpty();
    assertThat(secondReading).anySatisfy(file -> assertThat(content(file)).contains("org/ton/ton4j/tlb/Message"));
  }

  @Test
  void shouldNotReferToTon4jFromMainClasses() throws IOException, URISyntaxException {
    List<Path> files = mainClasses();
    assertThat(files).as("devnet's main classes").hasSizeGreaterThan(50);
    for (Path file : files) {
      if (!file.toString().replace('\\', '/').contains(SECOND_READING)) {
        assertThat(content(file)).as(file.toString()).doesNotContain("org/ton/ton4j");
      }
    }
  }

  private static List<Path> mainClasses() throws IOException, URISyntaxException {
    Path classes = Path.of(Devnet.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    try (Stream<Path> walk = Files.walk(classes)) {
      return walk.filter(p -> p.toString().endsWith(".class")).toList();
    }
  }

  /** Class names in the constant pool are plain ASCII in the class file. */
  private static String content(Path file) {
    try {
      return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
