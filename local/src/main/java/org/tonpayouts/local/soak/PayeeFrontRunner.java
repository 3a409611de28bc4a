package org.tonpayouts.local.soak;

import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.devnet.Devnet;
import org.tonpayouts.local.audit.TransferRef;
import org.tonpayouts.local.stack.WalletSet;
import org.tonpayouts.ton.address.TonAddress;

/**
 * Carries out the plan's {@link ChaosPlan.PayeeFrontRun}s on a thread of its own: finds a transfer
 * of ours in flight (its message recorded, the wallet still at its seqno) to a payee its wallet
 * has already paid the same amount, and has the {@link ForeignSigner} pay that payee from the
 * wallet ahead of our message in the next block. The chain then shows, at our transfer's seqno, a
 * payment to its destination (of its very amount, for some) that is not ours, with an earlier
 * payment of ours just like it: neither is evidence that the transfer was paid.
 */
final class PayeeFrontRunner implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PayeeFrontRunner.class);
  /** Well under a block: a message of ours is in flight for one or two blocks. */
  private static final Duration LOOK_EVERY = Duration.ofMillis(20);
  /** How long to look for a transfer in flight; then a payee is paid at the wallet's current seqno anyway. */
  private static final Duration LOOK_FOR = Duration.ofSeconds(15);
  /** What a payment of "another amount" adds: no amount the load pays its payees differs by this. */
  private static final long OTHER_AMOUNT_DELTA = 500_000L;
  /** What it pays {@link ForeignSigner#DESTINATION} when no payee of ours is on chain yet. */
  private static final long NO_PAYEE_NANO = 2_000_000L;

  /**
   * What one front-run did.
   *
   * @param target the transfer of ours in flight whose seqno it aimed at; null when none was found
   *     in time (then it paid a payee a wallet paid repeatedly, at the wallet's current seqno)
   * @param seqno the seqno it aimed at (the wallet's, when it was queued)
   */
  record FrontRun(ChaosPlan.PayeeFrontRun planned, TransferRef target, long seqno, ForeignSigner.Attempt attempt) {}

  private final ForeignSigner foreign;
  private final SoakLedger ledger;
  private final Devnet devnet;
  private final WalletSet wallets;
  /** Which requests' transfers may be aimed at (by request id). */
  private final java.util.function.Predicate<String> aimable;
  private final Clock clock;
  private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "soak-payee-front-run");
    t.setDaemon(true);
    return t;
  });
  private final StartedActs<FrontRun> started = new StartedActs<>();
  /**
   * The seqno each wallet was front-run at last: a wallet is aimed at again only once its seqno
   * moved past it (front-runs planned close together, or started together after a long act,
   * would otherwise all aim at one transfer, and only the first takes its seqno).
   */
  private final Map<Long, Long> aimedAt = new ConcurrentHashMap<>();

  PayeeFrontRunner(ForeignSigner foreign, SoakLedger ledger, Devnet devnet, WalletSet wallets,
      java.util.function.Predicate<String> aimable, Clock clock) {
    this.aimable = aimable;
    this.foreign = foreign;
    this.ledger = ledger;
    this.devnet = devnet;
    this.wallets = wallets;
    this.clock = clock;
  }

  /** Starts looking for a transfer to front-run; returns at once. */
  void start(ChaosPlan.PayeeFrontRun planned) {
    CompletableFuture<FrontRun> done = started.start();
    long giveUpAt = clock.millis() + LOOK_FOR.toMillis();
    Runnable look = new Runnable() {
      @Override
      public void run() {
        try {
          Optional<SoakLedger.InFlight> target = inFlight(planned.walletIndex());
          if (target.isPresent()) {
            done.complete(frontRun(planned, target.get()));
          } else if (clock.millis() >= giveUpAt) {
            done.complete(payRepeatedPayee(planned));
          } else {
            executor.schedule(this, LOOK_EVERY.toMillis(), TimeUnit.MILLISECONDS);
          }
        } catch (RuntimeException e) {
          log.error("payee front-run failed planned={}", planned, e);
          done.completeExceptionally(e);
        }
      }
    };
    executor.execute(look);
  }

  /** A transfer in flight to a payee its wallet paid before, the wallet still at its seqno; planned wallet first. */
  private Optional<SoakLedger.InFlight> inFlight(int preferredIndex) {
    return ledger.inFlightToPaidPayees().stream()
        .filter(m -> aimable.test(m.requestId()))
        .filter(m -> m.seqno() > aimedAt.getOrDefault(m.subwalletId(), -1L))
        .filter(m -> devnet.seqno(TonAddress.parse(m.walletAddress())) == m.seqno())
        .min(Comparator.comparingLong(m -> Math.floorMod(m.subwalletId() - wallets.subwalletId(preferredIndex),
            wallets.count())));
  }

  private FrontRun frontRun(ChaosPlan.PayeeFrontRun planned, SoakLedger.InFlight target) {
    long amount = planned.sameAmount() ? target.amountNano() : target.amountNano() + OTHER_AMOUNT_DELTA;
    aimedAt.put(target.subwalletId(), target.seqno());
    ForeignSigner.Attempt attempt = foreign.frontRun(target.subwalletId(), TonAddress.parse(target.destination()),
        amount);
    TransferRef ref = new TransferRef(target.requestId(), target.transferId());
    log.info("payee front-run target={} subwallet={} seqno={} destination={} amount={} same_amount={} comment='{}'",
        ref, target.subwalletId(), target.seqno(), target.destination(), amount, planned.sameAmount(),
        attempt.comment());
    return new FrontRun(planned, ref, target.seqno(), attempt);
  }

  /**
   * No transfer to a paid payee was in flight in time: a payee a wallet paid repeatedly (the
   * planned wallet first) is paid anyway, at the wallet's current seqno; with no such payee on
   * chain yet, the foreign signer's own destination is.
   */
  private FrontRun payRepeatedPayee(ChaosPlan.PayeeFrontRun planned) {
    long preferred = wallets.subwalletId(planned.walletIndex());
    Optional<SoakLedger.Paid> paid = ledger.repeatedlyPaid().stream()
        .min(Comparator.comparingLong(p -> Math.floorMod(p.subwalletId() - preferred, wallets.count())));
    long subwallet = paid.map(SoakLedger.Paid::subwalletId).orElse(preferred);
    long seqno = devnet.seqno(wallets.address(subwallet));
    aimedAt.merge(subwallet, seqno, Math::max);
    ForeignSigner.Attempt attempt = paid.isEmpty() ? foreign.frontRun(subwallet, NO_PAYEE_NANO)
        : foreign.frontRun(subwallet, TonAddress.parse(paid.get().destination()),
            planned.sameAmount() ? paid.get().amountNano() : paid.get().amountNano() + OTHER_AMOUNT_DELTA);
    log.warn("payee front-run found no transfer in flight to a paid payee within {} s; paying subwallet={} seqno={}"
        + " destination={} amount={} comment='{}'", LOOK_FOR.toSeconds(), subwallet, seqno, attempt.destination(),
        attempt.amountNano(), attempt.comment());
    return new FrontRun(planned, null, seqno, attempt);
  }

  /** Waits until every started front-run is done; false on timeout. */
  boolean awaitDone(Duration timeout) throws InterruptedException {
    return started.awaitDone(timeout);
  }

  /** The front-runs done so far, in the order they were planned. */
  List<FrontRun> frontRuns() {
    return started.done();
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
