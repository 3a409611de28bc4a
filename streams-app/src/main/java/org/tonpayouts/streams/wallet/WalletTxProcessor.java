package org.tonpayouts.streams.wallet;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.Rejected;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.Submission;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.streams.ledger.LedgerQueries.TransferRef;
import org.tonpayouts.streams.ledger.LedgerRow;
import org.tonpayouts.streams.ledger.Ownership;
import org.tonpayouts.streams.ledger.TransferDecision;
import org.tonpayouts.streams.ledger.TransferHistory;
import org.tonpayouts.streams.ledger.TransferRow;
import org.tonpayouts.streams.ledger.TransferStatus;
import org.tonpayouts.streams.ledger.VerdictResult;
import org.tonpayouts.streams.wallet.IssueOutcome.Conflict;
import org.tonpayouts.streams.wallet.IssueOutcome.Decided;
import org.tonpayouts.streams.wallet.IssueOutcome.Deferred;
import org.tonpayouts.streams.wallet.IssueOutcome.Duplicate;
import org.tonpayouts.streams.wallet.IssueOutcome.Submitted;
import org.tonpayouts.ton.address.TonAddress;

/**
 * The wallet state machine: per subwallet a FIFO of accepted requests and at most one transfer
 * waiting for the chain (invariant 3), driven by requests, the chain poller's verdicts and two
 * wall-clock punctuations (the issuing round for ready wallets, and the watchdog for transfers
 * whose verdict is overdue).
 *
 * <p>Every decision is written to the ledger first; the events (submissions, settlements,
 * rejections) and the store changes then commit together in the task's exactly-once transaction,
 * and a crash in between is resumed from the ledger. A transfer keeps the seqno of its first
 * message for every attempt, so whatever any verdict says, the wallet applies at most one of its
 * messages.
 */
public final class WalletTxProcessor implements Processor<String, Object, String, Object> {
  public static final String NAME = "wallet-tx";
  public static final String WALLET_HEADS_STORE = "wallet-heads";
  public static final String WALLET_QUEUE_STORE = "wallet-queue";
  public static final String REQUEST_MEMORY_STORE = "accepted-request-ids";
  /** Child names the topology gives the sinks this processor forwards to. */
  public static final String SUBMISSIONS_SINK = "submissions-sink";
  public static final String SETTLEMENTS_SINK = "settlements-sink";
  public static final String REJECTED_SINK = org.tonpayouts.streams.topology.PayoutTopology.REJECTED_SINK;

  private static final Logger log = LoggerFactory.getLogger(WalletTxProcessor.class);
  private static final Duration WATCHDOG_INTERVAL = Duration.ofSeconds(1);

  private final WalletTxDependencies deps;
  /** Wallets to include in the next issuing round. */
  private final Set<String> readyWallets = new LinkedHashSet<>();
  /** Wallets waiting for a verdict, and when to re-check them without one (the watchdog's index). */
  private final Map<String, Instant> awaiting = new HashMap<>();
  /** Wallets this task reported as partly settled (forgotten on close). */
  private final Set<String> reportedPartlySettled = new HashSet<>();
  private ProcessorContext<String, Object> context;
  private KeyValueStore<String, WalletHead> heads;
  private WalletQueue queue;
  private RequestMemory memory;
  /** This task's claim on its partition; every intent it records carries it. */
  private Ownership ownership;
  /** Set once a newer owner took the partition: this task is a zombie and issues nothing more. */
  private boolean fenced;

  public WalletTxProcessor(WalletTxDependencies deps) {
    this.deps = deps;
  }

