package org.tonpayouts.local.demo;

import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.local.measure.PayoutLoad;
import org.tonpayouts.local.measure.Settler;
import org.tonpayouts.local.measure.Settling;
import org.tonpayouts.local.measure.Summary;
import org.tonpayouts.local.stack.Home;
import org.tonpayouts.local.stack.RunOptions;
import org.tonpayouts.local.stack.StackOptions;
import org.tonpayouts.local.stack.StackRun;
import org.tonpayouts.local.stack.TonApiOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code payouts demo}: the whole pipeline on this machine with a small demo load, then a summary. */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = {"Starts Kafka, PostgreSQL and devnet in this process and streams-app and chain-poller as child"
        + " JVMs, pays a demo load (payouts, a third of them followed by a commission sweep; on devnet every"
        + " fourth pays the run's jetton, USDT, then sweeps a commission) and prints a summary.",
        "Exit code 0 only if every transfer settled (and, on devnet, the jetton balances are what was paid)."})
public final class DemoCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  StackOptions stack;

  @Option(names = "--wallets", defaultValue = "10", description = "Paying subwallets (default ${DEFAULT-VALUE}).")
  int wallets;

  @Option(names = "--requests", defaultValue = "50", description = "Payout requests (default ${DEFAULT-VALUE}).")
  int requests;

  @Mixin
  TonApiOptions api;

  @Option(names = "--keep-running", description = "Keep the stack up after the summary until Ctrl-C.")
  boolean keepRunning;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    Home home = Home.locate();
    boolean onTestnet = api.onTestnet();
    RunOptions options = api.runOptions(wallets, stack, Duration.ofSeconds(stack.timeoutSeconds()), home);
    Clock clock = Clock.systemUTC();
    long started = clock.millis();
    try (StackRun run = StackRun.start(options, out, clock)) {
      run.fund();
      PayoutLoad load = DemoLoad.demo(run.wallets(), requests, "demo-" + run.directory().runId(), onTestnet,
          clock.instant(), run.jettonMaster());
      Settler settler = new Settler(run, out, clock);
      Settling settling = settler.settle(load);
      if (!keepRunning) {
        // audit a ledger nobody writes to any more
        run.stopChildren();
      }
      Summary summary = new Summary(load, wallets, settling, settler.auditLedger(), (clock.millis() - started) / 1000.0,
          run.directory());
      Optional<DemoJettons> jettons = jettons(run, load, settling);
      summary.print(out, jettons.map(DemoJettons::lines).orElse(List.of()));
      if (keepRunning) {
        run.awaitInterrupt();
      }
      out.println("stopping the local stack ...");
      out.flush();
      return summary.exitCode() == 0 && jettons.map(DemoJettons::agree).orElse(true) ? 0 : 1;
    }
  }

  /** On devnet, the run's jetton transfers checked against the jetton wallets; empty without a jetton. */
  private static Optional<DemoJettons> jettons(StackRun run, PayoutLoad load, Settling settling) {
    Optional<Devnet> devnet = run.stack().devnet();
    if (run.jettonMaster().isEmpty() || devnet.isEmpty() || load.jettonTransferCount() == 0) {
      return Optional.empty();
    }
    return Optional.of(DemoJettons.check(StackRun.JETTON_SYMBOL, load, settling, devnet.get(),
        run.jettonMaster().get(), run.wallets(), StackRun.FUNDING_JETTON_UNITS));
  }
}
