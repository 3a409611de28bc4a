package org.tonpayouts.streams.wallet;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.async.Batcher;
import org.tonpayouts.runtime.async.Inbox;
import org.tonpayouts.runtime.ops.OutageLog;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.record.LedgerQueries.TransferRef;
import org.tonpayouts.streams.ledger.record.RecordedVerdict;
import org.tonpayouts.streams.ledger.record.Sends;
import org.tonpayouts.streams.ledger.record.TransferHistory;
import org.tonpayouts.streams.ledger.record.VerdictCommand;
import org.tonpayouts.streams.ledger.sql.TransferRow;
import org.tonpayouts.streams.ledger.sql.TransferStatus;
import org.tonpayouts.streams.send.Resender;
import org.tonpayouts.streams.send.SendLog;
import org.tonpayouts.streams.send.SendRecorder;

/**
 * Every network and database call of the wallet-tx processors of one streams-app instance, off
 * their stream threads (DESIGN.md, performance principle): a stream thread hands work over here
 * and goes on; the result comes back through its task's {@link Inbox} and is applied on the
 * stream thread, where the task's stores and records are.
 *
 * <p>Batching threads, shared by all tasks of the instance: issuing rounds (every ready wallet of
 * the instance handed over meanwhile in one round: one ledger read, concurrent wallet reads, one
 * intent transaction, concurrent sends; up to {@link #CONCURRENT_ROUNDS} rounds at once, so a
 * wallet that becomes ready never waits for a running round's slowest wallet), verdicts (every
 * confirmation queued meanwhile in one ledger transaction) and re-checks (ledger histories of
 * overdue transfers in one read). A batch costs a fixed number of round trips whatever its size,
 * and under load batches grow instead of queueing. A wallet is in at most one round at a time:
 * its processor hands it over again only once the outcome came back. The {@link SendRecorder}
 * records the answers to the rounds' sends (the acknowledged ones wait in the {@link SendLog} and
 * are written with their verdicts); the {@link Resender} re-sends messages that got no verdict.
 */
