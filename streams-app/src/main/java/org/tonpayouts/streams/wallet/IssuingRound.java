package org.tonpayouts.streams.wallet;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.ops.OutageLog;
import org.tonpayouts.schemas.TransferRequest;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.record.Intent;
import org.tonpayouts.streams.ledger.record.LedgerQueries.TransferRef;
import org.tonpayouts.streams.ledger.record.RecordResult;
import org.tonpayouts.streams.ledger.record.TransferDecision;
import org.tonpayouts.streams.ledger.record.TransferHistory;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.Pause;
import org.tonpayouts.streams.metrics.PayoutMetrics;
import org.tonpayouts.streams.send.SendRecorder;
import org.tonpayouts.streams.wallet.IssueOutcome.Conflict;
import org.tonpayouts.streams.wallet.IssueOutcome.Decided;
import org.tonpayouts.streams.wallet.IssueOutcome.Deferred;
import org.tonpayouts.streams.wallet.IssueOutcome.Duplicate;
import org.tonpayouts.streams.wallet.IssueOutcome.Submitted;
import org.tonpayouts.ton.address.ParsedAddress;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.TonApi;
import org.tonpayouts.ton.api.WalletSnapshot;
import org.tonpayouts.ton.wallet.SignedTransfer;
import org.tonpayouts.ton.wallet.TransferOrder;
import org.tonpayouts.ton.wallet.TransferSigner;

/**
 * Puts the next transfer of many ready wallets on chain at once: the side-effecting half of the
 * wallet-tx processor, kept apart so the processor stays a short decision.
 *
 * <p>Per round: read every task's transfer history from the ledger (one round trip), then per
 * task: reject a requestId recorded with other content; drop a later copy of a request already
 * decided; publish an outcome the ledger already holds; resume a message that may still apply
 * (re-sending the same BOC is always safe). A task of a wallet an operator paused stops here
 * ({@link PauseWatch}; the ledger refuses its intent as well, should the copy be late). Every
 * other task needs a new message: read the wallet fresh (seqno, balance and the node's time from
 * one answer; all wallets concurrently), let {@link SeqnoGuard} decide the seqno (a transfer keeps
 * the seqno of its first message for every attempt), fail a transfer the wallet cannot pay before signing it, sign, record all
 * intents in one ledger transaction, and only then send them all at once. The round ends there;
 * the answers to its sends are recorded as they come ({@link SendRecorder}). A send that fails or
 * times out is not a failure: the message may have been delivered, so it is watched like any
 * other and only the chain decides.
 *
 * <p>Thread-safe: several rounds may run at once, on different wallets; the ledger's constraints
 * (one live message per transfer, one transfer per seqno of a wallet, the partition's fencing
 * token) hold whatever runs concurrently.
 */
public final class IssuingRound {
  private static final Logger log = LoggerFactory.getLogger(IssuingRound.class);

  /**
   * How the round signs and what it may spend.
   *
   * @param capRecheck how long a wallet a spend cap holds waits at most before its next try
   *     ({@code spend.cap.recheck.ms}): an operator's release is noticed within about this long
   */
  public record Settings(Duration validUntilTtl, Duration roundTimeout, long feeReserveNano, int maxAttempts,
      Duration capRecheck) {}

  private final TonApi api;
  private final TransferSigner signer;
  private final Ledger ledger;
  private final Clock clock;
  private final Settings settings;
  private final PayoutMetrics metrics;
  private final SendRecorder sends;
  private final PauseWatch pauses;
  private final JettonIssuing jettons;
  /** While the node is away every wallet's read fails every round: a line when that starts and ends, one a minute between. */
  private final OutageLog walletReads;

  /**
   * @param pauses the operators' pauses as last read: a covered wallet gets no new message (the
   *     ledger refuses its intent anyway), while its messages already recorded are resumed as usual
   * @param sends records the API's answers to the round's sends, and has their messages re-sent until decided */
  public IssuingRound(TonApi api, TransferSigner signer, Ledger ledger, Clock clock, Settings settings,
      PayoutMetrics metrics, SendRecorder sends, PauseWatch pauses, JettonIssuing jettons) {
    this.api = api;
    this.signer = signer;
    this.ledger = ledger;
    this.clock = clock;
    this.settings = settings;
    this.metrics = metrics;
    this.sends = sends;
    this.pauses = pauses;
    this.jettons = jettons;
    this.walletReads = new OutageLog(log, "wallet reads (issuing deferred)", clock);
  }

