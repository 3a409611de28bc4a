package org.tonpayouts.local.bench;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.tonpayouts.local.stack.Home;
import org.tonpayouts.local.stack.RunOptions;
import org.tonpayouts.local.stack.StackOptions;
import org.tonpayouts.local.stack.StackRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code payouts bench}: the local stack on devnet under a load of single-transfer requests, every
 * wallet busy from the start, measured beside devnet's own capacity and a per-wallet-loop peer on
 * the same machine, optionally again with failing sends; prints every figure and the targets.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = {"Measures the pipeline on devnet: N single-transfer requests per wallet, all produced at once.",
        "Prints settled transfers/s against wallets / block interval and against devnet's own capacity (measured"
            + " in the same run with pre-signed messages), latency added beyond the chain's, API calls per settled"
            + " transfer by process and method, CPU per settled transfer and at idle, peak heaps, a per-wallet loop"
            + " (read seqno, sign, send, poll) on the same devnet for comparison, the same load paying a jetton"
            + " (USDT on devnet) beside the TON one, with --send-fault-rate the same load"
            + " with failing sends, and the targets of the issue."})
public final class BenchCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  StackOptions stack;

  @Option(names = "--wallets", required = true, description = "Paying subwallets.")
  int wallets;

  @Option(names = "--transfers-per-wallet", defaultValue = "20",
      description = "Single-transfer requests per wallet (default ${DEFAULT-VALUE}); also the peer's transfers and"
          + " the capacity measurement's messages per wallet.")
  int transfersPerWallet;

  @Option(names = "--warmup-transfers", defaultValue = "500",
      description = "Transfers paid before the measured load, spread over the wallets and not measured, so the JVMs"
          + " have compiled what is hot (default ${DEFAULT-VALUE}; 0: none).")
  int warmupTransfers;

  @Option(names = "--idle-s", defaultValue = "10",
      description = "Seconds of the idle window after the load drained, over which idle CPU is measured"
          + " (default ${DEFAULT-VALUE}).")
  long idleSeconds;

  @Option(names = "--send-fault-rate", defaultValue = "0", paramLabel = "<share>",
      description = "After the clean load, pay the same load again with this share of the children's sends failing"
          + " (half HTTP 429, half silently dropped; e.g. 0.1); 0: no fault phase (default).")
  double sendFaultRate;

  @Option(names = "--peer-poll-ms", defaultValue = "2000",
      description = "How long the peer's loop waits between seqno reads (default ${DEFAULT-VALUE}, as @ton/ton's"
          + " tillNextSeqno).")
  long peerPollMillis;

  @Option(names = "--client-in-flight", defaultValue = "64",
      description = "Requests the benchmark's own TON API clients (devnet's capacity sender, the peer) keep in flight"
          + " at most (default ${DEFAULT-VALUE}).")
  int clientInFlight;

  @Option(names = "--skip", split = ",", paramLabel = "<phase>", converter = PhaseConverter.class,
      description = "Leave phases out: capacity, idle, jetton, peer (comma-separated); a full run has them all.")
  List<Benchmark.Phase> skip = List.of();

  @Option(names = "--json", paramLabel = "<file>", description = "Also write every figure to this JSON file.")
  Path json;

  /** Phase names in any case ({@code --skip capacity,peer}). */
  static final class PhaseConverter implements ITypeConverter<Benchmark.Phase> {
    @Override
    public Benchmark.Phase convert(String value) {
      try {
        return Benchmark.Phase.valueOf(value.strip().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException("'" + value + "' is not a phase: capacity, idle, jetton or peer");
      }
    }
  }

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    Home home = Home.locate();
    Benchmark.Settings settings = new Benchmark.Settings(transfersPerWallet, warmupTransfers,
        Duration.ofSeconds(idleSeconds),
        new SendFaults(sendFaultRate), Duration.ofMillis(peerPollMillis), clientInFlight,
        skip.isEmpty() ? EnumSet.noneOf(Benchmark.Phase.class) : EnumSet.copyOf(skip));
    RunOptions options = new RunOptions(wallets, stack.partitions(), stack.blockInterval(), Optional.empty(),
        Optional.empty(), Optional.empty(), RunOptions.DEVNET_REQUESTS_PER_SECOND, false,
        Duration.ofSeconds(stack.timeoutSeconds()), stack.dataDir(home), home, stack.settings());
    Clock clock = Clock.systemUTC();
    long started = clock.millis();
    // the children log no line per API request here: the benchmark reads their meters
    try (StackRun run = StackRun.start(options, StackRun.Instances.ONE_EACH, out, clock, false)) {
      Benchmark.Outcome outcome = new Benchmark(run, clock, out).run(settings, started);
      outcome.summary().print(out);
      outcome.faultedSummary().ifPresent(s -> {
        out.println();
        out.println("The load with failing sends:");
        s.print(out);
      });
      outcome.report().print(out);
      if (json != null) {
        BenchJson.write(outcome.report(), json);
        out.printf("figures written to %s%n", json.toAbsolutePath());
        out.flush();
      }
      return outcome.exitCode();
    }
  }
}
