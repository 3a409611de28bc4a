package org.tonpayouts.streams.wallet;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.wakeup.TransactionCommits;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.Rejected;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.Submission;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.TransferRow;
import org.tonpayouts.streams.ledger.sql.TransferStatus;
import org.tonpayouts.streams.names.TopologyNames;

/**
 * The wallets of one stream task and the moves that change them: their stores, their place in
 * the task's own scheduling ({@link WalletIndex}), and every change of a wallet's state together
 * with the events it forwards (a submission, a settlement, a rejection). The other parts of
 * {@link WalletTxProcessor} decide what happens to a wallet; this class carries it out, so a
 * wallet's stored state, its index entry and its events never drift apart.
 *
 * <p>Made anew by every {@code init()} of the processor, with the stores of that incarnation.
 */
final class TaskWallets {
  // One logger for the whole state machine: operators follow a wallet in one logger's lines.
  private static final Logger log = LoggerFactory.getLogger(WalletTxProcessor.class);
  /**
   * The longest a wallet waits for the commit of its transfer's outcome before issuing the next
   * one anyway: a commit comes every {@code streams.commit.interval.ms}; one that does not come
   * (the task is failing) must not hold the wallet.
   */
  private static final Duration COMMIT_WAIT_LIMIT = Duration.ofSeconds(1);

  private final ProcessorContext<String, Object> context;
  private final WalletTxDependencies deps;
  private final WalletHeads heads;
  private final WalletQueue queue;
  private final WalletIndex index = new WalletIndex();
  /** Wallets this incarnation reported as partly settled, to clear from the gauge on close. */
  private final Set<String> reportedPartlySettled = new HashSet<>();

  TaskWallets(ProcessorContext<String, Object> context, WalletTxDependencies deps) {
    this.context = context;
    this.deps = deps;
    this.heads = new WalletHeads(context.getStateStore(TopologyNames.WALLET_HEADS_STORE));
    this.queue = new WalletQueue(context.getStateStore(TopologyNames.WALLET_QUEUE_STORE));
  }

  WalletIndex index() {
    return index;
  }

  /** The wallet's state, or null for a wallet the task never saw. */
  WalletHead get(String key) {
    return heads.get(key);
  }

  /** The wallet's state, an empty one for a wallet the task never saw. */
  WalletHead load(String key, long subwalletId) {
    WalletHead head = heads.get(key);
    return head != null ? head : WalletHead.empty(subwalletId);
  }

  /** The request at the head of the wallet's queue, or null when the store lost it (never expected). */
  QueuedRequest headRequest(WalletHead head) {
    return queue.head(head);
  }

  /** The request at the head of a wallet that has work, or null. */
  QueuedRequest currentRequest(WalletHead head) {
    return head == null || !head.hasWork() ? null : queue.head(head);
  }

  void forEach(BiConsumer<String, WalletHead> action) {
    heads.forEach(action);
  }

  /** Our clock for the processor's own timing (deferrals, the watchdog); the driver's in tests. */
  Instant now() {
    return Instant.ofEpochMilli(context.currentSystemTimeMs());
  }

  // ---- moves -------------------------------------------------------------------------------------

  /** Queues an accepted request at the wallet's tail; returns the wallet's new state. */
  WalletHead enqueue(String key, WalletHead head, QueuedRequest queued) {
    queue.put(head.subwalletId(), head.tailSeq(), queued);
    WalletHead next = head.enqueued();
    save(key, next);
    return next;
  }

  /** The wallet waits for a verdict on {@code row}; the poller is told to watch it. */
  void submitted(String key, WalletHead head, QueuedRequest queued, LedgerRow row, List<String> hashes,
      Instant firstSubmittedAt, boolean resumed, boolean recheck) {
    Instant now = deps.clock().instant();
    Instant recheckAt = recheckAt(row.validUntil().getEpochSecond(), now, recheck);
    save(key, head.submitted(new CurrentTransfer(row.seqno(), hashes, row.attempt(),
        row.validUntil().getEpochSecond(), firstSubmittedAt, true, recheckAt)));
    if (recheck) {
      deps.metrics().recheckRequested();
    }
    Submission submission = TransferEvents.submission(queued.request(), row, hashes, firstSubmittedAt, recheck, now);
    log.info("submitted subwallet={} request={} transfer={} seqno={} hash={} attempt={} resumed={} recheck={}", key,
        row.requestId(), row.transferId(), row.seqno(), row.messageHash(), row.attempt(), resumed, recheck);
    context.forward(new Record<>(key, submission, deps.clock().millis()), TopologyNames.SUBMISSIONS_SINK);
  }

  /** When a transfer without a verdict is re-checked: well past its valid_until (or, for a re-check, one timeout on). */
  private Instant recheckAt(long validUntil, Instant now, boolean recheck) {
    Instant due = Instant.ofEpochSecond(validUntil).plus(deps.settings().clockSkew())
        .plus(deps.settings().verdictTimeout());
    Instant next = now.plus(deps.settings().verdictTimeout());
    return recheck || due.isBefore(next) ? next : due;
  }

