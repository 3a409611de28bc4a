package org.tonpayouts.local.soak;

import java.io.PrintWriter;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.tonpayouts.local.stack.Home;
import org.tonpayouts.local.stack.RunOptions;
import org.tonpayouts.local.stack.StackOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code payouts soak}: the chaos soak. Two streams-app and two chain-poller processes on devnet
 * pay a load while they are killed, paused and served by a faulty API; then an auditor reads the
 * chain and says whether anything was paid twice, lost, or paid that nobody asked for.
 */
@Command(name = "soak", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Runs the local stack with two streams-app and two chain-poller processes on shared topics and pays"
        + " a load of single and multi-leg requests (some over the wallet's balance, some exact duplicates, some"
        + " request ids reused with other content) while, at random moments drawn from the seed, each process is"
        + " killed with kill -9 and restarted (on the same or a wiped state directory), a streams-app instance is"
        + " paused with SIGSTOP past its session timeout and resumed (a zombie), and every process's devnet API node"
        + " injects faults: 429s, transport errors after acceptance, dropped messages, stale reads, lag and latency"
        + " episodes, and a foreign signer pays from the wallets with their current seqno (some of it to a payee a"
        + " wallet pays repeatedly, ahead of our transfer in flight to it, taking its seqno); right after a"
        + " chain-poller kill a foreign payment takes the seqno of a transfer in flight and its wallet is flooded with"
        + " inbound 1-nanoton transfers (dust) on top of it, and keeps receiving them for a while. What the apps stand"
        + " on fails too: Kafka is a cluster of three KRaft nodes (replication 3, min.insync.replicas 2) whose nodes"
        + " are killed with kill -9 (the controller, a busy partition's leader, any node) and restarted in a rolling"
        + " restart, PostgreSQL is stopped and started, and frozen (SIGSTOP) and resumed, and a process's own API"
        + " node goes down while its backup node carries on; the report gives the recovery time of each kind.",
        "Then every transfer must settle, and an auditor reads devnet's chain through its API, the ledger and the"
            + " topics: no transfer landed twice, every transfer has exactly one terminal settlement, every SETTLED"
            + " one landed as requested, legs in order, seqnos consecutive, ledger = chain, nothing paid that nobody"
            + " asked for. Exit code 0 only when it finds no violation.",
        "Long run: ./payouts soak --transfers 20000 --wallets 200 --window-s 900 --streams-app-kills 40"
            + " --poller-kills 40 --fault-rate 0.05 --broker-kills 6 --rolling-restarts 5 --ledger-stops 5"
            + " --ledger-pauses 5 --provider-outages 5"})
