package org.tonpayouts.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.local.stack.Home;

/**
 * The README's main job, {@code ./payouts demo}, run from {@code local/target/local.jar} as the
 * script runs it: the shaded jar's classpath is the shade plugin's, not the tests', so a class the
 * launcher needs and the shade left out fails here and nowhere else (Kafka Streams' StreamsConfig,
 * which PayoutsConfig checks kafka.* keys against, once did: every ./payouts command that starts
 * the children failed while every test passed). Runs after {@code package} (failsafe).
 */
class LauncherJarIT {
  private static final long TIMEOUT_MINUTES = 5;

  @Test
  void shouldRunTheDemoFromTheShadedJarAndSettleEveryTransfer(@TempDir Path tmp)
      throws IOException, InterruptedException {
    Home home = Home.locate();
    Path jar = home.dir().resolve("local/target/local.jar");
    assertThat(jar).as("built by the package phase before this test").isRegularFile();
    Path output = tmp.resolve("demo.out");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process demo = new ProcessBuilder(List.of(java, "-jar", jar.toString(), "demo", "--requests", "6", "--wallets",
        "2", "--block-ms", "200", "--data-dir", tmp.resolve("runs").toString()))
        .redirectErrorStream(true)
        .redirectOutput(output.toFile())
        .start();
    boolean ended = demo.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES);
    if (!ended) {
      demo.destroyForcibly();
    }
    String printed = Files.readString(output);
    assertThat(ended).as("the demo ended within %d minutes:%n%s", TIMEOUT_MINUTES, printed).isTrue();
    assertThat(demo.exitValue()).as("exit code 0: every transfer settled%n%s", printed).isZero();
    assertThat(printed).contains("Summary").doesNotContain("NoClassDefFoundError")
        // request 2 of 6 pays the run's jetton: 1.5 USDT, checked against devnet's jetton wallets
        .contains("USDT            1 USDT transfer settled, 1.5 USDT paid to 1 recipient")
        .contains("USDT balances   devnet agrees");
  }
}