  @Override
  public void init(ProcessorContext<String, Object> context) {
    this.context = context;
    this.heads = context.getStateStore(WALLET_HEADS_STORE);
    this.queue = new WalletQueue(context.getStateStore(WALLET_QUEUE_STORE));
    WindowStore<String, PayoutRequest> accepted = context.getStateStore(REQUEST_MEMORY_STORE);
    this.memory = new RequestMemory(accepted, deps.settings().dedupRetention());
    // A new claim on the partition fences any older holder of it (a zombie) in the ledger.
    this.ownership = deps.ledger().owners().take(context.applicationId(), context.taskId().partition(), deps.owner());
    // After a restart or rebalance: ready wallets continue, waiting ones are watched.
    try (KeyValueIterator<String, WalletHead> all = heads.all()) {
      while (all.hasNext()) {
        KeyValue<String, WalletHead> entry = all.next();
        track(entry.key, entry.value);
      }
    }
    context.schedule(deps.settings().tickInterval(), PunctuationType.WALL_CLOCK_TIME, t -> issueReadyWallets());
    context.schedule(WATCHDOG_INTERVAL, PunctuationType.WALL_CLOCK_TIME, t -> recheckOverdue());
  }

  @Override
  public void close() {
    reportedPartlySettled.forEach(key -> deps.metrics().partlySettled(key, null));
  }

  @Override
  public void process(Record<String, Object> record) {
    if (record.value() instanceof PayoutRequest request) {
      accept(record.key(), request, Instant.ofEpochMilli(record.timestamp()));
    } else if (record.value() instanceof Confirmation confirmation) {
      onConfirmation(record.key(), confirmation);
    } else {
      throw new IllegalStateException("wallet-tx got a record it cannot handle: key=" + record.key() + " type="
          + (record.value() == null ? "null" : record.value().getClass().getName()));
    }
  }

  // ---- intake: a store write, never a round --------------------------------------------------

  private void accept(String key, PayoutRequest request, Instant recordTime) {
    RequestMemory.Seen seen = memory.lookup(request, recordTime);
    if (seen instanceof RequestMemory.Duplicate) {
      deps.metrics().duplicate();
      log.info("duplicate request ignored subwallet={} request={}", key, request.requestId());
      return;
    }
    if (seen instanceof RequestMemory.Conflict conflict) {
      deps.metrics().conflict();
      reject(key, request, "requestId '" + request.requestId() + "' was already accepted with other content; a"
          + " requestId pays one thing, this request is refused. Differences (first -> this): "
          + String.join("; ", conflict.differences()));
      return;
    }
    WalletHead head = load(key, request.subwalletId());
    if (head.queued() >= deps.settings().backlogMax()) {
      deps.metrics().backlogFull();
      reject(key, request, "wallet backlog full: subwallet " + request.subwalletId() + " has " + head.queued()
          + " requests queued (limit " + deps.settings().backlogMax() + ", wallet.backlog.max); send it again later");
      return;
    }
    queue.put(head.subwalletId(), head.tailSeq(), queued(request));
    WalletHead next = head.enqueued();
    heads.put(key, next);
    memory.remember(request, recordTime);
    deps.metrics().accepted();
    log.info("request accepted subwallet={} request={} transfers={} queued={}", key, request.requestId(),
        request.transfers().size(), next.queued());
    track(key, next);
  }

  /** The request with the record it was read from: the identity of this copy of it. */
  private QueuedRequest queued(PayoutRequest request) {
    Optional<RecordMetadata> meta = context.recordMetadata();
    return new QueuedRequest(request, meta.map(RecordMetadata::topic).orElse(Topics.PAYOUT_REQUESTS.name()),
        meta.map(RecordMetadata::partition).orElse(-1), meta.map(RecordMetadata::offset).orElse(-1L));
  }

  private void reject(String key, PayoutRequest request, String reason) {
    reject(key, queued(request), reason);
  }

  /** Refuses a request to {@code payout.rejected}, naming the record it came from. */
  private void reject(String key, QueuedRequest queued, String reason) {
    byte[] payload = Topics.PAYOUT_REQUESTS.valueSerde().serializer().serialize(queued.topic(), queued.request());
    Rejected rejected = Rejected.of(reason, key, payload, queued.topic(),
        queued.partition() < 0 ? null : queued.partition(), queued.offset() < 0 ? null : queued.offset(),
        deps.clock().instant());
    PayoutRequest request = queued.request();
    deps.metrics().rejected();
    log.warn("request rejected subwallet={} request={} reason={}", key, request.requestId(), reason);
    context.forward(new Record<>(key, (Object) rejected, deps.clock().millis()), REJECTED_SINK);
  }