  /**
   * Publishes the ledger's outcome of the head's transfer and moves the wallet on. The ledger has
   * recorded it (and aborted what it leaves behind) already.
   */
  void publishDecided(String key, WalletHead head, QueuedRequest queued, TransferRow transfer, LedgerRow message,
      Confirmation verdict) {
    PayoutRequest request = queued.request();
    if (!transfer.requestId().equals(request.requestId()) || transfer.transferIndex() != head.transferIndex()) {
      // another transfer's outcome never decides the wallet's current one, nor where its seqno stands
      deps.metrics().ledgerContradiction();
      log.error("outcome of another transfer refused subwallet={} request={} transferIndex={} outcomeOf={}/{}"
          + " status={}", key, request.requestId(), head.transferIndex(), transfer.requestId(), transfer.transferId(),
          transfer.status());
      return;
    }
    Instant now = deps.clock().instant();
    stopWatching(head);
    forwardSettlement(key, TransferEvents.settlement(request, transfer, message, verdict, now));
    if (transfer.status() == TransferStatus.SETTLED) {
      WalletHead next = head.advance(transfer.seqno(), request.transfers().size(), now);
      if (next.headSeq() != head.headSeq()) {
        queue.removeHead(head);
      }
      save(key, next);
    } else {
      String reason = "transfer " + transfer.transferId() + " " + transfer.status();
      TransferEvents.abortedAfter(request, transfer.transferIndex(), reason, now).forEach(s -> forwardSettlement(key, s));
      queue.removeHead(head);
      save(key, head.nextRequest(appliedSeqno(transfer)));
    }
    // The wallet's next transfer starts once this outcome is committed: its wallet read, signing
    // and send are the heaviest work of a transfer, and started at once they took the cores from
    // the commit and the settlement's way to its consumers (W=100, alternate runs: 53 and 54 ms from
    // forwarding to a consumer, 30 and 21 ms held; p50 of the settle path 142 and 151 -> 105 and 93 ms).
    // The next block is a block interval away; throughput did not change.
    index.holdForCommit(key, TransactionCommits.Wait.forForwarded(deps.threads(), now(), COMMIT_WAIT_LIMIT));
  }

  /** The seqno a decided transfer proves used (the stale-read guard's floor), or null. */
  private static Long appliedSeqno(TransferRow transfer) {
    boolean used = transfer.status() == TransferStatus.RECONCILIATION_REQUIRED
        || (transfer.status() == TransferStatus.FAILED && transfer.txHash() != null);
    return used ? transfer.seqno() : null;
  }

  /** The newest message of the wallet's transfer can no longer apply: the transfer gets its next attempt. */
  void expired(String key, WalletHead head) {
    stopWatching(head);
    save(key, head.expired());
  }

  /** Drops the request at the wallet's head (a later copy of a recorded one, or refused) and moves on. */
  void dropHeadRequest(String key, WalletHead head) {
    queue.removeHead(head);
    save(key, head.nextRequest(null));
  }

  /** Tells the poller's watch (through the I/O) to stop following the wallet's current messages. */
  private void stopWatching(WalletHead head) {
    if (head.current() != null) {
      deps.io().forget(head.current().hashes());
    }
  }

  // ---- events ------------------------------------------------------------------------------------

  void forwardSettlement(String key, Settlement settlement) {
    deps.metrics().settled(settlement.status());
    log.info("settled subwallet={} request={} transfer={} status={} seqno={} tx={} reason={}", key,
        settlement.requestId(), settlement.transferId(), settlement.status(), settlement.seqno(),
        settlement.txHash(), settlement.reason());
    context.forward(new Record<>(key, settlement, deps.clock().millis()), TopologyNames.SETTLEMENTS_SINK);
  }

  /** The request with the record it was read from: the identity of this copy of it. */
  QueuedRequest queued(PayoutRequest request) {
    Optional<RecordMetadata> meta = context.recordMetadata();
    return new QueuedRequest(request, meta.map(RecordMetadata::topic).orElse(Topics.PAYOUT_REQUESTS.name()),
        meta.map(RecordMetadata::partition).orElse(-1), meta.map(RecordMetadata::offset).orElse(-1L));
  }

  /** Refuses a request to {@code payout.rejected}, naming the record it came from. */
  void reject(String key, QueuedRequest queued, String reason) {
    byte[] payload = Topics.PAYOUT_REQUESTS.valueSerde().serializer().serialize(queued.topic(), queued.request());
    Rejected rejected = Rejected.of(reason, key, payload, queued.topic(),
        queued.partition() < 0 ? null : queued.partition(), queued.offset() < 0 ? null : queued.offset(),
        deps.clock().instant());
    deps.metrics().rejected();
    log.warn("request rejected subwallet={} request={} reason={}", key, queued.request().requestId(), reason);
    context.forward(new Record<>(key, (Object) rejected, deps.clock().millis()), TopologyNames.REJECTED_SINK);
  }

  // ---- state -------------------------------------------------------------------------------------

  void save(String key, WalletHead head) {
    heads.put(key, head);
    track(key, head);
  }

  /** Keeps the in-memory index and the partly-settled gauge in step with a wallet's state. */
  void track(String key, WalletHead head) {
    index.track(key, head);
    deps.metrics().partlySettled(key, head.partlySettledSince());
    if (head.partlySettledSince() != null) {
      reportedPartlySettled.add(key);
    } else {
      reportedPartlySettled.remove(key);
    }
  }

  /** Clears this incarnation's wallets from the partly-settled gauge (the task is closing). */
  void close() {
    reportedPartlySettled.forEach(key -> deps.metrics().partlySettled(key, null));
  }
}
