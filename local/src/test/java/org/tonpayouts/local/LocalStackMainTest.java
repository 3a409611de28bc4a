package org.tonpayouts.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.tonpayouts.cli.PayoutsCli;
import picocli.CommandLine;

/** The launcher's command line: the demo by default, its own commands and the operator's of payouts-cli.jar. */
class LocalStackMainTest {
  @Test
  void shouldRunTheDemoWhenNoCommandIsGiven() {
    assertThat(LocalStackMain.withDefaultCommand(new String[0])).containsExactly("demo");
    assertThat(LocalStackMain.withDefaultCommand(new String[] {"--wallets", "2"}))
        .containsExactly("demo", "--wallets", "2");
    assertThat(LocalStackMain.withDefaultCommand(new String[] {"bench", "--wallets", "2"}))
        .containsExactly("bench", "--wallets", "2");
  }

  @Test
  void shouldCarryTheStacksCommandsAndEveryCommandOfTheOperatorCli() {
    StringWriter help = new StringWriter();
    CommandLine cmd = LocalStackMain.commandLine();
    cmd.setOut(new PrintWriter(help, true));

    assertThat(cmd.execute("--help")).isZero();

    assertThat(cmd.getSubcommands().keySet()).containsExactly("demo", "up", "bench", "soak", "topics", "wallets",
        "config-table", "admin", "help");
    assertThat(cmd.getSubcommands().keySet()).containsAll(PayoutsCli.commandLine().getSubcommands().keySet());
    assertThat(help.toString()).contains("demo", "up", "bench", "soak", "topics", "wallets", "config-table", "admin");
  }
}