  public List<IssueOutcome> run(List<IssueTask> given) {
    List<IssueTask> tasks = withFloors(given);
    List<IssueOutcome> outcomes = new ArrayList<>();
    List<Submitted> toSend = new ArrayList<>();
    List<Planned> needMessage = new ArrayList<>();

    Map<TransferRef, TransferHistory> histories =
        ledger.queries().histories(tasks.stream().map(IssueTask::ref).toList());
    for (IssueTask task : tasks) {
      TransferHistory history = histories.get(task.ref());
      IssueOutcome fromLedger = fromLedger(task, history);
      if (fromLedger instanceof Submitted resumed) {
        toSend.add(resumed);
      } else if (fromLedger != null) {
        outcomes.add(fromLedger);
      } else {
        Optional<Pause> pause = pauses.covering(task.subwalletId());
        if (pause.isPresent()) {
          metrics.heldByPause();
          outcomes.add(new IssueOutcome.Paused(task, pause.get().describe()));
        } else {
          needMessage.add(new Planned(task, history));
        }
      }
    }

    List<Intent> intents = new ArrayList<>();
    Map<String, Planned> plannedByHash = new HashMap<>();
    readAndSign(needMessage, intents, plannedByHash, outcomes);
    for (RecordResult result : ledger.intents().record(intents)) {
      Planned planned = plannedByHash.get(result.intent().messageHash());
      if (result instanceof RecordResult.Recorded recorded) {
        toSend.add(planned.submitted(recorded.row()));
      } else if (result instanceof RecordResult.Refused refused) {
        if (refused.refusal() == RecordResult.Refusal.FENCED) {
          // counted here, not where the outcome is applied: a zombie's stream thread may be gone by then
          metrics.fenced();
          outcomes.add(new IssueOutcome.Fenced(planned.task, refused.detail()));
        } else if (refused.refusal() == RecordResult.Refusal.PAUSED) {
          // paused after this process last read the pauses: signed, never recorded, never sent
          metrics.heldByPause();
          outcomes.add(new IssueOutcome.Paused(planned.task, refused.detail()));
        } else if (refused.refusal() == RecordResult.Refusal.CAPPED) {
          // signed, never recorded, never sent: the signature is dropped, the next try signs afresh
          metrics.heldByCap();
          outcomes.add(new IssueOutcome.Capped(planned.task, refused.detail(), capRetry(refused.retryAt())));
        } else {
          // Someone else wrote first, or the world moved: the next round reads the ledger again.
          outcomes.add(new Deferred(planned.task, "ledger refused the intent: " + refused.refusal() + " ("
              + refused.detail() + ")"));
        }
      }
    }

    sendAll(toSend.stream().filter(s -> !s.recheck()).map(Submitted::message).toList());
    outcomes.addAll(toSend);
    return outcomes;
  }

  /** When a held wallet tries again: when its window has room, but no later than one recheck from now. */
  private Instant capRetry(Instant freesAt) {
    Instant latest = clock.instant().plus(settings.capRecheck());
    return freesAt == null || freesAt.isAfter(latest) ? latest : freesAt;
  }

  /**
   * The tasks with the stale-read guard's floor filled in from the ledger where the wallet's state
   * did not know it (a new wallet, or one recovered after lost state): one statement for all.
   */
  private List<IssueTask> withFloors(List<IssueTask> tasks) {
    List<String> unknown = tasks.stream().filter(t -> t.floor() == null).map(t -> t.wallet().toRaw()).toList();
    if (unknown.isEmpty()) {
      return tasks;
    }
    Map<String, Long> floors = ledger.queries().highestAppliedSeqnos(unknown);
    return tasks.stream().map(t -> t.floor() != null ? t
        : new IssueTask(t.head(), t.queued(), t.wallet(), floors.get(t.wallet().toRaw()), t.fence())).toList();
  }

