package org.tonpayouts.local;

import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code payouts demo}: the whole pipeline on this machine with a small demo load, then a summary. */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = {"Starts Kafka, PostgreSQL and devnet in this process and streams-app and chain-poller as child"
        + " JVMs, pays a demo load (payouts, a third of them followed by a commission sweep) and prints a summary.",
        "Exit code 0 only if every transfer settled."})
public final class DemoCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  StackOptions stack;

  @Option(names = "--wallets", defaultValue = "10", description = "Paying subwallets (default ${DEFAULT-VALUE}).")
  int wallets;

  @Option(names = "--requests", defaultValue = "50", description = "Payout requests (default ${DEFAULT-VALUE}).")
  int requests;

  @Option(names = "--ton-api-url", paramLabel = "<url>",
      description = "A toncenter-compatible API (e.g. testnet) instead of devnet; the wallets must be funded.")
  URI tonApiUrl;

  @Option(names = "--wallet-secret-file", paramLabel = "<file>",
      description = "Mnemonic or seed file of the paying key (required with --ton-api-url).")
  Path walletSecretFile;

  @Option(names = "--ton-api-key-file", paramLabel = "<file>", description = "File holding the API key, if any.")
  Path tonApiKeyFile;

  @Option(names = "--ton-api-rps", defaultValue = "1",
      description = "Requests per second the children may make to --ton-api-url (default ${DEFAULT-VALUE},"
          + " toncenter without a key).")
  double tonApiRps;

  @Option(names = "--testnet", description = "Write addresses in their testnet form (default: on with --ton-api-url).")
  Boolean testnet;

  @Option(names = "--keep-running", description = "Keep the stack up after the summary until Ctrl-C.")
  boolean keepRunning;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    if (tonApiUrl != null && walletSecretFile == null) {
      throw new IllegalArgumentException("--ton-api-url needs --wallet-secret-file (the key of funded wallets)");
    }
    if (tonApiUrl == null && (walletSecretFile != null || tonApiKeyFile != null)) {
      throw new IllegalArgumentException("--wallet-secret-file and --ton-api-key-file go with --ton-api-url;"
          + " on devnet every run uses a fresh random key");
    }
    Home home = Home.locate();
    boolean onTestnet = testnet != null ? testnet : tonApiUrl != null;
    RunOptions options = new RunOptions(wallets, stack.partitions, stack.blockInterval(), Optional.ofNullable(tonApiUrl),
        Optional.ofNullable(walletSecretFile), Optional.ofNullable(tonApiKeyFile), tonApiRps, onTestnet,
        Duration.ofSeconds(stack.timeoutSeconds), stack.dataDir(home), home);
    Clock clock = Clock.systemUTC();
    long started = clock.millis();
    try (StackRun run = StackRun.start(options, out, clock)) {
      run.fund();
      DemoLoad load = DemoLoad.demo(run.wallets(), requests, "demo-" + run.directory().runId(), onTestnet,
          clock.instant());
      Settling settling = run.settle(load);
      if (!keepRunning) {
        // audit a ledger nobody writes to any more
        run.stopChildren();
      }
      Summary summary = new Summary(load, wallets, settling, run.audit(), (clock.millis() - started) / 1000.0,
          run.directory());
      summary.print(out);
      if (keepRunning) {
        run.awaitInterrupt();
      }
      out.println("stopping the local stack ...");
      out.flush();
      return summary.exitCode();
    }
  }
}
