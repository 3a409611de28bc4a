package org.tonpayouts.local.bench;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.local.measure.ApiCallCounts;
import org.tonpayouts.local.measure.CpuTimes;
import org.tonpayouts.local.measure.ProgressDisplay;
import org.tonpayouts.local.stack.RunOptions;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.wallet.SignedTransfer;

/**
 * devnet's own capacity on this machine: how many transfers per second it applies when nothing but
 * sending stands between it and the wallets. Every message is signed before the clock starts (one
 * per wallet per round, seqnos 0, 1, 2, ...); then each wallet's next message is sent through
 * devnet's HTTP API, with the same asynchronous client the apps use, as soon as the block holding
 * its previous one is applied, which the launcher sees in-process (no API reads). The applied
 * transfers per second are the ceiling any client of this devnet on this machine can reach, the
 * figure a pipeline's throughput is read against.
 */
public final class DevnetCapacity {
  private static final Logger log = LoggerFactory.getLogger(DevnetCapacity.class);
  /** The API node the benchmark's own clients use: no faults, separate from the children's. */
  public static final String NODE = "bench";

  /**
   * What the measurement found.
   *
   * @param wallets wallets sending, one message in flight each
   * @param rounds messages per wallet
   * @param applied messages applied on chain by the end
   * @param elapsedMillis from the first send to the block that applied the last message
   * @param signMillis signing every message beforehand (not part of the elapsed time)
   * @param sendFailures sends that failed and were sent again
   * @param calls the sender's API requests
   * @param cpu CPU time of every process while it ran
   * @param stoppedBecause why it ended before every message applied
   */
  public record Result(int wallets, int rounds, int applied, long elapsedMillis, long signMillis, long sendFailures,
                       ApiCallCounts calls, CpuTimes cpu, int maxInFlight, Optional<String> stoppedBecause) {
    /** Applied transfers per second. */
    public double perSecond() {
      return elapsedMillis <= 0 ? 0 : applied * 1000.0 / elapsedMillis;
    }
  }

  private final Devnet devnet;
  private final Supplier<CpuTimes> cpuTimes;
  private final Clock clock;
  private final PrintWriter out;
  private final int maxInFlight;

  /**
   * @param cpuTimes samples the CPU time of the processes to account ({@link CpuTimes#sample})
   * @param maxInFlight sends in flight at most
   */
  public DevnetCapacity(Devnet devnet, Supplier<CpuTimes> cpuTimes, Clock clock, PrintWriter out, int maxInFlight) {
    this.devnet = devnet;
    this.cpuTimes = cpuTimes;
    this.clock = clock;
    this.out = out;
    this.maxInFlight = maxInFlight;
  }

  /** Funds {@code wallets}, signs {@code rounds} messages for each, then sends and measures. */
  public Result measure(FreshWallets wallets, int rounds) throws InterruptedException {
    wallets.fund(devnet);
    int n = wallets.count();
    long signStart = clock.millis();
    // valid long enough for the slowest run the deadline allows; devnet's clock is ours
    Duration deadline = devnet.blockInterval().multipliedBy(20L * rounds).plusSeconds(60);
    Instant validUntil = clock.instant().plus(deadline).plusSeconds(60);
    List<SignedTransfer[]> messages = new ArrayList<>(n);
    for (int w = 0; w < n; w++) {
      long id = wallets.wallets().subwalletId(w);
      SignedTransfer[] chain = new SignedTransfer[rounds];
      for (int k = 0; k < rounds; k++) {
        chain[k] = wallets.signer().sign(id, k, validUntil, List.of(wallets.order(w, k, "capacity")));
      }
      messages.add(chain);
    }
    long signMillis = clock.millis() - signStart;
    out.printf("devnet capacity: %d wallets x %d pre-signed messages (signed in %.1f s), sending one per wallet per"
        + " block ...%n", n, rounds, signMillis / 1000.0);
    out.flush();

    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    TonApiConfig config = TonApiConfig.of(devnet.node(NODE).apiUrl())
        .withRequestsPerSecond(RunOptions.DEVNET_REQUESTS_PER_SECOND).withMaxInFlight(maxInFlight);
    try (TonApiClient api = new TonApiClient(config, registry)) {
      Sender sender = new Sender(api);
      return sendAll(wallets, rounds, messages, sender, registry, deadline, signMillis);
    }
  }

