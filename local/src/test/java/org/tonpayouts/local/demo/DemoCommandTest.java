package org.tonpayouts.local.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.local.LocalStackMain;
import org.tonpayouts.local.stack.BuiltJars;
import org.tonpayouts.local.stack.Home;
import picocli.CommandLine;

/**
 * {@code payouts demo} end to end as a user runs it: streams-app and chain-poller as real child JVMs
 * from their shaded jars (built by the reactor before this module's tests), about 25 s.
 */
class DemoCommandTest {
  @TempDir
  Path tmp;

  @Test
  void shouldSettleATinyDemoThroughChildProcessesAndExitZero() throws Exception {
    Home home = Home.locate();
    BuiltJars.requireChildren(home);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cmd = LocalStackMain.commandLine();
    cmd.setOut(new PrintWriter(out, true));
    cmd.setErr(new PrintWriter(err, true));

    int exit = cmd.execute("demo", "--wallets", "2", "--requests", "4", "--block-ms", "100",
        "--data-dir", tmp.toString());

    assertThat(exit).as("output:%n%s%nerrors:%n%s", out, err).isZero();
    assertThat(out.toString())
        .contains("requests        4 (7 transfers) on 2 wallets")
        .contains("settled         7")
        .contains("seqnos          consecutive on every wallet (7 applied messages on 2 wallets)")
        // request 2 pays 1.5 USDT, then sweeps its commission in TON
        .contains("USDT            1 USDT transfer settled, 1.5 USDT paid to 1 recipient")
        .contains("USDT balances   devnet agrees")
        .contains("Result: OK, every transfer settled");
    List<Path> runs;
    try (Stream<Path> dirs = Files.list(tmp)) {
      runs = dirs.toList();
    }
    assertThat(runs).hasSize(1);
    Path run = runs.get(0);
    assertThat(run.resolve("streams-app.log")).isNotEmptyFile();
    assertThat(run.resolve("chain-poller.log")).isNotEmptyFile();
    assertThat(Files.readString(run.resolve("streams-app.log"))).contains("submitted");
    assertThat(run.resolve("streams-app-api-calls.log")).isNotEmptyFile();
    // each child's main made CompletableFuture use the common pool before anything touched it (CommonPool):
    // otherwise its TON API client warns that every HTTP answer starts a thread
    try (Stream<Path> logs = Files.list(run)) {
      for (Path log : logs.filter(p -> p.getFileName().toString().endsWith(".log")).toList()) {
        assertThat(Files.readString(log)).as(log.getFileName().toString()).doesNotContain("start a thread for every answer");
      }
    }
  }
}
