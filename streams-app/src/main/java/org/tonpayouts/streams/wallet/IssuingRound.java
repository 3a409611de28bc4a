package org.tonpayouts.streams.wallet;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.schemas.TransferRequest;
import org.tonpayouts.streams.ledger.Intent;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.ledger.LedgerRow;
import org.tonpayouts.streams.ledger.RecordedIntent;
import org.tonpayouts.streams.metrics.PayoutMetrics;
import org.tonpayouts.ton.address.ParsedAddress;
import org.tonpayouts.ton.address.TonAddress;
import org.tonpayouts.ton.api.SentMessage;
import org.tonpayouts.ton.api.TonApi;
import org.tonpayouts.ton.wallet.SignedTransfer;
import org.tonpayouts.ton.wallet.TransferOrder;
import org.tonpayouts.ton.wallet.TransferSigner;

/**
 * Puts the next transfer of many ready wallets on chain at once: the side-effecting half of the
 * wallet-tx processor, kept apart so the processor stays a short decision.
 *
 * <p>Per round, for every task: resume the transfer's live attempt if the ledger has one
 * (re-sending the same BOC is always safe); otherwise read the wallet's seqno fresh, refuse stale
 * reads, sign, and record the intent rows of all wallets in one ledger transaction before anything
 * is sent. Reads and sends of all wallets run concurrently, so one slow wallet costs the round one
 * round trip, not one per wallet (DESIGN.md, Performance principle). A send that fails or times
 * out is not a failure: the message may have been delivered, so it is watched like any other and
 * only the chain poller's verdict (confirmed, or provably expired) ends it.
 */
public final class IssuingRound {
  private static final Logger log = LoggerFactory.getLogger(IssuingRound.class);

  private final TonApi api;
  private final TransferSigner signer;
  private final Ledger ledger;
  private final Clock clock;
  private final Duration validUntilTtl;
  private final Duration roundTimeout;
  private final PayoutMetrics metrics;

  public IssuingRound(TonApi api, TransferSigner signer, Ledger ledger, Clock clock, Duration validUntilTtl,
      Duration roundTimeout, PayoutMetrics metrics) {
    this.api = api;
    this.signer = signer;
    this.ledger = ledger;
    this.clock = clock;
    this.validUntilTtl = validUntilTtl;
    this.roundTimeout = roundTimeout;
    this.metrics = metrics;
  }

  public List<IssueOutcome> run(List<IssueTask> tasks) {
    List<IssueOutcome> outcomes = new ArrayList<>();
    List<LedgerRow> toSend = new ArrayList<>();
    Map<String, IssueTask> taskByHash = new HashMap<>();
    List<IssueTask> fresh = new ArrayList<>();

    Map<TransferKey, LedgerRow> current = currentAttempts(tasks);
    for (IssueTask task : tasks) {
      LedgerRow existing = current.get(TransferKey.of(task));
      if (existing == null) {
        fresh.add(task);
      } else if (existing.status().isLive()) {
        toSend.add(existing);
        taskByHash.put(existing.messageHash(), task);
        log.info("resuming message subwallet={} request={} transfer={} seqno={} hash={} status={}",
            task.subwalletId(), task.requestId(), task.transferId(), existing.seqno(), existing.messageHash(),
            existing.status());
      } else {
        outcomes.add(new IssueOutcome.AlreadyDecided(task, existing));
      }
    }

    List<Intent> intents = signFresh(fresh, outcomes);
    Map<String, Boolean> resumed = new HashMap<>();
    toSend.forEach(row -> resumed.put(row.messageHash(), true));
    if (!intents.isEmpty()) {
      Map<TransferKey, IssueTask> freshByKey = new HashMap<>();
      fresh.forEach(t -> freshByKey.put(TransferKey.of(t), t));
      for (RecordedIntent r : ledger.recordIntents(intents)) {
        IssueTask task = freshByKey.get(new TransferKey(r.intent().requestId(), r.intent().transferId()));
        if (r.inserted()) {
          toSend.add(r.row());
          taskByHash.put(r.row().messageHash(), task);
          resumed.put(r.row().messageHash(), false);
        } else if (r.row().requestId().equals(task.requestId()) && r.row().transferId().equals(task.transferId())) {
          // Another instance (or an earlier run of this one) got there first: resume its message, drop ours.
          if (r.row().status().isLive()) {
            toSend.add(r.row());
            taskByHash.put(r.row().messageHash(), task);
            resumed.put(r.row().messageHash(), true);
          } else {
            outcomes.add(new IssueOutcome.AlreadyDecided(task, r.row()));
          }
        } else {
          // The seqno is held by another transfer's message that may still apply: our read was stale.
          metrics.staleSeqnoRead();
          outcomes.add(new IssueOutcome.Deferred(task,
              "seqno " + r.intent().seqno() + " is held by request " + r.row().requestId() + " transfer "
                  + r.row().transferId()));
        }
      }
    }

    sendAll(toSend);
    for (LedgerRow row : toSend) {
      outcomes.add(new IssueOutcome.Submitted(taskByHash.get(row.messageHash()), row, resumed.get(row.messageHash())));
    }
    return outcomes;
  }

  /** A transfer's identity: request id and transfer id. */
  private record TransferKey(String requestId, String transferId) {
    static TransferKey of(IssueTask task) {
      return new TransferKey(task.requestId(), task.transferId());
    }
  }

