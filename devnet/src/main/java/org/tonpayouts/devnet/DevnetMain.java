package org.tonpayouts.devnet;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.LoggerFactory;
import org.tonpayouts.ton.address.InvalidAddressException;
import org.tonpayouts.ton.address.TonAddress;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs devnet as a process for the local stack:
 *
 * <pre>
 * mvn -B -pl devnet -am package -DskipTests
 * java -jar devnet/target/devnet.jar --port 8081 --fund EQ...=5000000000
 * </pre>
 *
 * Logs one line per block that applied anything; Ctrl-C stops it cleanly.
 */
@Command(name = "devnet", mixinStandardHelpOptions = true,
    description = "A local TON chain behind a toncenter-compatible API (/api/v2/) that validates WalletV4R2 messages.")
public final class DevnetMain implements Callable<Integer> {
  private static final String LOGBACK_CONFIG = "org/tonpayouts/devnet/devnet-logback.xml";

  @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to listen on (default ${DEFAULT-VALUE}).")
  String host;

  @Option(names = "--port", defaultValue = "8081", description = "Port to listen on (default ${DEFAULT-VALUE}).")
  int port;

  @Option(names = "--block-ms", defaultValue = "400", description = "Milliseconds between blocks (default ${DEFAULT-VALUE}).")
  long blockMs;

  @Option(names = "--seed", defaultValue = "0", description = "Seed of block hashes and fault decisions (default ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--fund", paramLabel = "ADDR=NANO",
      description = "Credit an address at start (repeatable); it stays uninitialized until a wallet deploys there.")
  List<String> fund = new ArrayList<>();

  @Option(names = "--fund-active", paramLabel = "ADDR=NANO",
      description = "Credit an address at start as a plain active account (a user's wallet; repeatable).")
  List<String> fundActive = new ArrayList<>();

  @Option(names = "--latency-ms", defaultValue = "0", description = "Fault: added latency per API request.")
  long latencyMs;

  @Option(names = "--rate-limit-probability", defaultValue = "0", description = "Fault: probability of HTTP 429.")
  double rateLimitProbability;

  @Option(names = "--rate-limit-next", defaultValue = "0", description = "Fault: HTTP 429 for the next N requests.")
  int rateLimitNext;

  @Option(names = "--rate-limit-scope", defaultValue = "ALL",
      description = "Fault: which requests the rate limit hits: ${COMPLETION-CANDIDATES} (SENDS: sendBoc and"
          + " sendBocReturnHash only; default ${DEFAULT-VALUE}).")
  Faults.RateLimitScope rateLimitScope;

  @Option(names = "--transport-error-probability", defaultValue = "0",
      description = "Fault: probability that an accepted sendBoc is queued and then its exchange fails.")
  double transportErrorProbability;

  @Option(names = "--transport-error-next", defaultValue = "0",
      description = "Fault: the next N accepted sendBoc exchanges fail after queueing.")
  int transportErrorNext;

  @Option(names = "--transport-error-mode", defaultValue = "CLOSE",
      description = "Fault: how the exchange fails: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}).")
  Faults.TransportError transportErrorMode;

  @Option(names = "--drop-probability", defaultValue = "0",
      description = "Fault: probability that sendBoc answers ok and the message never applies.")
  double dropProbability;

  @Option(names = "--drop-next", defaultValue = "0", description = "Fault: drop the next N accepted messages.")
  int dropNext;

  @Option(names = "--stale-blocks", defaultValue = "0", description = "Fault: stale state reads are K blocks behind.")
  int staleBlocks;

  @Option(names = "--stale-probability", defaultValue = "0", description = "Fault: probability of a stale state read.")
  double staleProbability;

  @Option(names = "--stale-next", defaultValue = "0", description = "Fault: the next N state reads are stale.")
  int staleNext;

  @Option(names = "--lag-blocks", defaultValue = "0",
      description = "Fault: the default node lags K blocks behind the chain (every read and sendBoc check).")
  int lagBlocks;

  @Option(names = "--lag-ms", defaultValue = "0",
      description = "Fault: how long the lag lasts from the start, in milliseconds (default 0: until cleared).")
  long lagMs;

  @Option(names = "--node", paramLabel = "NAME",
      description = "Also serve an API node NAME under /node/NAME/api/v2/ with its own faults (repeatable).")
  List<String> nodes = new ArrayList<>();

  public static void main(String[] args) {
    if (System.getProperty("logback.configurationFile") == null) {
      // before the first logger exists; a library jar must not ship a plain logback.xml
      System.setProperty("logback.configurationFile", LOGBACK_CONFIG);
    }
    DevnetMain main = new DevnetMain();
    CommandLine cli = new CommandLine(main).setCaseInsensitiveEnumValuesAllowed(true);
    int exit = cli.execute(args);
    if (exit != 0 || main.devnet == null) {
      System.exit(exit); // --help, --version or a bad argument
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Devnet devnet = main.devnet;
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      devnet.close();
      stopped.countDown();
    }, "devnet-shutdown"));
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Parses {@code args} like the command line and starts the devnet they describe (for tests and embedding). */
  public static Devnet start(String... args) {
    DevnetMain main = new DevnetMain();
    new CommandLine(main).setCaseInsensitiveEnumValuesAllowed(true).parseArgs(args);
    return main.startDevnet();
  }

  private Devnet devnet;

  /** Starts devnet and returns; {@link #main} keeps the process alive until Ctrl-C. */
  @Override
  public Integer call() {
    devnet = startDevnet();
    return 0;
  }

  private Devnet startDevnet() {
    Faults faults = new Faults(seed).apply(new Faults.Settings(latencyMs, rateLimitProbability, rateLimitNext,
        transportErrorProbability, transportErrorNext, transportErrorMode, dropProbability, dropNext,
        staleBlocks, staleProbability, staleNext, lagBlocks, lagMs, rateLimitScope));
    List<Credit> credits = new ArrayList<>();
    for (String spec : fund) {
      credits.add(Credit.parse(spec, false));
    }
    for (String spec : fundActive) {
      credits.add(Credit.parse(spec, true));
    }
    Devnet started = Devnet.builder()
        .host(host)
        .port(port)
        .blockInterval(Duration.ofMillis(blockMs))
        .seed(seed)
        .faults(faults)
        .start();
    for (Credit credit : credits) {
      started.fund(credit.address, credit.nano, credit.active);
    }
    for (String name : nodes) {
      try {
        started.node(name);
      } catch (IllegalArgumentException e) {
        started.close();
        throw new CommandLine.ParameterException(new CommandLine(new DevnetMain()), "bad --node: " + e.getMessage());
      }
    }
    LoggerFactory.getLogger(DevnetMain.class).info("devnet ready api={} admin={}/admin/state faults={}",
        started.apiUrl(), started.baseUrl(), faults.settings());
    return started;
  }

  private record Credit(TonAddress address, long nano, boolean active) {
    static Credit parse(String spec, boolean active) {
      int eq = spec.lastIndexOf('=');
      if (eq <= 0) {
        throw new CommandLine.ParameterException(new CommandLine(new DevnetMain()),
            "expected ADDR=NANO, got '" + spec + "'");
      }
      try {
        long nano = Long.parseLong(spec.substring(eq + 1).replace("_", ""));
        return new Credit(TonAddress.parse(spec.substring(0, eq)), nano, active);
      } catch (NumberFormatException | InvalidAddressException e) {
        throw new CommandLine.ParameterException(new CommandLine(new DevnetMain()),
            "bad --fund '" + spec + "': " + e.getMessage());
      }
    }
  }
}
