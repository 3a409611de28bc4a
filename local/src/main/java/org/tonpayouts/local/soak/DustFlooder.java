package org.tonpayouts.local.soak;

import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.local.audit.TransferRef;
import org.tonpayouts.local.stack.WalletSet;
import org.tonpayouts.ton.address.TonAddress;

/**
 * Carries out the plan's {@link ChaosPlan.DustFlood}s on a thread of its own: sends one wallet
 * 1-nanoton transfers from devnet's faucet, as anyone can, each one more inbound transaction on
 * the wallet's account. First a burst, from the moment the planned chain-poller is down, on the
 * wallet of a transfer in flight whose seqno the {@link ForeignSigner} has just taken: that
 * transfer's verdict rests on the transaction that took its seqno (it can only be reconciled), and
 * only a scan of the wallet's own history reaches it, once the transfer's {@code valid_until}
 * passed (the block feed vouches for applied messages, not for this). The burst and the steady
 * stream after it (paced by the clock) bury that transaction under more transactions than a
 * poller reads in one round. The wallet has to keep paying throughout: the steady stream goes on
 * past its planned length (up to {@value #STEADY_STRETCH} times it) until the wallet has paid
 * under it.
 */
final class DustFlooder implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DustFlooder.class);
  /** What each dust transfer credits. */
  static final long DUST_NANO = 1;
  /** How often to look whether the chain-poller is down yet, and for a transfer in flight. */
  private static final Duration LOOK_EVERY = Duration.ofMillis(20);
  /** How long to wait for the kill the flood is planned at (it follows at once); then it goes on anyway. */
  private static final Duration KILL_WAIT = Duration.ofSeconds(10);
  /**
   * How long to look for a transfer in flight (after a streams-app kill nothing is signed until
   * its partitions run again); then the burst goes to the planned wallet.
   */
  private static final Duration AIM_FOR = Duration.ofSeconds(30);
  /** A message signed this recently and not applied yet is in flight, its streams-app up. */
  private static final Duration FRESH = Duration.ofSeconds(2);
  /** What the foreign payment that takes the buried transfer's seqno pays {@link ForeignSigner#DESTINATION}. */
  private static final long FRONT_RUN_NANO = 1_500_000L;
  /** How long to wait for the foreign payment to apply (it does in the next block). */
  private static final Duration APPLY_WAIT = Duration.ofSeconds(5);
  /**
   * The steady part goes on past its planned length, up to this many times it, until the wallet has
   * paid under it: a stall of the whole service (a broker or the ledger away, which holds every
   * wallet) must not leave the flood without the one thing it is there to show.
   */
  static final int STEADY_STRETCH = 3;

  /**
   * One flood as it happened.
   *
   * @param buried the transfer in flight whose seqno the foreign payment {@code frontRun} took
   *     just before the burst; null when none was found in flight (the burst went to the planned
   *     wallet, and there was no front-run)
   * @param burstWhilePollerDown whether the planned chain-poller was down (not yet ready again)
   *     when the burst was done
   * @param seqnoAtStart the wallet's seqno when the burst began
   * @param seqnoAtEnd the wallet's seqno when the flood ended: it applied the messages in between
   */
  record Flood(ChaosPlan.DustFlood planned, long subwalletId, TonAddress wallet, TransferRef buried,
               ForeignSigner.Attempt frontRun, int burst, boolean burstWhilePollerDown, int steady, double seconds,
               long seqnoAtStart, long seqnoAtEnd) {
    int total() {
      return burst + steady;
    }
  }

  private final Devnet devnet;
  private final SoakLedger ledger;
  private final ForeignSigner foreign;
  private final WalletSet wallets;
  private final Predicate<String> down;
  /** Which requests' transfers may be buried (by request id). */
  private final Predicate<String> aimable;
  private final Clock clock;
  private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "soak-dust-flood");
    t.setDaemon(true);
    return t;
  });
  private final StartedActs<Flood> started = new StartedActs<>();

  /** @param down whether the child process of that name is down now (not running, or not ready yet) */
  DustFlooder(Devnet devnet, SoakLedger ledger, ForeignSigner foreign, WalletSet wallets, Predicate<String> down,
      Predicate<String> aimable, Clock clock) {
    this.aimable = aimable;
    this.devnet = devnet;
    this.ledger = ledger;
    this.foreign = foreign;
    this.wallets = wallets;
    this.down = down;
    this.clock = clock;
  }

  /** Starts a flood; returns at once. */
  void start(ChaosPlan.DustFlood planned) {
    CompletableFuture<Flood> done = started.start();
    long killWaitEnds = clock.millis() + KILL_WAIT.toMillis();
    Runnable aim = new Runnable() {
      private long aimSince = -1;

      @Override
      public void run() {
        try {
          long now = clock.millis();
          if (aimSince < 0 && (planned.whileDown() == null || down.test(planned.whileDown()) || now >= killWaitEnds)) {
            aimSince = now;
          }
          if (aimSince >= 0 && burstOnTransferInFlight(planned, done)) {
            return;
          }
          if (aimSince >= 0 && now >= aimSince + AIM_FOR.toMillis()) {
            log.warn("dust flood found no transfer in flight within {} s; flooding the planned wallet",
                AIM_FOR.toSeconds());
            burst(planned, wallets.subwalletId(planned.walletIndex()), null, null, done);
            return;
          }
          executor.schedule(this, LOOK_EVERY.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
          log.error("dust flood failed before its steady part planned={}", planned, e);
          done.completeExceptionally(e);
        }
      }
    };
    executor.execute(aim);
  }

  /**
   * Bursts on the wallet of a transfer in flight (the planned wallet first), once a foreign payment
   * took its seqno.
   *
   * @return false when no transfer was in flight, or the foreign payment did not take its seqno
   *     (the message applied first: the foreign payment then used a seqno of nobody's, and the
   *     wallet is looked for again)
   */
  private boolean burstOnTransferInFlight(ChaosPlan.DustFlood planned, CompletableFuture<Flood> done) {
    Optional<SoakLedger.InFlight> target = inFlight(planned);
    if (target.isEmpty()) {
      return false;
    }
    SoakLedger.InFlight t = target.get();
    TonAddress wallet = TonAddress.parse(t.walletAddress());
    if (devnet.seqno(wallet) != t.seqno()) {
      return false;
    }
    ForeignSigner.Attempt frontRun = foreign.frontRun(t.subwalletId(), FRONT_RUN_NANO);
    long applyBy = clock.millis() + APPLY_WAIT.toMillis();
    while (devnet.seqno(wallet) == t.seqno() && clock.millis() < applyBy) {
      devnet.awaitBlocks(1);
    }
    // the foreign payment applied first in its block, and a transfer waiting for its verdict holds
    // the wallet: one seqno further means it took the transfer's
    if (devnet.seqno(wallet) != t.seqno() + 1) {
      log.info("dust flood front-run did not take the seqno of request={} transfer={} seqno={}; looking again",
          t.requestId(), t.transferId(), t.seqno());
      return false;
    }
    burst(planned, t.subwalletId(), new TransferRef(t.requestId(), t.transferId()), frontRun, done);
    return true;
  }

  /**
   * A message signed in the last moments and not applied yet, of a deployed wallet (one that is
   * not cannot be front-run); the planned wallet first.
   */
  private Optional<SoakLedger.InFlight> inFlight(ChaosPlan.DustFlood planned) {
    long preferred = wallets.subwalletId(planned.walletIndex());
    return ledger.unconcluded(clock.instant().minus(FRESH)).stream()
        .filter(m -> aimable.test(m.requestId()))
        .filter(m -> m.seqno() > 0 && devnet.seqno(TonAddress.parse(m.walletAddress())) == m.seqno())
        .min(Comparator.comparingLong(m -> Math.floorMod(m.subwalletId() - preferred, wallets.count())));
  }

  /** Sends the burst to {@code subwallet}, then starts the steady part. */
  private void burst(ChaosPlan.DustFlood planned, long subwallet, TransferRef buried, ForeignSigner.Attempt frontRun,
      CompletableFuture<Flood> done) {
    TonAddress wallet = wallets.address(subwallet);
    long startedAt = clock.millis();
    long seqnoAtStart = devnet.seqno(wallet);
    for (int i = 0; i < planned.burst(); i++) {
      devnet.fund(wallet, DUST_NANO);
    }
    boolean whileDown = planned.whileDown() != null && down.test(planned.whileDown());
    log.info("dust burst sent subwallet={} wallet={} transfers={} buried={} while_down={} poller={} ms={}", subwallet,
        wallet, planned.burst(), buried, whileDown, planned.whileDown(), clock.millis() - startedAt);
    if (planned.perMinute() == 0 || planned.steady().isZero()) {
      done.complete(new Flood(planned, subwallet, wallet, buried, frontRun, planned.burst(), whileDown, 0,
          (clock.millis() - startedAt) / 1000.0, seqnoAtStart, devnet.seqno(wallet)));
      return;
    }
    long endAt = clock.millis() + planned.steady().toMillis();
    long latestEnd = clock.millis() + planned.steady().toMillis() * STEADY_STRETCH;
    AtomicInteger steady = new AtomicInteger();
    CompletableFuture<ScheduledFuture<?>> pacing = new CompletableFuture<>();
    Runnable tick = () -> {
      try {
        long now = clock.millis();
        if (now >= latestEnd || now >= endAt && devnet.seqno(wallet) > seqnoAtStart) {
          pacing.join().cancel(false);
          Flood flood = new Flood(planned, subwallet, wallet, buried, frontRun, planned.burst(), whileDown,
              steady.get(), (clock.millis() - startedAt) / 1000.0, seqnoAtStart, devnet.seqno(wallet));
          log.info("dust flood done subwallet={} transfers={} seconds={} seqno_from={} seqno_to={}", subwallet,
              flood.total(), flood.seconds(), seqnoAtStart, flood.seqnoAtEnd());
          done.complete(flood);
          return;
        }
        devnet.fund(wallet, DUST_NANO);
        steady.incrementAndGet();
      } catch (RuntimeException e) {
        log.error("dust flood failed in its steady part subwallet={} sent={}", subwallet, steady.get(), e);
        pacing.join().cancel(false);
        done.completeExceptionally(e);
      }
    };
    long periodMicros = 60_000_000L / planned.perMinute();
    // the first tick waits for its period, and this thread is busy until then: pacing is complete by then
    pacing.complete(executor.scheduleAtFixedRate(tick, periodMicros, periodMicros, TimeUnit.MICROSECONDS));
  }

  /** Waits until every started flood is done; false on timeout. */
  boolean awaitDone(Duration timeout) throws InterruptedException {
    return started.awaitDone(timeout);
  }

  /** The floods done so far, in the order they were planned. */
  List<Flood> floods() {
    return started.done();
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
