package org.tonpayouts.local;

import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.tonpayouts.local.stack.Home;
import org.tonpayouts.local.stack.StackOptions;
import org.tonpayouts.local.stack.StackRun;
import org.tonpayouts.local.stack.TonApiOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code payouts up}: the local stack with no load, up until Ctrl-C, for trying the pipeline by hand
 * or pointing a producer service at it. Prints the bootstrap servers, the JDBC URL, the metrics and
 * health URLs and a console-producer line with a valid request.
 */
@Command(name = "up", mixinStandardHelpOptions = true,
    description = {"Starts Kafka, PostgreSQL and devnet in this process and streams-app and chain-poller as child"
        + " JVMs, funds the demo wallets on devnet, prints how to connect and keeps everything running until Ctrl-C."
        + " No load is produced."})
public final class UpCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  StackOptions stack;

  @Option(names = "--wallets", defaultValue = "10",
      description = "Paying subwallets to fund on devnet (default ${DEFAULT-VALUE}).")
  int wallets;

  @Mixin
  TonApiOptions api;

  /** Called with the running stack once it is ready and printed (tests use it; the command ignores it). */
  Consumer<StackRun> onReady = run -> { };

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    Home home = Home.locate();
    Clock clock = Clock.systemUTC();
    try (StackRun run = StackRun.start(api.runOptions(wallets, stack, Duration.ZERO, home), out, clock)) {
      run.fund();
      ConnectionInfo.print(run, out, clock.instant());
      onReady.accept(run);
      run.awaitInterrupt();
    } catch (InterruptedException e) {
      // interrupted (an embedding program or a test stopping us): the stack is closed above
      Thread.currentThread().interrupt();
    }
    out.println("the local stack stopped");
    out.flush();
    return 0;
  }
}
