package org.tonpayouts.streams.wallet;

import java.time.Duration;
import java.time.Instant;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.WindowStore;
import org.tonpayouts.runtime.async.Inbox;
import org.tonpayouts.runtime.trust.VerifiedVerdict;
import org.tonpayouts.runtime.wakeup.PacedPunctuations;
import org.tonpayouts.runtime.wakeup.StreamThreadWaker;
import org.tonpayouts.schemas.PayoutRequest;
import org.tonpayouts.streams.ledger.record.Ownership;
import org.tonpayouts.streams.names.TopologyNames;

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
 * <p>This class routes records and keeps the punctuations; each job has its own class, made
 * anew with the task's stores by every {@code init()}: {@link RequestIntake} accepts requests,
 * {@link Issuing} hands ready wallets to the rounds and applies their outcomes,
 * {@link VerdictHandling} takes the poller's verdicts through the ledger, {@link Rechecks} is the
 * watchdog, and {@link TaskWallets} holds the wallets and carries out every move and event.
 *
 * <p>Punctuations run only while there is something to wait for (results in flight, deferred
 * wallets, transfers awaiting a verdict), so an idle instance makes no commits.
 */
public final class WalletTxProcessor implements Processor<String, Object, String, Object> {
  private static final Duration WORK_INTERVAL = Duration.ofMillis(2);
  private static final Duration WATCHDOG_INTERVAL = Duration.ofSeconds(1);

  private final WalletTxDependencies deps;
  // Everything below is made anew by every init(): Kafka Streams re-initialises the same
  // processor instance when it revives a task after a dirty close (a corrupted task under
  // exactly-once, e.g. an aborted transaction), and what the old incarnation held (wallets handed
  // to a round, results not yet drained, the fenced flag) no longer matches the restored stores.
  // A round still running for the old incarnation delivers into its old inbox, which nobody
  // drains: the new incarnation rechecks every waiting wallet in the ledger and hands the ready
  // ones over again, and the ledger refuses a second intent for a transfer that already has one.
  private ProcessorContext<String, Object> context;
  private Inbox inbox;
  private TaskWallets wallets;
  private RequestIntake intake;
  private VerdictHandling verdicts;
  private Issuing issuing;
  private Rechecks rechecks;
  private Cancellable work;
  private Cancellable watchdog;
  private StreamThreadWaker waker = StreamThreadWaker.NONE;

  public WalletTxProcessor(WalletTxDependencies deps) {
    this.deps = deps;
  }

  @Override
  public void init(ProcessorContext<String, Object> context) {
    this.context = context;
    cancelPunctuations(); // a revived task starts with no punctuation of ours scheduled
    this.waker = deps.threads().wakerOfCurrentThread();
    this.inbox = new Inbox();
    inbox.wakeWith(waker::wake);
    this.wallets = new TaskWallets(context, deps);
    WindowStore<String, PayoutRequest> accepted = context.getStateStore(TopologyNames.REQUEST_MEMORY_STORE);
    this.intake = new RequestIntake(wallets, new RequestMemory(accepted, deps.settings().dedupRetention()), deps);
    this.verdicts = new VerdictHandling(wallets, deps, inbox);
    // A new claim on the partition fences any older holder of it (a zombie) in the ledger.
    Ownership ownership = deps.ledger().owners().take(context.applicationId(), context.taskId().partition(), deps.owner());
    this.issuing = new Issuing(wallets, deps, inbox, ownership);
    this.rechecks = new Rechecks(wallets, deps, inbox);
    // After a restart or a rebalance: ready wallets continue, and every wallet that waits for a
    // verdict is looked up in the ledger at once (a verdict recorded just before the crash).
    wallets.forEach((key, head) -> {
      wallets.track(key, head);
      if (head.awaitingVerdict()) {
        rechecks.recheck(key, head, true);
      }
    });
    afterWork();
  }

  @Override
  public void close() {
    cancelPunctuations();
    if (wallets != null) {
      wallets.close();
    }
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
      intake.accept(record.key(), request, Instant.ofEpochMilli(record.timestamp()));
    } else if (record.value() instanceof VerifiedVerdict.Authentic authentic) {
      verdicts.onConfirmation(record.key(), authentic.verdict());
    } else if (record.value() instanceof VerifiedVerdict.Refused refused) {
      verdicts.onRefused(record.key(), refused, context.recordMetadata());
    } else {
      throw new IllegalStateException("wallet-tx got a record it cannot handle: key=" + record.key() + " type="
          + (record.value() == null ? "null" : record.value().getClass().getName()));
    }
    afterWork();
  }

  // ---- scheduling: hand over what is ready, punctuate only while something is pending ----------

  /** Hands every ready wallet to the issuing rounds and keeps the punctuations to what is pending. */
  private void afterWork() {
    issuing.handOverReady(wallets.now());
    WalletIndex index = wallets.index();
    boolean working = inbox.pending() > 0 || index.hasDeferred() || verdicts.hasRetries();
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
    verdicts.retryDue(wallets.now());
    afterWork();
  }

  private void onWatchdogTick() {
    inbox.drain();
    rechecks.recheckOverdue(deps.clock().instant()); // re-check times derive from valid_until and our clock
    afterWork();
  }
}