  // ---- verdicts --------------------------------------------------------------------------------

  private void onConfirmation(String key, Confirmation verdict) {
    if (verdict.status() == ConfirmationStatus.BOUNCED) {
      onBounce(key, verdict);
      return;
    }
    WalletHead head = heads.get(key);
    QueuedRequest queued = head == null || !head.hasWork() ? null : queue.head(head);
    if (queued == null || !isCurrent(head, queued, verdict)) {
      recordLateVerdict(key, verdict);
      return;
    }
    if (verdict.status() == ConfirmationStatus.EXPIRED && head.current() != null
        && !head.current().newestHash().equals(verdict.messageHash())) {
      log.info("expiry of an older attempt ignored subwallet={} request={} transfer={} hash={} newest={}", key,
          verdict.requestId(), verdict.transferId(), verdict.messageHash(), head.current().newestHash());
      return;
    }
    VerdictResult result = toLedger(verdict);
    apply(key, head, queued, verdict, result);
  }

  private static boolean isCurrent(WalletHead head, QueuedRequest queued, Confirmation verdict) {
    PayoutRequest request = queued.request();
    return request.requestId().equals(verdict.requestId())
        && head.transferIndex() < request.transfers().size()
        && request.transfer(head.transferIndex()).transferId().equals(verdict.transferId());
  }

  private VerdictResult toLedger(Confirmation v) {
    var transitions = deps.ledger().transitions();
    return switch (v.status()) {
      case CONFIRMED -> transitions.confirm(v.messageHash(), v.txHash(), v.lt(), v.utime(), v.feeNano());
      case FAILED -> transitions.fail(v.messageHash(), v.reason(), v.txHash(), v.lt(), v.utime(), v.feeNano());
      case EXPIRED -> transitions.expire(v.messageHash(), v.evidenceUtime());
      case RECONCILIATION_REQUIRED -> transitions.reconcile(v.messageHash(), v.reason());
      case BOUNCED -> throw new IllegalStateException("bounces are not verdicts on a message in flight");
    };
  }

  /** Turns what the ledger made of a verdict into the wallet's next state and events. */
  private void apply(String key, WalletHead head, QueuedRequest queued, Confirmation verdict, VerdictResult result) {
    if (result instanceof VerdictResult.Applied a) {
      decideOrWait(key, head, queued, a.transfer(), a.message(), verdict);
    } else if (result instanceof VerdictResult.GaveUp g) {
      publishDecided(key, head, queued, g.transfer(), g.message(), verdict);
    } else if (result instanceof VerdictResult.Repeated r) {
      decideOrWait(key, head, queued, r.transfer(), r.message(), verdict);
    } else if (result instanceof VerdictResult.Contradicted x) {
      deps.metrics().ledgerContradiction();
      if (x.transfer().status().isOpen()) {
        // The chain contradicts our record of this message: claim nothing, hand it to an operator.
        VerdictResult flagged = deps.ledger().transitions().reconcile(x.message().messageHash(),
            "the chain's verdict " + verdict.status() + " contradicts the ledger: " + x.why());
        TransferRow transfer = flagged instanceof VerdictResult.Applied fa ? fa.transfer() : x.transfer();
        decideOrWait(key, head, queued, transfer, x.message(), null);
      } else {
        publishDecided(key, head, queued, x.transfer(), x.message(), null);
      }
    } else if (result instanceof VerdictResult.TooEarly t) {
      log.warn("expiry not proven yet, still waiting subwallet={} request={} transfer={} hash={} nodeTime={}"
          + " validUntil={}", key, verdict.requestId(), verdict.transferId(), verdict.messageHash(), t.evidenceUtime(),
          t.message().validUntil().getEpochSecond());
    } else if (result instanceof VerdictResult.Unknown u) {
      log.error("verdict for a message the ledger never recorded subwallet={} request={} transfer={} hash={}", key,
          verdict.requestId(), verdict.transferId(), u.messageHash());
    }
  }