public final class SoakCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = "--transfers", defaultValue = "2000", description = "Transfers to pay (default ${DEFAULT-VALUE}).")
  int transfers;

  @Option(names = "--wallets", defaultValue = "50", description = "Paying subwallets (default ${DEFAULT-VALUE}).")
  int wallets;

  @Option(names = "--window-s", defaultValue = "120",
      description = "Seconds over which the load is produced; every kill, pause and fault episode falls inside"
          + " (default ${DEFAULT-VALUE}).")
  long windowSeconds;

  @Option(names = "--seed", description = "Seed of every random choice (default: a random one, printed).")
  Long seed;

  @Option(names = "--streams-app-kills", defaultValue = "3",
      description = "kill -9 of streams-app processes in total, spread over the two instances (default"
          + " ${DEFAULT-VALUE}).")
  int streamsAppKills;

  @Option(names = "--poller-kills", defaultValue = "3",
      description = "kill -9 of chain-poller processes in total, spread over the two instances (default"
          + " ${DEFAULT-VALUE}).")
  int pollerKills;

  @Option(names = "--zombies", defaultValue = "1",
      description = "SIGSTOP of a streams-app instance past its session timeout, then SIGCONT (default"
          + " ${DEFAULT-VALUE}).")
  int zombies;

  @Option(names = "--wipe-rate", defaultValue = "0.5",
      description = "Share of restarts that find their state directory wiped (default ${DEFAULT-VALUE}).")
  double wipeRate;

  @Option(names = "--fault-rate", defaultValue = "0.05",
      description = "Rate of every devnet fault unless set below (default ${DEFAULT-VALUE}): the probability of a"
          + " 429, a transport error, a drop or a stale read per API request; the share of the window with a lagging"
          + " or slow node; foreign payments per transfer.")
  double faultRate;

  @Option(names = "--rate-limit-rate", description = "Probability of HTTP 429 per API request.")
  Double rateLimitRate;

  @Option(names = "--transport-error-rate",
      description = "Probability that an accepted sendBoc message is queued and the exchange then fails.")
  Double transportErrorRate;

  @Option(names = "--drop-rate", description = "Probability that sendBoc answers ok and the message never applies.")
  Double dropRate;

  @Option(names = "--stale-rate", description = "Probability that a state read answers as of 2 blocks ago.")
  Double staleRate;

  @Option(names = "--lag-rate", description = "Share of the window during which one node lags 2 to 4 blocks behind.")
  Double lagRate;

  @Option(names = "--latency-rate", description = "Share of the window during which one node answers 100 to 500 ms late.")
  Double latencyRate;

  @Option(names = "--foreign-rate", description = "Foreign payments (someone else using the key) per transfer.")
  Double foreignRate;

  @Option(names = "--dust-floods", defaultValue = "1",
      description = "Dust floods, each on one wallet right after a chain-poller kill, on top of a foreign payment that"
          + " took the seqno of its transfer in flight (default ${DEFAULT-VALUE}).")
  int dustFloods;

  @Option(names = "--dust-burst", defaultValue = "600",
      description = "Inbound 1-nanoton transfers a flood sends at once (default ${DEFAULT-VALUE}; a chain-poller reads"
          + " 16 pages of 32 a round).")
  int dustBurst;

  @Option(names = "--dust-per-minute", defaultValue = "1000",
      description = "Inbound 1-nanoton transfers a minute after the burst (default ${DEFAULT-VALUE}).")
  int dustPerMinute;

  @Option(names = "--dust-s", defaultValue = "40",
      description = "Seconds the steady dust goes on after the burst (default ${DEFAULT-VALUE}).")
  long dustSeconds;

  @Option(names = "--broker-kills", defaultValue = "3",
      description = "kill -9 of a Kafka node, restarted 1 to 5 s later: the active controller, a busy partition's"
          + " leader, any node, in turn (default ${DEFAULT-VALUE}).")
  int brokerKills;

  @Option(names = "--rolling-restarts", defaultValue = "1",
      description = "Rolling restarts of the three Kafka nodes, each back in sync before the next (default"
          + " ${DEFAULT-VALUE}).")
  int rollingRestarts;

  @Option(names = "--ledger-stops", defaultValue = "1",
      description = "PostgreSQL stopped and started again on the same port (default ${DEFAULT-VALUE}).")
  int ledgerStops;

  @Option(names = "--ledger-down-s", defaultValue = "5",
      description = "Seconds PostgreSQL stays stopped (default ${DEFAULT-VALUE}).")
  long ledgerDownSeconds;

  @Option(names = "--ledger-pauses", defaultValue = "1",
      description = "PostgreSQL frozen with SIGSTOP, then SIGCONT (default ${DEFAULT-VALUE}).")
  int ledgerPauses;

  @Option(names = "--ledger-pause-s", defaultValue = "15",
      description = "Seconds PostgreSQL stays frozen: past Kafka Streams' 10 s transaction timeout (default"
          + " ${DEFAULT-VALUE}).")
  long ledgerPauseSeconds;

  @Option(names = "--provider-outages", defaultValue = "2",
      description = "A process's own API node answering 503 to everything while its backup node carries on (default"
          + " ${DEFAULT-VALUE}).")
  int providerOutages;

  @Option(names = "--provider-down-s", defaultValue = "30",
      description = "Seconds a provider outage lasts (default ${DEFAULT-VALUE}).")
  long providerDownSeconds;

  @Option(names = "--jetton-share", defaultValue = "0.2",
      description = "Share of the transfers that pay the run's jetton (USDT on devnet) instead of TON, to fresh"
          + " owners (default ${DEFAULT-VALUE}; 0: TON only).")
  double jettonShare;

  @Option(names = "--jetton-refusing-payees", defaultValue = "1",
      description = "Jetton owners whose jetton wallet refuses every transfer (locked for receiving before the"
          + " load): those transfers must end FAILED with the jettons back (default ${DEFAULT-VALUE}).")
  int jettonRefusingPayees;

  @Option(names = "--session-timeout-ms", defaultValue = "10000",
      description = "The apps' streams.session.timeout.ms: how long a killed or paused instance keeps its partitions"
          + " (default ${DEFAULT-VALUE}; Kafka's is 45000).")
  long sessionTimeoutMs;

  @Mixin
  StackOptions stack;

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    Home home = Home.locate();
    SoakOptions options = options();
    Map<String, String> settings = new LinkedHashMap<>(options.childDefaults());
    settings.putAll(stack.settings());
    RunOptions run = new RunOptions(wallets, stack.partitions(), stack.blockInterval(), Optional.empty(),
        Optional.empty(), Optional.empty(), RunOptions.DEVNET_REQUESTS_PER_SECOND, false, options.drainTimeout(),
        stack.dataDir(home), home, settings);
    SoakReport report = Soak.run(options, run, out, Clock.systemUTC());
    report.print(out);
    return report.exitCode();
  }

  SoakOptions options() {
    SoakOptions.FaultRates rates = new SoakOptions.FaultRates(or(rateLimitRate), or(transportErrorRate), or(dropRate),
        or(staleRate), or(lagRate), or(latencyRate), or(foreignRate));
    Duration window = Duration.ofSeconds(windowSeconds);
    // the drain: long enough for the slowest wallet's queue and for a transfer a foreign signer overtook to conclude
    Duration drain = stack.timeoutSeconds() > 0 ? Duration.ofSeconds(stack.timeoutSeconds())
        : Duration.ofSeconds(300).plus(window.dividedBy(2));
    return new SoakOptions(transfers, wallets, window, seed != null ? seed : new SecureRandom().nextLong() >>> 16,
        streamsAppKills, pollerKills, zombies, wipeRate, rates, Duration.ofMillis(sessionTimeoutMs), drain,
        new SoakOptions.Dust(dustFloods, dustBurst, dustPerMinute, Duration.ofSeconds(dustSeconds)),
        new SoakOptions.Infrastructure(brokerKills, rollingRestarts, ledgerStops, ledgerPauses, providerOutages,
            Duration.ofSeconds(ledgerDownSeconds), Duration.ofSeconds(ledgerPauseSeconds),
            Duration.ofSeconds(providerDownSeconds)),
        new SoakOptions.Jettons(jettonShare, jettonRefusingPayees));
  }

  private double or(Double rate) {
    return rate != null ? rate : faultRate;
  }
}