  /** What the ledger alone decides for a task; null when the task needs a new message. */
  private IssueOutcome fromLedger(IssueTask task, TransferHistory history) {
    if (history.conflict() != null) {
      return new Conflict(task, history.conflict());
    }
    if (history.transfer() != null && !history.transfer().status().isOpen()) {
      if (history.recordedFromAnotherCopy(task.queued().origin())) {
        return new Duplicate(task, "request " + task.requestId() + " was recorded from " + history.recordedOrigin()
            + " and its transfer " + task.transferId() + " is " + history.transfer().status()
            + "; this copy came from " + task.queued().origin());
      }
      LedgerRow deciding = history.messages().stream()
          .filter(m -> m.messageHash().equals(history.transfer().messageHash())).findFirst()
          .orElse(history.newest().orElse(null));
      return new Decided(task, history.transfer(), deciding);
    }
    var live = history.liveMessage();
    if (live.isPresent()) {
      log.info("resuming message subwallet={} request={} transfer={} seqno={} hash={} attempt={} status={}",
          task.subwalletId(), task.requestId(), task.transferId(), live.get().seqno(), live.get().messageHash(),
          live.get().attempt(), live.get().status());
      return new Submitted(task, live.get(), history.hashes(), firstSubmittedAt(history, live.get()), true, false);
    }
    return null;
  }

  private static Instant firstSubmittedAt(TransferHistory history, LedgerRow fallback) {
    return history.messages().isEmpty() ? fallback.createdAt() : history.messages().get(0).createdAt();
  }

  /** A task that needs a new message, with its ledger history; collects what happened to it. */
  private final class Planned {
    final IssueTask task;
    final TransferHistory history;
    CompletableFuture<WalletSnapshot> read;
    long readStartedNanos;
    /** A jetton transfer's: the master's answer naming its jetton wallet, when not known before. */
    CompletableFuture<TonAddress> resolving;
    /** A jetton transfer's: its jetton wallet and balance. */
    CompletableFuture<JettonIssuing.JettonRead> jettonRead;

    Planned(IssueTask task, TransferHistory history) {
      this.task = task;
      this.history = history;
    }

    Submitted submitted(LedgerRow row) {
      List<String> hashes = new ArrayList<>(history.hashes());
      hashes.add(row.messageHash());
      Instant first = history.messages().isEmpty() ? row.createdAt() : history.messages().get(0).createdAt();
      return new Submitted(task, row, hashes, first, false, false);
    }
  }

  /** Fresh reads for all planned tasks at once, the seqno and balance checks, then signing. */
  private void readAndSign(List<Planned> planned, List<Intent> intents, Map<String, Planned> byHash,
      List<IssueOutcome> outcomes) {
    if (planned.isEmpty()) {
      return;
    }
    for (Planned p : planned) {
      p.readStartedNanos = System.nanoTime();
      p.read = api.getWalletSnapshot(p.task.wallet())
          .whenComplete((r, e) -> metrics.seqnoFetch(Duration.ofNanos(System.nanoTime() - p.readStartedNanos), e == null));
      metrics.seqnoRead();
      if (p.task.transfer().paysJetton()) {
        startJettonReads(p);
      }
    }
    awaitAll(planned.stream().map(p -> p.read).toList());
    awaitJettonReads(planned);

    for (Planned p : planned) {
      IssueTask task = p.task;
      if (!p.read.isDone() || p.read.isCompletedExceptionally()) {
        String why = p.read.isDone() ? "wallet read failed: " + causeOf(p.read) : "wallet read timed out";
        p.read.cancel(false);
        outcomes.add(new Deferred(task, why));
        walletReads.failed("subwallet=" + task.subwalletId(), "request=" + task.requestId() + " transfer="
            + task.transferId() + " reason=" + why);
        continue;
      }
      walletReads.succeeded("subwallet=" + task.subwalletId());
      WalletSnapshot snapshot = p.read.join();
      if (p.jettonRead != null && (!p.jettonRead.isDone() || p.jettonRead.isCompletedExceptionally())) {
        String why = p.jettonRead.isDone() ? "jetton wallet read failed: " + causeOf(p.jettonRead)
            : "jetton wallet read timed out";
        p.jettonRead.cancel(false);
        outcomes.add(new Deferred(task, why));
        log.info("jetton transfer deferred subwallet={} request={} transfer={} reason={}", task.subwalletId(),
            task.requestId(), task.transferId(), why);
        continue;
      }
      int attempt = p.history.attempts() + 1;
      SeqnoGuard.Verdict verdict = SeqnoGuard.check(snapshot, p.history.boundSeqno(), task.floor());
      if (verdict instanceof SeqnoGuard.Stale stale) {
        metrics.staleSeqnoRead();
        outcomes.add(new Deferred(task, stale.why()));
        log.info("stale wallet read subwallet={} request={} transfer={} {}", task.subwalletId(), task.requestId(),
            task.transferId(), stale.why());
      } else if (verdict instanceof SeqnoGuard.SeqnoPassed passed) {
        outcomes.add(seqnoPassed(p, passed));
      } else if (verdict instanceof SeqnoGuard.Sign sign) {
        if (sign.movedAhead()) {
          seqnoMovedAhead(task, sign.seqno());
        }
        IssueOutcome refused = unaffordable(p, snapshot, attempt);
        if (refused != null) {
          outcomes.add(refused);
        } else {
          Intent intent = sign(task, sign.seqno(), attempt, snapshot, p.history.newest().orElse(null), orderOf(p));
          intents.add(intent);
          byHash.put(intent.messageHash(), p);
        }
      }
    }
  }

