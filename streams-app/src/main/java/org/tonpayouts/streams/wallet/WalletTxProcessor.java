package org.tonpayouts.streams.wallet;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.WindowStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.schemas.Confirmation;
import org.tonpayouts.schemas.ConfirmationStatus;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.schemas.Rejected;
import org.tonpayouts.schemas.Settlement;
import org.tonpayouts.schemas.SettlementStatus;
import org.tonpayouts.schemas.Submission;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.runtime.wakeup.PacedPunctuations;
import org.tonpayouts.runtime.wakeup.StreamThreadWaker;
import org.tonpayouts.runtime.wakeup.StreamThreadWakeups;
import org.tonpayouts.runtime.wakeup.TransactionCommits;
import org.tonpayouts.streams.io.Inbox;
import org.tonpayouts.streams.ledger.LedgerQueries.TransferRef;
import org.tonpayouts.streams.ledger.LedgerRow;
import org.tonpayouts.streams.ledger.Ownership;
import org.tonpayouts.streams.ledger.RecordedVerdict;
import org.tonpayouts.streams.ledger.TransferDecision;
import org.tonpayouts.streams.ledger.TransferHistory;
import org.tonpayouts.streams.ledger.TransferRow;
import org.tonpayouts.streams.ledger.TransferStatus;
import org.tonpayouts.streams.ledger.VerdictCommand;
import org.tonpayouts.streams.ledger.VerdictResult;
import org.tonpayouts.streams.wallet.IssueOutcome.Conflict;
import org.tonpayouts.streams.wallet.IssueOutcome.Decided;
import org.tonpayouts.streams.wallet.IssueOutcome.Deferred;
import org.tonpayouts.streams.wallet.IssueOutcome.Duplicate;
import org.tonpayouts.streams.wallet.IssueOutcome.Submitted;
import org.tonpayouts.ton.address.TonAddress;