  /** A decided transfer is published; an open one whose newest message expired waits for its next attempt. */
  private void decideOrWait(String key, WalletHead head, QueuedRequest queued, TransferRow transfer, LedgerRow message,
      Confirmation verdict) {
    if (!transfer.status().isOpen()) {
      publishDecided(key, head, queued, transfer, message, verdict);
      return;
    }
    if (!message.status().isLive() && (head.current() == null || head.current().newestHash().equals(message.messageHash()))) {
      deps.metrics().expired();
      log.info("message expired unapplied, the transfer gets a new one with the same seqno subwallet={} request={}"
          + " transfer={} seqno={} hash={} attempt={} nodeTime={}", key, transfer.requestId(), transfer.transferId(),
          message.seqno(), message.messageHash(), message.attempt(), message.evidenceUtime());
      save(key, head.expired());
    }
  }

  /** Publishes the ledger's outcome of the head's transfer and moves the wallet on. */
  private void publishDecided(String key, WalletHead head, QueuedRequest queued, TransferRow transfer,
      LedgerRow message, Confirmation verdict) {
    PayoutRequest request = queued.request();
    Instant now = deps.clock().instant();
    forwardSettlement(key, TransferEvents.settlement(request, transfer, message, verdict, now));
    if (transfer.status() == TransferStatus.SETTLED) {
      WalletHead next = head.advance(transfer.seqno(), request.transfers().size(), now);
      if (next.headSeq() != head.headSeq()) {
        queue.removeHead(head);
      }
      save(key, next);
      return;
    }
    String reason = "transfer " + transfer.transferId() + " " + transfer.status();
    deps.ledger().transfers().abortRest(request, queued.origin(), transfer.walletAddress(),
        transfer.transferIndex() + 1, reason);
    TransferEvents.abortedAfter(request, transfer.transferIndex(), reason, now).forEach(s -> forwardSettlement(key, s));
    queue.removeHead(head);
    save(key, head.nextRequest(appliedSeqno(transfer)));
  }

  /** The seqno a decided transfer proves used (the stale-read guard's floor), or null. */
  private static Long appliedSeqno(TransferRow transfer) {
    boolean used = transfer.status() == TransferStatus.RECONCILIATION_REQUIRED
        || (transfer.status() == TransferStatus.FAILED && transfer.txHash() != null);
    return used ? transfer.seqno() : null;
  }

  /** A verdict about a transfer that is not the wallet's current one: the ledger records it, nothing is published. */
  private void recordLateVerdict(String key, Confirmation v) {
    if (v.status() == ConfirmationStatus.CONFIRMED || v.status() == ConfirmationStatus.FAILED) {
      VerdictResult result = toLedger(v);
      if (result instanceof VerdictResult.Contradicted) {
        deps.metrics().ledgerContradiction();
      }
      log.warn("verdict for a transfer not in flight subwallet={} request={} transfer={} hash={} status={} ledger={}",
          key, v.requestId(), v.transferId(), v.messageHash(), v.status(), result.getClass().getSimpleName());
    } else {
      log.info("verdict for a transfer not in flight ignored subwallet={} request={} transfer={} hash={} status={}",
          key, v.requestId(), v.transferId(), v.messageHash(), v.status());
    }
  }

  /** A settled payout came back: record it (ledger and audit), then publish the BOUNCED correction once. */
  private void onBounce(String key, Confirmation bounce) {
    TransferDecision decision = deps.ledger().transfers().recordBounce(bounce.requestId(), bounce.transferId(),
        bounce.txHash(), bounce.returnedNano(), bounce.reason());
    if (decision instanceof TransferDecision.Decided d) {
      deps.metrics().settled(org.tonpayouts.schemas.SettlementStatus.BOUNCED);
      forwardSettlement(key, TransferEvents.bounced(d.transfer(), bounce, deps.clock().instant()));
    } else {
      log.info("bounce not published subwallet={} request={} transfer={} tx={} ledger={}", key, bounce.requestId(),
          bounce.transferId(), bounce.txHash(), decision);
    }
  }