  /**
   * The wallet's seqno is past the transfer's, and every message of the transfer was judged
   * expired: some other message used the seqno. Sign nothing; hand the newest message to the
   * poller to establish from the chain which of the transfer's messages applied, if any.
   */
  private Submitted seqnoPassed(Planned p, SeqnoGuard.SeqnoPassed passed) {
    IssueTask task = p.task;
    LedgerRow newest = p.history.newest().orElseThrow();
    metrics.seqnoMismatch();
    log.warn("wallet seqno passed the transfer's seqno subwallet={} request={} transfer={} bound={} read={}"
            + " hashes={}: asking the poller to re-check, signing nothing", task.subwalletId(), task.requestId(),
        task.transferId(), passed.bound(), passed.read(), p.history.hashes());
    return new Submitted(task, newest, p.history.hashes(), firstSubmittedAt(p.history, newest), true, true);
  }

  private void seqnoMovedAhead(IssueTask task, long seqno) {
    metrics.seqnoMismatch();
    ledger.audit().record(AuditEvent.aboutWallet(task.subwalletId(), task.wallet().toRaw(), seqno,
        AuditEvent.Level.ERROR, AuditEvent.Type.SEQNO_MISMATCH,
        "expected seqno " + (task.floor() + 1) + ", observed " + seqno + " before request " + task.requestId()
            + " transfer " + task.transferId() + ": another signer used the wallet; trusting the chain"));
  }

  /** Fails the transfer before signing when the wallet cannot pay it; null when it can. */
  private IssueOutcome unaffordable(Planned p, WalletSnapshot snapshot, int attempt) {
    IssueTask task = p.task;
    long needed = task.transfer().amountNano() + settings.feeReserveNano();
    String why = null;
    if (snapshot.balance() < needed) {
      why = "insufficient balance: wallet " + task.wallet().toRaw() + " holds " + snapshot.balance()
          + " nanotons (node time " + snapshot.syncUtime() + "), the transfer needs " + task.transfer().amountNano()
          + (task.transfer().paysJetton() ? " attached to its jetton transfer" : "") + " + "
          + settings.feeReserveNano() + " fee reserve";
    } else if (p.jettonRead != null) {
      why = jettons.unaffordable(task.transfer(), p.jettonRead.join(), snapshot);
    }
    if (why == null && attempt > settings.maxAttempts()) {
      why = "no attempts left: " + p.history.attempts() + " of " + settings.maxAttempts() + " used";
    }
    if (why == null) {
      return null;
    }
    metrics.refusedBeforeSigning();
    TransferDecision decision = ledger.transfers().failBeforeSigning(task.request(), task.queued().origin(),
        task.wallet().toRaw(), task.transferIndex(), why);
    if (decision instanceof TransferDecision.Decided d) {
      return new Decided(task, d.transfer(), null);
    } else if (decision instanceof TransferDecision.AlreadyDecided d) {
      return new Decided(task, d.transfer(), null);
    } else if (decision instanceof TransferDecision.Conflict c) {
      return new Conflict(task, c.conflict());
    }
    return new Deferred(task, "could not fail the transfer: " + ((TransferDecision.Refused) decision).why());
  }

  private Intent sign(IssueTask task, long seqno, int attempt, WalletSnapshot snapshot, LedgerRow previous,
      TransferOrder order) {
    // valid_until from the later of our clock and the node's: a clock behind the chain must not
    // sign messages that are dead on arrival. A new attempt always outlives the previous one, so it
    // is a new message (same seqno, new hash), never a byte-identical copy of an expired one.
    Instant now = clock.instant();
    Instant nodeTime = Instant.ofEpochSecond(snapshot.syncUtime());
    Instant validUntil = (nodeTime.isAfter(now) ? nodeTime : now).plus(settings.validUntilTtl());
    if (previous != null && !validUntil.isAfter(previous.validUntil())) {
      validUntil = previous.validUntil().plusSeconds(1);
    }
    SignedTransfer signed = signer.sign(task.subwalletId(), seqno, validUntil, List.of(order));
    metrics.signed();
    return new Intent(task.request(), task.queued().origin(), task.transferIndex(), attempt, signed.wallet().toRaw(),
        signed.seqno(), signed.messageHash(), signed.normalizedHash(), signed.boc(),
        Instant.ofEpochSecond(signed.validUntil()), task.fence());
  }