  private Result sendAll(FreshWallets wallets, int rounds, List<SignedTransfer[]> messages, Sender sender,
      SimpleMeterRegistry registry, Duration deadline, long signMillis) throws InterruptedException {
    int n = wallets.count();
    TonAddress[] addresses = new TonAddress[n];
    long[] inFlight = new long[n];
    for (int w = 0; w < n; w++) {
      addresses[w] = wallets.wallets().address(wallets.wallets().subwalletId(w));
    }
    CpuTimes cpuBefore = cpuTimes.get();
    long started = clock.millis();
    long giveUpAt = started + deadline.toMillis();
    for (int w = 0; w < n; w++) {
      sender.send(w, messages.get(w)[0]);
    }
    int applied = 0;
    int walletsDone = 0;
    long lastApplied = started;
    Optional<String> stopped = Optional.empty();
    boolean[] done = new boolean[n];
    long lastBlock = devnet.masterchainSeqno();
    try (ProgressDisplay progress = ProgressDisplay.open("devnet capacity", (long) n * rounds, out)) {
      while (walletsDone < n) {
        // a pass slower than a block goes straight on: waiting would let a block go by unused
        if (devnet.masterchainSeqno() == lastBlock) {
          try {
            devnet.awaitBlocks(1);
          } catch (IllegalStateException e) {
            stopped = Optional.of("devnet produced no block: " + e.getMessage());
            break;
          }
        }
        lastBlock = devnet.masterchainSeqno();
        long now = clock.millis();
        for (int w = 0; w < n; w++) {
          if (done[w]) {
            continue;
          }
          long seqno = devnet.seqno(addresses[w]);
          if (seqno <= inFlight[w]) {
            continue;
          }
          applied += (int) (seqno - inFlight[w]);
          inFlight[w] = seqno;
          lastApplied = now;
          if (seqno >= rounds) {
            done[w] = true;
            walletsDone++;
          } else {
            sender.send(w, messages.get(w)[(int) seqno]);
          }
        }
        // a failed send is sent again as it was: the same message can apply only once
        Integer failed;
        while ((failed = sender.failed.poll()) != null) {
          if (!done[failed] && inFlight[failed] < rounds) {
            sender.send(failed, messages.get(failed)[(int) inFlight[failed]]);
          }
        }
        progress.update(applied, "");
        if (now > giveUpAt) {
          stopped = Optional.of("not every message applied within " + deadline.toSeconds() + " s");
          break;
        }
      }
    }
    CpuTimes cpu = cpuTimes.get().minus(cpuBefore);
    Result result = new Result(n, rounds, applied, lastApplied - started, signMillis, sender.failures,
        ApiCallCounts.fromRegistry("capacity", registry), cpu, maxInFlight, stopped);
    log.info("devnet capacity wallets={} rounds={} applied={} elapsed_ms={} per_second={} send_failures={}", n, rounds,
        applied, result.elapsedMillis(), String.format("%.1f", result.perSecond()), sender.failures);
    return result;
  }

  /** Sends through the bounded client; failures are queued for the measuring thread to send again. */
  private static final class Sender {
    private final TonApiClient api;
    private final ConcurrentLinkedQueue<Integer> failed = new ConcurrentLinkedQueue<>();
    private volatile long failures;

    Sender(TonApiClient api) {
      this.api = api;
    }

    void send(int wallet, SignedTransfer message) {
      api.sendBocReturnHash(message.boc()).whenComplete((sent, error) -> {
        if (error != null) {
          synchronized (this) {
            failures++;
          }
          log.info("capacity send failed, sending it again wallet={} seqno={} error={}", message.wallet(), message.seqno(),
              error.toString());
          failed.add(wallet);
        }
      });
    }
  }
}