  // ---- issuing rounds ----------------------------------------------------------------------------

  /** One issuing round for every wallet that became ready since the last one. */
  private void issueReadyWallets() {
    if (readyWallets.isEmpty() || fenced) {
      return;
    }
    Instant started = deps.clock().instant();
    List<IssueTask> tasks = new ArrayList<>();
    for (String key : List.copyOf(readyWallets)) {
      readyWallets.remove(key);
      WalletHead head = heads.get(key);
      if (head == null || !head.readyToIssue()) {
        continue;
      }
      QueuedRequest queued = queue.head(head);
      if (queued == null) {
        log.error("queue lost the head request subwallet={} position={}: skipping it", key, head.headSeq());
        save(key, head.nextRequest(null));
        continue;
      }
      TonAddress wallet = deps.subwallets().address(head.subwalletId());
      Long floor = head.lastAppliedSeqno() != null ? head.lastAppliedSeqno()
          : deps.ledger().queries().highestAppliedSeqno(wallet.toRaw()).orElse(null);
      tasks.add(new IssueTask(head, queued, wallet, floor, ownership));
    }
    if (tasks.isEmpty()) {
      return;
    }
    for (IssueOutcome outcome : deps.round().run(tasks)) {
      apply(outcome);
    }
    deps.metrics().issuingRound(Duration.between(started, deps.clock().instant()));
  }

  private void apply(IssueOutcome outcome) {
    IssueTask task = outcome.task();
    String key = task.key();
    WalletHead head = heads.get(key);
    if (outcome instanceof Submitted s) {
      submitted(key, head, task.queued(), s.message(), s.hashes(), s.firstSubmittedAt(), s.resumed(), s.recheck());
    } else if (outcome instanceof Deferred) {
      readyWallets.add(key);
    } else if (outcome instanceof Decided d) {
      log.info("outcome found in the ledger subwallet={} request={} transfer={} status={}", key, task.requestId(),
          task.transferId(), d.transfer().status());
      publishDecided(key, head, task.queued(), d.transfer(), d.message(), null);
    } else if (outcome instanceof Duplicate dup) {
      deps.metrics().duplicate();
      log.info("later copy of a recorded request dropped subwallet={} request={} {}", key, task.requestId(), dup.why());
      dropHeadRequest(key, head);
    } else if (outcome instanceof Conflict c) {
      deps.metrics().conflict();
      reject(key, task.queued(), c.conflict().reason());
      dropHeadRequest(key, head);
    } else if (outcome instanceof IssueOutcome.Fenced f) {
      deps.metrics().fenced();
      if (!fenced) {
        log.error("not the owner of partition {} any more, issuing nothing: {}", ownership.partition(), f.why());
      }
      fenced = true;
      readyWallets.add(key);
    }
  }

  /** The wallet waits for a verdict on {@code row}; the poller is told to watch it. */
  private void submitted(String key, WalletHead head, QueuedRequest queued, LedgerRow row, List<String> hashes,
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
    context.forward(new Record<>(key, submission, deps.clock().millis()), SUBMISSIONS_SINK);
  }

  /** When a transfer without a verdict is re-checked: well past its valid_until (or, for a re-check, one timeout on). */
  private Instant recheckAt(long validUntil, Instant now, boolean recheck) {
    Instant due = Instant.ofEpochSecond(validUntil).plus(deps.settings().clockSkew())
        .plus(deps.settings().verdictTimeout());
    Instant next = now.plus(deps.settings().verdictTimeout());
    return recheck || due.isBefore(next) ? next : due;
  }

  private void dropHeadRequest(String key, WalletHead head) {
    queue.removeHead(head);
    save(key, head.nextRequest(null));
  }

  // ---- the watchdog: no wallet waits forever -----------------------------------------------------