  /**
   * A jetton transfer's reads: its jetton wallet, known or asked of the master, and that wallet's
   * balance (started now when the wallet is known, after {@link #awaitJettonReads} otherwise).
   */
  private void startJettonReads(Planned p) {
    try {
      jettons.settings(p.task.transfer()); // a jetton no longer configured waits, signed for nothing
      Optional<TonAddress> known = jettons.known(p.task.wallet(), p.task.transfer());
      if (known.isPresent()) {
        p.jettonRead = jettons.read(known.get());
      } else {
        p.resolving = jettons.resolve(p.task.wallet(), p.task.transfer());
      }
    } catch (RuntimeException e) {
      // the ledger or the configuration: the transfer waits for the next round, nothing is signed
      p.jettonRead = CompletableFuture.failedFuture(e);
    }
  }

  /** Waits for the jetton wallets asked of their masters, keeps them, then reads their balances. */
  private void awaitJettonReads(List<Planned> planned) {
    List<Planned> resolving = planned.stream().filter(p -> p.resolving != null).toList();
    if (!resolving.isEmpty()) {
      awaitAll(resolving.stream().map(p -> p.resolving).toList());
      for (Planned p : resolving) {
        if (p.resolving.isDone() && !p.resolving.isCompletedExceptionally()) {
          try {
            p.jettonRead = jettons.read(jettons.keep(p.task.wallet(), p.task.transfer(), p.resolving.join()));
          } catch (RuntimeException e) {
            p.jettonRead = CompletableFuture.failedFuture(e);
          }
        } else {
          p.resolving.cancel(false);
          p.jettonRead = p.resolving.isCompletedExceptionally() && !p.resolving.isCancelled()
              ? p.resolving.thenApply(a -> null)
              : CompletableFuture.failedFuture(new TimeoutException("the jetton master's get_wallet_address did not"
                  + " answer in time"));
        }
      }
    }
    awaitAll(planned.stream().filter(p -> p.jettonRead != null).map(p -> p.jettonRead).toList());
  }

  /** The order the wallet signs for the task: a TON transfer's, or a jetton transfer's to its jetton wallet. */
  private TransferOrder orderOf(Planned p) {
    if (p.jettonRead == null) {
      return orderOf(p.task.transfer());
    }
    return jettons.order(p.task.request(), p.task.transferIndex(), p.task.wallet(), p.jettonRead.join().jettonWallet());
  }

  /** The transfer as the wallet will send it; a missing bounce flag follows the address's own flag. */
  static TransferOrder orderOf(TransferRequest transfer) {
    ParsedAddress destination = TonAddress.parseWithFlags(transfer.destination());
    return new TransferOrder(destination.address(), transfer.amountNano(), transfer.comment(), bounceOf(transfer));
  }

  /** The bounce flag the internal message carries (a jetton transfer's, to our own jetton wallet, always bounces). */
  static boolean bounceOf(TransferRequest transfer) {
    if (transfer.paysJetton()) {
      return true;
    }
    return transfer.bounce() != null ? transfer.bounce() : TonAddress.parseWithFlags(transfer.destination()).bounceable();
  }

  /**
   * Hands every message to the API at once. The round does not wait for the answers: the
   * {@link SendRecorder} records them when they come, and nothing the round decides depends on
   * them (an unacknowledged send may have been delivered: only the chain decides).
   */
  private void sendAll(List<LedgerRow> rows) {
    for (LedgerRow row : rows) {
      metrics.sendBoc();
      sends.track(row, api.sendBocReturnHash(row.boc()));
    }
  }

  private void awaitAll(Collection<? extends CompletableFuture<?>> futures) {
    try {
      CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new))
          .get(settings.roundTimeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException | ExecutionException e) {
      // Each future is inspected on its own; failures and stragglers are handled per wallet.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the TON API", e);
    }
  }

  private static String causeOf(CompletableFuture<?> future) {
    try {
      future.join();
      return "none";
    } catch (RuntimeException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      return cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }
  }
}