  /** The live or decided attempt of every task's transfer, read in one round trip. */
  private Map<TransferKey, LedgerRow> currentAttempts(List<IssueTask> tasks) {
    List<String> requestIds = new ArrayList<>();
    List<String> transferIds = new ArrayList<>();
    tasks.forEach(t -> {
      requestIds.add(t.requestId());
      transferIds.add(t.transferId());
    });
    Map<TransferKey, LedgerRow> rows = new HashMap<>();
    for (LedgerRow row : ledger.findCurrentAttempts(requestIds, transferIds)) {
      rows.put(new TransferKey(row.requestId(), row.transferId()), row);
    }
    return rows;
  }

  /** Fresh seqno reads for all tasks at once, the stale-read guard, then signing. */
  private List<Intent> signFresh(List<IssueTask> tasks, List<IssueOutcome> outcomes) {
    if (tasks.isEmpty()) {
      return List.of();
    }
    Map<IssueTask, CompletableFuture<Long>> reads = new HashMap<>();
    for (IssueTask task : tasks) {
      reads.put(task, api.getSeqno(task.wallet()));
      metrics.seqnoRead();
    }
    awaitAll(reads.values());

    Instant now = clock.instant();
    Instant validUntil = now.plus(validUntilTtl);
    List<Intent> intents = new ArrayList<>();
    for (IssueTask task : tasks) {
      CompletableFuture<Long> read = reads.get(task);
      if (!read.isDone() || read.isCompletedExceptionally()) {
        String why = read.isDone() ? "seqno read failed: " + causeOf(read) : "seqno read timed out";
        read.cancel(false);
        outcomes.add(new IssueOutcome.Deferred(task, why));
        log.warn("seqno read deferred subwallet={} request={} transfer={} reason={}",
            task.subwalletId(), task.requestId(), task.transferId(), why);
        continue;
      }
      long seqno = read.join();
      switch (SeqnoGuard.check(seqno, task.lastAppliedSeqno())) {
        case STALE -> {
          metrics.staleSeqnoRead();
          outcomes.add(new IssueOutcome.Deferred(task,
              "stale seqno read " + seqno + ", expected at least " + (task.lastAppliedSeqno() + 1)));
          log.info("stale seqno read subwallet={} read={} lastApplied={}", task.subwalletId(), seqno,
              task.lastAppliedSeqno());
          continue;
        }
        case MOVED_AHEAD -> {
          metrics.seqnoMismatch();
          ledger.recordSeqnoMismatch(task.subwalletId(), task.wallet().toRaw(), task.lastAppliedSeqno() + 1, seqno,
              "seqno read before request " + task.requestId() + " transfer " + task.transferId());
          log.warn("wallet used by another signer subwallet={} expected={} observed={} (trusting the chain)",
              task.subwalletId(), task.lastAppliedSeqno() + 1, seqno);
        }
        case USE -> { }
      }
      SignedTransfer signed = signer.sign(task.subwalletId(), seqno, validUntil, List.of(orderOf(task.transfer())));
      metrics.signed();
      intents.add(new Intent(task.requestId(), task.transferId(), task.transferIndex(), task.attempt(),
          task.subwalletId(), signed.wallet().toRaw(), task.transfer().destination(), task.transfer().amountNano(),
          signed.seqno(), signed.messageHash(), signed.normalizedHash(), signed.boc(),
          Instant.ofEpochSecond(signed.validUntil())));
    }
    return intents;
  }

  /** The transfer as the wallet will send it; a missing bounce flag follows the address's own flag. */
  static TransferOrder orderOf(TransferRequest transfer) {
    ParsedAddress destination = TonAddress.parseWithFlags(transfer.destination());
    boolean bounce = transfer.bounce() != null ? transfer.bounce() : destination.bounceable();
    return new TransferOrder(destination.address(), transfer.amountNano(), transfer.comment(), bounce);
  }

  /** Hands every message to the API at once and records what the API said. */
  private void sendAll(List<LedgerRow> rows) {
    if (rows.isEmpty()) {
      return;
    }
    Map<LedgerRow, CompletableFuture<SentMessage>> sends = new HashMap<>();
    for (LedgerRow row : rows) {
      sends.put(row, api.sendBocReturnHash(row.boc()));
      metrics.sendBoc();
    }
    awaitAll(sends.values());
    List<String> sent = new ArrayList<>();
    for (LedgerRow row : rows) {
      CompletableFuture<SentMessage> send = sends.get(row);
      if (send.isDone() && !send.isCompletedExceptionally()) {
        SentMessage answer = send.join();
        if (!row.messageHash().equals(answer.hash())) {
          log.warn("API reported another hash subwallet={} ours={} theirs={}", row.subwalletId(), row.messageHash(),
              answer.hash());
        }
        sent.add(row.messageHash());
      } else {
        String why = send.isDone() ? causeOf(send) : "send timed out";
        // Delivered or not, the message is watched until the chain decides (DESIGN.md, safe-retry rule).
        ledger.recordError(row.messageHash(), why);
        metrics.sendError();
        log.warn("send not acknowledged subwallet={} request={} transfer={} seqno={} hash={} reason={}",
            row.subwalletId(), row.requestId(), row.transferId(), row.seqno(), row.messageHash(), why);
      }
    }
    ledger.markSent(sent);
  }

  private void awaitAll(java.util.Collection<? extends CompletableFuture<?>> futures) {
    try {
      CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new))
          .get(roundTimeout.toMillis(), TimeUnit.MILLISECONDS);
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