  /**
   * Re-checks transfers whose verdict is overdue: the ledger first (another run may have decided
   * it), then the chain, by handing the newest message back to the poller as a re-check (it then
   * derives the outcome again, even if it remembers a verdict the processor never got).
   */
  private void recheckOverdue() {
    Instant now = deps.clock().instant();
    List<String> due = awaiting.entrySet().stream().filter(e -> !e.getValue().isAfter(now)).map(Map.Entry::getKey)
        .toList();
    if (due.isEmpty()) {
      return;
    }
    Map<TransferRef, String> keys = new HashMap<>();
    Map<String, QueuedRequest> requests = new HashMap<>();
    for (String key : due) {
      WalletHead head = heads.get(key);
      QueuedRequest queued = head == null || !head.awaitingVerdict() ? null : queue.head(head);
      if (queued == null) {
        awaiting.remove(key);
        continue;
      }
      keys.put(new TransferRef(queued.request(), head.transferIndex()), key);
      requests.put(key, queued);
    }
    Map<TransferRef, TransferHistory> histories = deps.ledger().queries().histories(List.copyOf(keys.keySet()));
    histories.forEach((ref, history) -> {
      String key = keys.get(ref);
      recheck(key, heads.get(key), requests.get(key), history, now);
    });
  }

  private void recheck(String key, WalletHead head, QueuedRequest queued, TransferHistory history, Instant now) {
    deps.metrics().verdictOverdue();
    if (history.transfer() != null && !history.transfer().status().isOpen()) {
      log.warn("overdue verdict found in the ledger subwallet={} request={} transfer={} status={}", key,
          queued.request().requestId(), history.transfer().transferId(), history.transfer().status());
      LedgerRow decider = history.messages().stream()
          .filter(m -> m.messageHash().equals(history.transfer().messageHash())).findFirst().orElse(null);
      publishDecided(key, head, queued, history.transfer(), decider, null);
      return;
    }
    if (history.messages().isEmpty()) {
      save(key, new WalletHead(head.subwalletId(), head.headSeq(), head.tailSeq(), head.transferIndex(), null,
          head.lastAppliedSeqno(), head.partlySettledSince()));
      return;
    }
    LedgerRow newest = history.newest().orElseThrow();
    if (history.liveMessage().isEmpty()) {
      log.warn("overdue transfer has no live message, next attempt subwallet={} request={} transfer={} hash={}", key,
          newest.requestId(), newest.transferId(), newest.messageHash());
      save(key, head.expired());
      return;
    }
    Instant first = history.messages().get(0).createdAt();
    log.warn("verdict overdue, asking the poller to re-check subwallet={} request={} transfer={} seqno={} hash={}"
        + " validUntil={}", key, newest.requestId(), newest.transferId(), newest.seqno(), newest.messageHash(),
        newest.validUntil());
    submitted(key, head, queued, newest, history.hashes(), first, true, true);
  }

  // ---- state ----------------------------------------------------------------------------------------

  private void forwardSettlement(String key, Settlement settlement) {
    deps.metrics().settled(settlement.status());
    log.info("settled subwallet={} request={} transfer={} status={} seqno={} tx={} reason={}", key,
        settlement.requestId(), settlement.transferId(), settlement.status(), settlement.seqno(),
        settlement.txHash(), settlement.reason());
    context.forward(new Record<>(key, settlement, deps.clock().millis()), SETTLEMENTS_SINK);
  }

  private WalletHead load(String key, long subwalletId) {
    WalletHead head = heads.get(key);
    return head != null ? head : WalletHead.empty(subwalletId);
  }

  private void save(String key, WalletHead head) {
    heads.put(key, head);
    track(key, head);
  }

  /** Keeps the in-memory indexes (ready, awaiting, partly settled) in step with a wallet's state. */
  private void track(String key, WalletHead head) {
    if (head.readyToIssue()) {
      readyWallets.add(key);
    } else {
      readyWallets.remove(key);
    }
    if (head.awaitingVerdict()) {
      awaiting.put(key, head.current().recheckAt());
    } else {
      awaiting.remove(key);
    }
    deps.metrics().partlySettled(key, head.partlySettledSince());
    if (head.partlySettledSince() != null) {
      reportedPartlySettled.add(key);
    } else {
      reportedPartlySettled.remove(key);
    }
  }

}
