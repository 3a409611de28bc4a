package org.tonpayouts.local;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code payouts bench}: the local stack on devnet under a load of single-transfer requests, every
 * wallet busy from the start; prints throughput against the chain's limit, added latency, API calls
 * per transfer and peak heaps.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = {"Measures the pipeline on devnet: N single-transfer requests per wallet, all produced at once.",
        "Prints settled transfers/s, efficiency against wallets / block interval, latency added beyond the chain's,"
            + " API calls per settled transfer and each process's peak heap."})
public final class BenchCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  StackOptions stack;

  @Option(names = "--wallets", required = true, description = "Paying subwallets.")
  int wallets;

  @Option(names = "--transfers-per-wallet", defaultValue = "20",
      description = "Single-transfer requests per wallet (default ${DEFAULT-VALUE}).")
  int transfersPerWallet;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    Home home = Home.locate();
    RunOptions options = new RunOptions(wallets, stack.partitions, stack.blockInterval(), Optional.empty(),
        Optional.empty(), Optional.empty(), RunOptions.DEVNET_REQUESTS_PER_SECOND, false,
        Duration.ofSeconds(stack.timeoutSeconds), stack.dataDir(home), home, stack.settings);
    Clock clock = Clock.systemUTC();
    long started = clock.millis();
    try (StackRun run = StackRun.start(options, out, clock)) {
      run.fund();
      DemoLoad load = DemoLoad.bench(run.wallets(), transfersPerWallet, "bench-" + run.directory().runId(), false,
          clock.instant());
      List<Path> apiLogs = run.processes().children().stream().map(c -> c.spec().apiCallLog()).toList();
      int postgresPort = run.stack().postgres().port();
      ApiCallCounts before = ApiCallCounts.read(apiLogs);
      CpuTimes cpuBefore = CpuTimes.sample(run.processes(), postgresPort);
      Settling settling = run.settle(load);
      CpuTimes cpu = CpuTimes.sample(run.processes(), postgresPort).minus(cpuBefore);
      ApiCallCounts during = ApiCallCounts.read(apiLogs).minus(before);
      AddedLatency latency = AddedLatency.measure(settling.settlements(), run.wallets(),
          run.stack().devnet().orElseThrow(), run.blockClock().orElseThrow());
      out.println("stopping streams-app and chain-poller (their GC logs are complete then) ...");
      out.flush();
      run.stopChildren();
      LedgerAudit.Report audit = run.audit();
      Map<String, OptionalLong> heaps = new LinkedHashMap<>();
      run.processes().children().forEach(c -> heaps.put(c.name(), PeakHeap.fromGcLog(c.spec().gcLog())));
      BenchReport report = new BenchReport(wallets, stack.blockMillis, transfersPerWallet, settling, latency,
          run.blockClock().orElseThrow().skippedBlocks(), during, cpu, heaps, PeakHeap.launcher());
      Summary summary = new Summary(load, wallets, settling, audit, (clock.millis() - started) / 1000.0,
          run.directory());
      summary.print(out);
      report.print(out);
      return summary.exitCode();
    }
  }
}
