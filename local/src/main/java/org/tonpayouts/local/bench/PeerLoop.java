package org.tonpayouts.local.bench;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.local.measure.AddedLatency;
import org.tonpayouts.local.measure.ApiCallCounts;
import org.tonpayouts.local.measure.BlockClock;
import org.tonpayouts.local.measure.ChainBlocks;
import org.tonpayouts.local.measure.CpuTimes;
import org.tonpayouts.local.measure.LoadLatency;
import org.tonpayouts.local.measure.ProgressDisplay;
import org.tonpayouts.local.stack.RunOptions;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.TonApiClient;
import org.tonpayouts.ton.api.TonApiConfig;
import org.tonpayouts.ton.wallet.SignedTransfer;

/**
 * The benchmark's side-by-side peer: the simplest correct way to pay from many wallets without a
 * pipeline, a loop per wallet that repeats {read the seqno ({@code getWalletInformation}), sign,
 * {@code sendBocReturnHash}, wait and read the seqno again until it moves}. Every wallet runs its
 * loop at the same time on the same asynchronous TON API client the apps use, against the same
 * devnet. A send that failed is made again with the same message after the next read (safe: it can
 * apply once). A message not applied by its {@code valid_until} (plus a margin) has expired
 * unapplied: the loop starts that transfer over with a fresh read, so nothing is paid twice.
 *
 * <p>How long it waits between reads decides most of its speed; the default follows the TON SDK's
 * own helper ({@code tillNextSeqno} in {@code @ton/ton} waits 2 s between reads).
 */
public final class PeerLoop {
  private static final Logger log = LoggerFactory.getLogger(PeerLoop.class);
  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofMillis(2000);
  /** Each message's {@code valid_until}: a minute, as wallets and SDKs commonly use. */
  private static final Duration VALID_FOR = Duration.ofSeconds(60);
  /** After {@code valid_until} the wallet rejects the message; a few seconds more covers the block that was open. */
  private static final Duration EXPIRY_MARGIN = Duration.ofSeconds(5);

  /**
   * What the peer achieved.
   *
   * @param settled transfers it saw applied
   * @param elapsedMillis from the start of the first loop to the last transfer seen applied
   * @param latency beyond the chain's, measured as the pipeline's (seen applied instead of settled)
   * @param cycle per transfer, from the start of its loop iteration to seeing it applied
   * @param calls its API requests
   * @param restarts transfers started over after their message expired unapplied
   * @param cpu CPU time of every process while it ran (the peer runs in the launcher)
   */
  public record Result(int wallets, int perWallet, int settled, long elapsedMillis, LoadLatency latency,
                       AddedLatency cycle, ApiCallCounts calls, long sendFailures, long restarts, CpuTimes cpu,
                       Duration pollInterval, int maxInFlight, Optional<String> stoppedBecause) {
    public double perSecond() {
      return elapsedMillis <= 0 ? 0 : settled * 1000.0 / elapsedMillis;
    }

    public double apiCallsPerTransfer() {
      return settled == 0 ? 0 : (double) calls.total() / settled;
    }
  }

  private final Devnet devnet;
  private final BlockClock blocks;
  private final Supplier<CpuTimes> cpuTimes;
  private final Clock clock;
  private final PrintWriter out;
  private final Duration pollInterval;
  private final int maxInFlight;

  /**
   * @param blocks the block times of {@code devnet}, for the latencies
   * @param cpuTimes samples the CPU time of the processes to account ({@link CpuTimes#sample})
   * @param pollInterval how long the loop waits between seqno reads
   * @param maxInFlight requests in flight at most
   */
  public PeerLoop(Devnet devnet, BlockClock blocks, Supplier<CpuTimes> cpuTimes, Clock clock, PrintWriter out,
      Duration pollInterval, int maxInFlight) {
    this.devnet = devnet;
    this.blocks = blocks;
    this.cpuTimes = cpuTimes;
    this.clock = clock;
    this.out = out;
    this.pollInterval = pollInterval;
    this.maxInFlight = maxInFlight;
  }