public final class WalletIo implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(WalletIo.class);
  /**
   * Issuing rounds that may run at once. A round mostly waits (ledger, wallet reads); more rounds
   * overlap those waits, and each wallet is in one round at a time whatever the number.
   */
  public static final int CONCURRENT_ROUNDS = 4;

  private final IssuingRound round;
  private final Ledger ledger;
  private final Resender resender;
  private final SendRecorder sends;
  private final SendLog sendLog;
  private final Batcher<IssueJob> issues;
  private final Batcher<VerdictJob> verdicts;
  private final Batcher<RecheckJob> rechecks;
  private final Batcher<AuditEvent> audits;

  private record IssueJob(IssueTask task, Inbox inbox, Consumer<IssueOutcome> then) {}

  private record VerdictJob(VerdictCommand command, Inbox inbox, Consumer<RecordedVerdict> then) {}

  private record RecheckJob(TransferRef ref, Inbox inbox, Consumer<TransferHistory> then) {}

  public WalletIo(IssuingRound round, Ledger ledger, Resender resender, SendRecorder sends, SendLog sendLog,
      Clock clock) {
    this.round = round;
    this.ledger = ledger;
    this.resender = resender;
    this.sends = sends;
    this.sendLog = sendLog;
    LedgerBatches ledgerBatches = new LedgerBatches(new OutageLog(log, "ledger", clock));
    Consumer<List<IssueJob>> deferIssues = jobs -> jobs.forEach(j -> deliver(j,
        new IssueOutcome.Deferred(j.task(), "issuing round failed: see the log")));
    this.issues = new Batcher<>("payout-issuer", CONCURRENT_ROUNDS, ledgerBatches.guard("issuing", this::issueRound,
        deferIssues), deferIssues);
    Consumer<List<VerdictJob>> verdictsNotRecorded = jobs -> jobs.forEach(j -> j.inbox()
        .deliver(() -> j.then().accept(new RecordedVerdict.Failed(j.command(), "ledger unavailable"))));
    this.verdicts = new Batcher<>("payout-verdicts", ledgerBatches.guard("verdicts", this::recordVerdicts,
        verdictsNotRecorded), verdictsNotRecorded);
    Consumer<List<RecheckJob>> notRead = jobs -> jobs.forEach(j -> j.inbox().deliver(() -> j.then().accept(null)));
    this.rechecks = new Batcher<>("payout-rechecks", ledgerBatches.guard("rechecks", this::readHistories, notRead),
        notRead);
    this.audits = new Batcher<>("payout-audit", events -> events.forEach(e -> ledger.audit().record(e)),
        events -> events.forEach(e -> log.error("audit event not recorded (the ledger failed) event={} subwallet={}"
            + " request={} transfer={} seqno={} hash={} detail={}", e.event(), e.subwalletId(), e.requestId(),
            e.transferId(), e.seqno(), e.messageHash(), e.detail())));
  }

  /** Records an audit event the stream thread decided on, off the stream thread. */
  public void audit(AuditEvent event) {
    audits.submit(event);
  }

  /** Issues {@code task} in the next round; {@code then} runs on the task's stream thread with the outcome. */
  public void issue(IssueTask task, Inbox inbox, Consumer<IssueOutcome> then) {
    inbox.expect();
    issues.submit(new IssueJob(task, inbox, then));
  }

  /** Records a chain verdict in the next verdict batch; {@code then} runs on the stream thread. */
  public void record(VerdictCommand command, Inbox inbox, Consumer<RecordedVerdict> then) {
    inbox.expect();
    verdicts.submit(new VerdictJob(command, inbox, then));
  }

  /**
   * Reads a transfer's ledger history in the next re-check batch; {@code then} runs on the stream
   * thread with it, or with null when the ledger could not be read (try again later).
   */
  public void recheck(TransferRef ref, Inbox inbox, Consumer<TransferHistory> then) {
    inbox.expect();
    rechecks.submit(new RecheckJob(ref, inbox, then));
  }

  /** Stops re-sending these messages: their transfer has a verdict. */
  public void forget(Collection<String> hashes) {
    resender.forget(hashes);
  }

  private void issueRound(List<IssueJob> jobs) {
    Map<Long, IssueJob> bySubwallet = new HashMap<>();
    List<IssueTask> tasks = new ArrayList<>();
    for (IssueJob job : jobs) {
      if (bySubwallet.putIfAbsent(job.task().subwalletId(), job) != null) {
        // a processor never asks twice for one wallet; if it did, the second waits for the next round
        deliver(job, new IssueOutcome.Deferred(job.task(), "the wallet was already in this round"));
        continue;
      }
      tasks.add(job.task());
    }
    List<IssueOutcome> outcomes = round.run(tasks);
    for (IssueOutcome outcome : outcomes) {
      abortRestOf(outcome);
      IssueJob job = bySubwallet.remove(outcome.task().subwalletId());
      if (job == null) {
        log.error("issuing round returned an outcome for a wallet it was not given subwallet={}",
            outcome.task().subwalletId());
        continue;
      }
      deliver(job, outcome);
    }
    // every job gets an answer, even one the round forgot
    bySubwallet.values().forEach(job -> deliver(job, new IssueOutcome.Deferred(job.task(), "no outcome this round")));
  }

  /** A transfer the round found decided and not paid takes the rest of its request with it, in the ledger first. */
  private void abortRestOf(IssueOutcome outcome) {
    if (outcome instanceof IssueOutcome.Decided d && d.transfer().status() != TransferStatus.SETTLED) {
      TransferRow t = d.transfer();
      IssueTask task = d.task();
      ledger.transfers().abortRest(task.request(), task.queued().origin(), task.wallet().toRaw(),
          t.transferIndex() + 1, "transfer " + t.transferId() + " " + t.status());
    }
  }

  private static void deliver(IssueJob job, IssueOutcome outcome) {
    job.inbox().deliver(() -> job.then().accept(outcome));
  }

  /** The batch's verdicts in one transaction, with the sends of their messages the ledger does not hold yet. */
  private void recordVerdicts(List<VerdictJob> jobs) {
    List<VerdictCommand> commands = jobs.stream().map(VerdictJob::command).toList();
    Map<String, Sends> sent = sendLog.take(commands.stream().map(c -> c.verdict().messageHash()).toList());
    List<RecordedVerdict> recorded;
    try {
      recorded = ledger.verdicts().record(commands, sent);
    } catch (RuntimeException e) {
      sendLog.giveBack(sent);
      throw e;
    }
    for (int i = 0; i < jobs.size(); i++) {
      VerdictJob job = jobs.get(i);
      RecordedVerdict result = recorded.get(i);
      job.inbox().deliver(() -> job.then().accept(result));
    }
  }

  private void readHistories(List<RecheckJob> jobs) {
    Map<TransferRef, TransferHistory> histories = ledger.queries().histories(jobs.stream().map(RecheckJob::ref).toList());
    for (RecheckJob job : jobs) {
      TransferHistory history = histories.get(job.ref());
      job.inbox().deliver(() -> job.then().accept(history));
    }
  }

  /**
   * True when every job handed over so far has run and its result sits in its inbox: tests step a
   * TopologyTestDriver by waiting for it; the pipeline never waits. Read in the order work flows
   * (an issuing round hands its sends to the recorder before it counts as done).
   */
  public boolean idle() {
    return issues.idle() && verdicts.idle() && rechecks.idle() && audits.idle() && sends.idle();
  }

  @Override
  public void close() {
    issues.close();
    verdicts.close();
    rechecks.close();
    audits.close();
    sends.close();
    resender.close();
    sendLog.close();
  }
}