/**
 * The wallet state machine: per subwallet a FIFO of accepted requests and at most one transfer
 * waiting for the chain (invariant 3), driven by requests, the chain poller's verdicts and the
 * results of the I/O it hands to {@link WalletIo}.
 *
 * <p>The stream thread never waits on the network or the database. Accepting a request is a
 * store write; a wallet that becomes ready is handed to the instance's issuing rounds at once; a
 * verdict is handed to the ledger's verdict batches. Their results come back through this task's
 * {@link Inbox} and are applied here, on the stream thread, after checking that the wallet is
 * still where it was when the work was handed over. Every decision is in the ledger before its
 * events are forwarded; the events and the store changes commit together in the task's
 * exactly-once transaction, and work in flight when a process dies is found again in the ledger.
 *
 * <p>Punctuations run only while there is something to wait for (results in flight, deferred
 * wallets, transfers awaiting a verdict), so an idle instance makes no commits.
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
  private static final Duration WORK_INTERVAL = Duration.ofMillis(2);
  private static final Duration WATCHDOG_INTERVAL = Duration.ofSeconds(1);
  /** How long a wallet whose round deferred it (stale read, API trouble) waits before the next try. */
  private static final Duration DEFER = Duration.ofMillis(250);
  /**
   * The longest a wallet waits for the commit of its transfer's outcome before issuing the next
   * one anyway: a commit comes every {@code streams.commit.interval.ms}; one that does not come
   * (the task is failing) must not hold the wallet.
   */
  private static final Duration COMMIT_WAIT_LIMIT = Duration.ofSeconds(1);
  /** How long a verdict the ledger could not record waits before it is tried again. */
  private static final Duration VERDICT_RETRY = Duration.ofSeconds(1);

  private final WalletTxDependencies deps;
  // The in-memory state below is made anew by every init(): Kafka Streams re-initialises the same
  // processor instance when it revives a task after a dirty close (a corrupted task under
  // exactly-once, e.g. an aborted transaction), and what the old incarnation held (wallets handed
  // to a round, results not yet drained, the fenced flag) no longer matches the restored stores.
  // A round still running for the old incarnation delivers into its old inbox, which nobody
  // drains: the new incarnation rechecks every waiting wallet in the ledger and hands the ready
  // ones over again, and the ledger refuses a second intent for a transfer that already has one.
  private Inbox inbox;
  private WalletIndex index;
  /** Verdicts the ledger could not record, to try again, with when. */
  private Map<VerdictCommand, Instant> verdictRetries;
  private Set<String> reportedPartlySettled = new HashSet<>();
  private ProcessorContext<String, Object> context;
  private WalletHeads heads;
  private WalletQueue queue;
  private RequestMemory memory;
  /** This task's claim on its partition; every intent it records carries it. */
  private Ownership ownership;
  /** Set once a newer owner took the partition: this task is a zombie and issues nothing more. */
  private boolean fenced;
  private Cancellable work;
  private Cancellable watchdog;
  private StreamThreadWaker waker = StreamThreadWaker.NONE;

  public WalletTxProcessor(WalletTxDependencies deps) {
    this.deps = deps;
  }

  @Override
  public void init(ProcessorContext<String, Object> context) {
    this.context = context;
    this.inbox = new Inbox();
    this.index = new WalletIndex();
    this.verdictRetries = new HashMap<>();
    this.reportedPartlySettled = new HashSet<>();
    this.fenced = false;
    cancelPunctuations(); // a revived task starts with no punctuation of ours scheduled
    this.waker = StreamThreadWakeups.forCurrentThread();
    inbox.wakeWith(waker::wake);
    this.heads = new WalletHeads(context.getStateStore(WALLET_HEADS_STORE));
    this.queue = new WalletQueue(context.getStateStore(WALLET_QUEUE_STORE));
    WindowStore<String, PayoutRequest> accepted = context.getStateStore(REQUEST_MEMORY_STORE);
    this.memory = new RequestMemory(accepted, deps.settings().dedupRetention());
    // A new claim on the partition fences any older holder of it (a zombie) in the ledger.
    this.ownership = deps.ledger().owners().take(context.applicationId(), context.taskId().partition(), deps.owner());
    // After a restart or a rebalance: ready wallets continue, and every wallet that waits for a
    // verdict is looked up in the ledger at once (a verdict recorded just before the crash).
    heads.forEach((key, head) -> {
      track(key, head);
      if (head.awaitingVerdict()) {
        recheck(key, head, true);
      }
    });
    afterWork();
  }

  @Override
  public void close() {
    cancelPunctuations();
    reportedPartlySettled.forEach(key -> deps.metrics().partlySettled(key, null));
  }

  /** Cancels our punctuations and releases their paces (Kafka Streams drops a closed task's punctuations, not the paces). */
  private void cancelPunctuations() {
    if (work != null) {
      work.cancel();
      work = null;
    }
    if (watchdog != null) {
      watchdog.cancel();
      watchdog = null;
    }
  }

  @Override
  public void process(Record<String, Object> record) {
    inbox.drain();
    if (record.value() instanceof PayoutRequest request) {
      accept(record.key(), request, Instant.ofEpochMilli(record.timestamp()));
    } else if (record.value() instanceof Confirmation confirmation) {
      onConfirmation(record.key(), confirmation);
    } else {
      throw new IllegalStateException("wallet-tx got a record it cannot handle: key=" + record.key() + " type="
          + (record.value() == null ? "null" : record.value().getClass().getName()));
    }
    afterWork();
  }

  // ---- scheduling: hand over what is ready, punctuate only while something is pending ----------

  /** Hands every ready wallet to the issuing rounds and keeps the punctuations to what is pending. */
  private void afterWork() {
    if (!fenced) {
      Instant now = now();
      for (String key : index.readyToHandOver(now)) {
        handOver(key);
      }
    }
    boolean working = inbox.pending() > 0 || index.hasDeferred() || !verdictRetries.isEmpty();
    if (working && work == null) {
      work = PacedPunctuations.schedule(context, waker, WORK_INTERVAL, t -> onWorkTick());
    } else if (!working && work != null) {
      work.cancel();
      work = null;
    }
    boolean awaiting = index.hasAwaiting();
    if (awaiting && watchdog == null) {
      watchdog = PacedPunctuations.schedule(context, waker, WATCHDOG_INTERVAL, t -> onWatchdogTick());
    } else if (!awaiting && watchdog != null) {
      watchdog.cancel();
      watchdog = null;
    }
  }

  private void onWorkTick() {
    inbox.drain();
    retryDueVerdicts();
    afterWork();
  }

  private void onWatchdogTick() {
    inbox.drain();
    Instant now = deps.clock().instant(); // recheck times derive from valid_until and our clock
    for (String key : index.overdue(now)) {
      WalletHead head = heads.get(key);
      if (head != null && head.awaitingVerdict()) {
        deps.metrics().verdictOverdue();
        recheck(key, head, false);
      }
    }
    afterWork();
  }

  /** Our clock for the processor's own timing (deferrals, the watchdog); the driver's in tests. */
  private Instant now() {
    return Instant.ofEpochMilli(context.currentSystemTimeMs());
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
      reject(key, queued(request), "requestId '" + request.requestId() + "' was already accepted with other content;"
          + " a requestId pays one thing, this request is refused. Differences (first -> this): "
          + String.join("; ", conflict.differences()));
      return;
    }
    WalletHead head = load(key, request.subwalletId());
    if (head.queued() >= deps.settings().backlogMax()) {
      deps.metrics().backlogFull();
      reject(key, queued(request), "wallet backlog full: subwallet " + request.subwalletId() + " has " + head.queued()
          + " requests queued (limit " + deps.settings().backlogMax() + ", wallet.backlog.max); send it again later");
      return;
    }
    queue.put(head.subwalletId(), head.tailSeq(), queued(request));
    WalletHead next = head.enqueued();
    save(key, next);
    memory.remember(request, recordTime);
    deps.metrics().accepted();
    log.info("request accepted subwallet={} request={} transfers={} queued={}", key, request.requestId(),
        request.transfers().size(), next.queued());
  }

  /** The request with the record it was read from: the identity of this copy of it. */
  private QueuedRequest queued(PayoutRequest request) {
    Optional<RecordMetadata> meta = context.recordMetadata();
    return new QueuedRequest(request, meta.map(RecordMetadata::topic).orElse(Topics.PAYOUT_REQUESTS.name()),
        meta.map(RecordMetadata::partition).orElse(-1), meta.map(RecordMetadata::offset).orElse(-1L));
  }

  /** Refuses a request to {@code payout.rejected}, naming the record it came from. */
  private void reject(String key, QueuedRequest queued, String reason) {
    byte[] payload = Topics.PAYOUT_REQUESTS.valueSerde().serializer().serialize(queued.topic(), queued.request());
    Rejected rejected = Rejected.of(reason, key, payload, queued.topic(),
        queued.partition() < 0 ? null : queued.partition(), queued.offset() < 0 ? null : queued.offset(),
        deps.clock().instant());
    deps.metrics().rejected();
    log.warn("request rejected subwallet={} request={} reason={}", key, queued.request().requestId(), reason);
    context.forward(new Record<>(key, (Object) rejected, deps.clock().millis()), REJECTED_SINK);
  }

  // ---- verdicts: to the ledger's batches, applied when recorded ---------------------------------

  private void onConfirmation(String key, Confirmation verdict) {
    log.debug("verdict received subwallet={} request={} transfer={} status={} hash={} observedAt={}", key,
        verdict.requestId(), verdict.transferId(), verdict.status(), verdict.messageHash(), verdict.observedAt());
    WalletHead head = heads.get(key);
    QueuedRequest queued = head == null || !head.hasWork() ? null : queue.head(head);
    boolean current = queued != null && isCurrent(head, queued, verdict);
    if (verdict.status() == ConfirmationStatus.EXPIRED && current && head.current() != null
        && !head.current().newestHash().equals(verdict.messageHash())) {
      log.info("expiry of an older attempt ignored subwallet={} request={} transfer={} hash={} newest={}", key,
          verdict.requestId(), verdict.transferId(), verdict.messageHash(), head.current().newestHash());
      return;
    }
    recordVerdict(key, new VerdictCommand(verdict, current ? queued.request() : null,
        current ? queued.origin() : null, walletAddress(verdict.subwalletId())));
  }

  private void recordVerdict(String key, VerdictCommand command) {
    deps.io().record(command, inbox, recorded -> onRecorded(key, recorded));
  }

  private String walletAddress(long subwalletId) {
    return deps.subwallets().address(subwalletId).toRaw();
  }

  private static boolean isCurrent(WalletHead head, QueuedRequest queued, Confirmation verdict) {
    PayoutRequest request = queued.request();
    return request.requestId().equals(verdict.requestId())
        && head.transferIndex() < request.transfers().size()
        && request.transfer(head.transferIndex()).transferId().equals(verdict.transferId());
  }

  /** A verdict is in the ledger: turn it into the wallet's next state and events. */
  private void onRecorded(String key, RecordedVerdict recorded) {
    Confirmation verdict = recorded.command().verdict();
    if (recorded instanceof RecordedVerdict.Failed failed) {
      log.warn("verdict not recorded, retrying in {} ms subwallet={} request={} hash={} why={}", VERDICT_RETRY.toMillis(),
          key, verdict.requestId(), verdict.messageHash(), failed.why());
      verdictRetries.put(recorded.command(), now().plus(VERDICT_RETRY));
      return;
    }
    if (recorded instanceof RecordedVerdict.Bounce bounce) {
      onBounce(key, verdict, bounce.decision());
      return;
    }
    RecordedVerdict.OnMessage onMessage = (RecordedVerdict.OnMessage) recorded;
    WalletHead head = heads.get(key);
    QueuedRequest queued = head == null || !head.hasWork() ? null : queue.head(head);
    if (queued == null || !isCurrent(head, queued, verdict)) {
      if (onMessage.result() instanceof VerdictResult.Contradicted) {
        deps.metrics().ledgerContradiction();
      }
      log.info("verdict for a transfer not in flight recorded subwallet={} request={} transfer={} hash={} status={}"
          + " ledger={}", key, verdict.requestId(), verdict.transferId(), verdict.messageHash(), verdict.status(),
          onMessage.result().getClass().getSimpleName());
      return;
    }
    apply(key, head, queued, verdict, onMessage.result());
  }

  private void retryDueVerdicts() {
    if (verdictRetries.isEmpty()) {
      return;
    }
    Instant now = now();
    List<VerdictCommand> due = verdictRetries.entrySet().stream().filter(e -> !e.getValue().isAfter(now))
        .map(Map.Entry::getKey).toList();
    for (VerdictCommand command : due) {
      verdictRetries.remove(command);
      recordVerdict(Topics.walletKey(command.verdict().subwalletId()), command);
    }
  }

  /** Turns what the ledger made of a verdict on the current transfer into the wallet's next state and events. */
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
        Confirmation flag = Confirmation.of(verdict.requestId(), verdict.transferId(), verdict.subwalletId(),
            x.message().messageHash(), x.message().seqno(), ConfirmationStatus.RECONCILIATION_REQUIRED, null, null, null,
            null, "the chain's verdict " + verdict.status() + " contradicts the ledger: " + x.why(), deps.clock().instant());
        recordVerdict(key, new VerdictCommand(flag, queued.request(), queued.origin(), x.message().walletAddress()));
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
    if (!message.status().isLive()
        && (head.current() == null || head.current().newestHash().equals(message.messageHash()))) {
      deps.metrics().expired();
      log.info("message expired unapplied, the transfer gets a new one with the same seqno subwallet={} request={}"
          + " transfer={} seqno={} hash={} attempt={} nodeTime={}", key, transfer.requestId(), transfer.transferId(),
          message.seqno(), message.messageHash(), message.attempt(), message.evidenceUtime());
      stopWatching(head);
      save(key, head.expired());
    }
  }

  /**
   * Publishes the ledger's outcome of the head's transfer and moves the wallet on. The ledger has
   * recorded it (and aborted what it leaves behind) already.
   */
  private void publishDecided(String key, WalletHead head, QueuedRequest queued, TransferRow transfer,
      LedgerRow message, Confirmation verdict) {
    PayoutRequest request = queued.request();
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
    index.holdForCommit(key, TransactionCommits.Wait.forForwarded(now(), COMMIT_WAIT_LIMIT));
  }

  private void stopWatching(WalletHead head) {
    if (head.current() != null) {
      deps.io().forget(head.current().hashes());
    }
  }

  /** The seqno a decided transfer proves used (the stale-read guard's floor), or null. */
  private static Long appliedSeqno(TransferRow transfer) {
    boolean used = transfer.status() == TransferStatus.RECONCILIATION_REQUIRED
        || (transfer.status() == TransferStatus.FAILED && transfer.txHash() != null);
    return used ? transfer.seqno() : null;
  }

  /** A settled payout came back and the ledger recorded it: publish the BOUNCED correction once. */
  private void onBounce(String key, Confirmation bounce, TransferDecision decision) {
    if (decision instanceof TransferDecision.Decided d) {
      deps.metrics().settled(SettlementStatus.BOUNCED);
      forwardSettlement(key, TransferEvents.bounced(d.transfer(), bounce, deps.clock().instant()));
    } else {
      log.info("bounce not published subwallet={} request={} transfer={} tx={} ledger={}", key, bounce.requestId(),
          bounce.transferId(), bounce.txHash(), decision);
    }
  }

  // ---- issuing: handed to the instance's rounds, applied when they come back ---------------------

  private void handOver(String key) {
    WalletHead head = heads.get(key);
    if (head == null || !head.readyToIssue()) {
      index.untrackReady(key);
      return;
    }
    QueuedRequest queued = queue.head(head);
    if (queued == null) {
      log.error("queue lost the head request subwallet={} position={}: skipping it", key, head.headSeq());
      save(key, head.nextRequest(null));
      return;
    }
    TonAddress wallet = deps.subwallets().address(head.subwalletId());
    IssueTask task = new IssueTask(head, queued, wallet, head.lastAppliedSeqno(), ownership);
    index.handedOver(key);
    deps.io().issue(task, inbox, this::onIssued);
  }

  private void onIssued(IssueOutcome outcome) {
    IssueTask task = outcome.task();
    String key = task.key();
    index.returned(key);
    WalletHead head = heads.get(key);
    if (head == null || head.headSeq() != task.head().headSeq() || head.transferIndex() != task.head().transferIndex()
        || head.awaitingVerdict()) {
      log.info("issuing outcome for a wallet that moved on meanwhile dropped subwallet={} outcome={}", key,
          outcome.getClass().getSimpleName());
      if (head != null) {
        track(key, head);
      }
      return;
    }
    if (outcome instanceof Submitted s) {
      submitted(key, head, task.queued(), s.message(), s.hashes(), s.firstSubmittedAt(), s.resumed(), s.recheck());
    } else if (outcome instanceof Deferred d) {
      log.debug("wallet deferred subwallet={} reason={}", key, d.reason());
      index.defer(key, now().plus(DEFER));
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
      if (!fenced) {
        log.error("not the owner of partition {} any more, issuing nothing: {}", ownership.partition(), f.why());
      }
      fenced = true;
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
   * Re-checks a transfer waiting for a verdict: the ledger first (another run may have decided
   * it), then the chain, by handing the newest message back to the poller as a re-check (it then
   * derives the outcome again, even if it remembers a verdict the processor never got). At start
   * ({@code initial}) only what the ledger decided is taken; nothing is handed to the poller.
   */
  private void recheck(String key, WalletHead head, boolean initial) {
    QueuedRequest queued = queue.head(head);
    if (queued == null || !index.startRecheck(key)) {
      return;
    }
    TransferRef ref = new TransferRef(queued.request(), head.transferIndex());
    deps.io().recheck(ref, inbox, history -> onRechecked(key, ref, history, initial));
  }

  private void onRechecked(String key, TransferRef ref, TransferHistory history, boolean initial) {
    index.endRecheck(key);
    WalletHead head = heads.get(key);
    QueuedRequest queued = head == null || !head.awaitingVerdict() ? null : queue.head(head);
    if (queued == null || !queued.request().requestId().equals(ref.requestId())
        || head.transferIndex() != ref.transferIndex()) {
      return; // the wallet moved on meanwhile
    }
    if (history == null) {
      if (!initial) {
        save(key, head.submitted(head.current().recheckAgainAt(deps.clock().instant().plusSeconds(5))));
      }
      return;
    }
    if (history.transfer() != null && !history.transfer().status().isOpen()) {
      log.warn("verdict found in the ledger subwallet={} request={} transfer={} status={}", key, ref.requestId(),
          ref.transferId(), history.transfer().status());
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
      log.warn("transfer waiting for a verdict has no live message, next attempt subwallet={} request={} transfer={}"
          + " hash={}", key, newest.requestId(), newest.transferId(), newest.messageHash());
      stopWatching(head);
      save(key, head.expired());
      return;
    }
    if (initial) {
      return; // still in flight: the poller's verdict comes, or the watchdog asks later
    }
    log.warn("verdict overdue, asking the poller to re-check subwallet={} request={} transfer={} seqno={} hash={}"
        + " validUntil={}", key, newest.requestId(), newest.transferId(), newest.seqno(), newest.messageHash(),
        newest.validUntil());
    submitted(key, head, queued, newest, history.hashes(), history.messages().get(0).createdAt(), true, true);
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

  /** Keeps the in-memory indexes and the partly-settled gauge in step with a wallet's state. */
  private void track(String key, WalletHead head) {
    index.track(key, head);
    deps.metrics().partlySettled(key, head.partlySettledSince());
    if (head.partlySettledSince() != null) {
      reportedPartlySettled.add(key);
    } else {
      reportedPartlySettled.remove(key);
    }
  }
}