  /** Funds {@code wallets} and pays {@code perWallet} transfers from each, all wallets at once. */
  public Result run(FreshWallets wallets, int perWallet, Duration timeout) throws InterruptedException {
    wallets.fund(devnet);
    out.printf("peer: %d wallets x %d transfers, a loop per wallet (read seqno, sign, send, read every %d ms until"
        + " the seqno moves) ...%n", wallets.count(), perWallet, pollInterval.toMillis());
    out.flush();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    TonApiConfig config = TonApiConfig.of(devnet.node(DevnetCapacity.NODE).apiUrl())
        .withRequestsPerSecond(RunOptions.DEVNET_REQUESTS_PER_SECOND).withMaxInFlight(maxInFlight);
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "peer-timer");
      t.setDaemon(true);
      return t;
    });
    try (TonApiClient api = new TonApiClient(config, registry)) {
      Loops loops = new Loops(wallets, api, timer);
      CpuTimes cpuBefore = cpuTimes.get();
      long started = clock.millis();
      List<CompletableFuture<Void>> all = new ArrayList<>();
      for (int w = 0; w < wallets.count(); w++) {
        all.add(loops.wallet(w, perWallet));
      }
      Optional<String> stopped = awaitAll(all, loops, (long) wallets.count() * perWallet, timeout);
      CpuTimes cpu = cpuTimes.get().minus(cpuBefore);
      loops.stop();
      List<Seen> seen = List.copyOf(loops.seen);
      long last = seen.stream().mapToLong(Seen::atMillis).max().orElse(started);
      Result result = new Result(wallets.count(), perWallet, seen.size(), last - started, latency(seen),
          AddedLatency.of(List.copyOf(loops.cycles)), ApiCallCounts.fromRegistry("peer", registry),
          loops.sendFailures.get(),
          loops.restarts.get(), cpu, pollInterval, maxInFlight, stopped);
      log.info("peer done wallets={} settled={} elapsed_ms={} per_second={} restarts={}", wallets.count(),
          result.settled(), result.elapsedMillis(), String.format("%.1f", result.perSecond()), result.restarts());
      return result;
    } finally {
      timer.shutdownNow();
    }
  }

  /** A message the peer saw applied: its wallet, its hash and when the read that saw it returned. */
  private record Seen(TonAddress wallet, String messageHash, long atMillis) {}

  private LoadLatency latency(List<Seen> seen) {
    ChainBlocks chain = new ChainBlocks(devnet);
    List<LoadLatency.Landing> landings = new ArrayList<>();
    for (Seen s : seen) {
      landings.add(new LoadLatency.Landing(s.wallet(), chain.byMessage(s.wallet(), s.messageHash()), s.atMillis()));
    }
    return LoadLatency.measure(landings, blocks);
  }

  private Optional<String> awaitAll(List<CompletableFuture<Void>> all, Loops loops, long total, Duration timeout)
      throws InterruptedException {
    CompletableFuture<Void> every = CompletableFuture.allOf(all.toArray(CompletableFuture[]::new));
    long deadline = System.nanoTime() + timeout.toNanos();
    try (ProgressDisplay progress = ProgressDisplay.open("peer", total, out)) {
      while (true) {
        progress.update(loops.settled.get(), "restarts=" + loops.restarts.get());
        try {
          every.get(250, TimeUnit.MILLISECONDS);
          progress.update(loops.settled.get(), "restarts=" + loops.restarts.get());
          return Optional.empty();
        } catch (TimeoutException e) {
          if (System.nanoTime() > deadline) {
            return Optional.of("the peer did not pay every transfer within " + timeout.toSeconds() + " s");
          }
        } catch (ExecutionException e) {
          return Optional.of("a peer loop failed: " + e.getCause());
        }
      }
    }
  }

  /** The loops of all wallets and what they have seen so far. */
  private final class Loops {
    private final FreshWallets wallets;
    private final TonApiClient api;
    private final ScheduledExecutorService timer;
    private final ConcurrentLinkedQueue<Seen> seen = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Long> cycles = new ConcurrentLinkedQueue<>();
    /** How many are in {@link #seen}: a queue's size() walks it. */
    private final AtomicInteger settled = new AtomicInteger();
    private final AtomicLong sendFailures = new AtomicLong();
    private final AtomicLong restarts = new AtomicLong();
    private final AtomicBoolean stopping = new AtomicBoolean();

    Loops(FreshWallets wallets, TonApiClient api, ScheduledExecutorService timer) {
      this.wallets = wallets;
      this.api = api;
      this.timer = timer;
    }

    CompletableFuture<Void> wallet(int w, int perWallet) {
      CompletableFuture<Void> loop = CompletableFuture.completedFuture(null);
      for (int k = 0; k < perWallet; k++) {
        int n = k;
        loop = loop.thenCompose(v -> transfer(w, n, clock.millis()));
      }
      return loop;
    }

    /** One iteration: fresh seqno read, sign, send, read until the seqno moves (or the message expired). */
    private CompletableFuture<Void> transfer(int w, int n, long startedMillis) {
      long id = wallets.wallets().subwalletId(w);
      TonAddress address = wallets.wallets().address(id);
      return readSeqno(address).thenCompose(seqno -> {
        Instant validUntil = clock.instant().plus(VALID_FOR);
        SignedTransfer message = wallets.signer().sign(id, seqno, validUntil, List.of(wallets.order(w, n, "peer")));
        return send(message)
            .thenCompose(sent -> awaitMove(message, sent, validUntil))
            .thenCompose(moved -> {
              if (moved) {
                long now = clock.millis();
                seen.add(new Seen(address, message.messageHash(), now));
                settled.incrementAndGet();
                cycles.add(now - startedMillis);
                return CompletableFuture.completedFuture(null);
              }
              restarts.incrementAndGet();
              log.info("peer message expired unapplied, starting the transfer over wallet={} seqno={} hash={}",
                  address, seqno, message.messageHash());
              return transfer(w, n, startedMillis);
            });
      });
    }

    /** Sends the message; true when the API took it (a failed send may still have been queued: the reads tell). */
    private CompletableFuture<Boolean> send(SignedTransfer message) {
      return call(() -> api.sendBocReturnHash(message.boc())).handle((sent, error) -> {
        if (error != null) {
          sendFailures.incrementAndGet();
          log.info("peer send failed wallet={} seqno={} hash={} error={}", message.wallet(), message.seqno(),
              message.messageHash(), error.getCause() != null ? error.getCause().toString() : error.toString());
        }
        return error == null;
      });
    }

    /**
     * Reads after each poll interval until the seqno passes the message's (true) or the message has
     * expired (false); a send that failed is made again, with the same message, after each read that
     * finds the seqno unmoved (re-sending the same message is safe: it can apply once).
     */
    private CompletableFuture<Boolean> awaitMove(SignedTransfer message, boolean sent, Instant validUntil) {
      return after(pollInterval).thenCompose(v -> readSeqno(message.wallet())).thenCompose(now -> {
        if (now > message.seqno()) {
          return CompletableFuture.completedFuture(true);
        }
        if (clock.instant().isAfter(validUntil.plus(EXPIRY_MARGIN))) {
          return CompletableFuture.completedFuture(false);
        }
        if (!sent && clock.instant().isBefore(validUntil)) {
          return send(message).thenCompose(again -> awaitMove(message, again, validUntil));
        }
        return awaitMove(message, sent, validUntil);
      });
    }

    /** The wallet's seqno; a read that fails (after the client's own retries) is tried again after a poll interval. */
    private CompletableFuture<Long> readSeqno(TonAddress address) {
      return call(() -> api.getSeqno(address)).handle((seqno, error) -> {
        if (error == null) {
          return CompletableFuture.completedFuture(seqno);
        }
        log.debug("peer read failed wallet={} error={}", address, error.toString());
        return after(pollInterval).thenCompose(v -> readSeqno(address));
      }).thenCompose(f -> f);
    }

    private <T> CompletableFuture<T> call(Supplier<CompletableFuture<T>> request) {
      if (stopping.get()) {
        return CompletableFuture.failedFuture(new IllegalStateException("the peer has stopped"));
      }
      return request.get();
    }

    private CompletableFuture<Void> after(Duration delay) {
      CompletableFuture<Void> done = new CompletableFuture<>();
      if (stopping.get()) {
        done.completeExceptionally(new IllegalStateException("the peer has stopped"));
        return done;
      }
      timer.schedule(() -> done.complete(null), delay.toMillis(), TimeUnit.MILLISECONDS);
      return done;
    }

    void stop() {
      stopping.set(true);
    }
  }
}
