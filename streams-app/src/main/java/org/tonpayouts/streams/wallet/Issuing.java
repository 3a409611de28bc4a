package org.tonpayouts.streams.wallet;

import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.async.Inbox;
import org.tonpayouts.streams.ledger.record.Ownership;
import org.tonpayouts.streams.wallet.IssueOutcome.Conflict;
import org.tonpayouts.streams.wallet.IssueOutcome.Decided;
import org.tonpayouts.streams.wallet.IssueOutcome.Deferred;
import org.tonpayouts.streams.wallet.IssueOutcome.Duplicate;
import org.tonpayouts.streams.wallet.IssueOutcome.Submitted;
import org.tonpayouts.ton.address.TonAddress;

/**
 * Hands the task's ready wallets to the instance's issuing rounds and applies what each round
 * made of a wallet when it comes back through the task's {@link Inbox}: the transfer submitted,
 * the wallet deferred or held by an operator's pause or a spend cap, an outcome the ledger already had, a later
 * copy of a recorded request, a refused one, or this task fenced by a newer owner of its
 * partition (then it issues nothing more). An outcome for a wallet that moved on meanwhile is
 * dropped.
 */
final class Issuing {
  private static final Logger log = LoggerFactory.getLogger(WalletTxProcessor.class);
  /** How long a wallet whose round deferred it (stale read, API trouble) waits before the next try. */
  private static final Duration DEFER = Duration.ofMillis(250);
  /**
   * How long a paused wallet waits before its next try: a try costs one ledger read in a round, and
   * a lifted pause lets the wallet go within this plus one refresh of the pauses.
   */
  private static final Duration PAUSED_RETRY = Duration.ofSeconds(1);

  private final TaskWallets wallets;
  private final WalletTxDependencies deps;
  private final Inbox inbox;
  /** This task's claim on its partition; every intent it records carries it. */
  private final Ownership ownership;
  /** Set once a newer owner took the partition: this task is a zombie and issues nothing more. */
  private boolean fenced;

  Issuing(TaskWallets wallets, WalletTxDependencies deps, Inbox inbox, Ownership ownership) {
    this.wallets = wallets;
    this.deps = deps;
    this.inbox = inbox;
    this.ownership = ownership;
  }

  /** Hands over every wallet ready to issue at {@code now}, unless this task was fenced. */
  void handOverReady(Instant now) {
    if (fenced) {
      return;
    }
    for (String key : wallets.index().readyToHandOver(now)) {
      handOver(key);
    }
  }

  private void handOver(String key) {
    WalletHead head = wallets.get(key);
    if (head == null || !head.readyToIssue()) {
      wallets.index().untrackReady(key);
      return;
    }
    QueuedRequest queued = wallets.headRequest(head);
    if (queued == null) {
      log.error("queue lost the head request subwallet={} position={}: skipping it", key, head.headSeq());
      wallets.save(key, head.nextRequest(null));
      return;
    }
    TonAddress wallet = deps.subwallets().address(head.subwalletId());
    IssueTask task = new IssueTask(head, queued, wallet, head.lastAppliedSeqno(), ownership);
    wallets.index().handedOver(key);
    deps.io().issue(task, inbox, this::onIssued);
  }

  private void onIssued(IssueOutcome outcome) {
    IssueTask task = outcome.task();
    String key = task.key();
    wallets.index().returned(key);
    WalletHead head = wallets.get(key);
    if (head == null || head.headSeq() != task.head().headSeq() || head.transferIndex() != task.head().transferIndex()
        || head.awaitingVerdict()) {
      log.info("issuing outcome for a wallet that moved on meanwhile dropped subwallet={} outcome={}", key,
          outcome.getClass().getSimpleName());
      if (head != null) {
        wallets.track(key, head);
      }
      return;
    }
    if (outcome instanceof Submitted s) {
      wallets.submitted(key, head, task.queued(), s.message(), s.hashes(), s.firstSubmittedAt(), s.resumed(),
          s.recheck());
    } else if (outcome instanceof Deferred d) {
      log.debug("wallet deferred subwallet={} reason={}", key, d.reason());
      wallets.index().defer(key, wallets.now().plus(DEFER));
    } else if (outcome instanceof IssueOutcome.Paused p) {
      log.debug("wallet paused subwallet={} request={} transfer={} pause={}", key, task.requestId(), task.transferId(),
          p.why());
      wallets.index().defer(key, wallets.now().plus(PAUSED_RETRY));
    } else if (outcome instanceof IssueOutcome.Capped capped) {
      log.debug("wallet held by a spend cap subwallet={} request={} transfer={} retry_at={} detail={}", key,
          task.requestId(), task.transferId(), capped.retryAt(), capped.why());
      Instant earliest = wallets.now().plus(DEFER);
      wallets.index().defer(key, capped.retryAt().isAfter(earliest) ? capped.retryAt() : earliest);
    } else if (outcome instanceof Decided d) {
      log.info("outcome found in the ledger subwallet={} request={} transfer={} status={}", key, task.requestId(),
          task.transferId(), d.transfer().status());
      wallets.publishDecided(key, head, task.queued(), d.transfer(), d.message(), null);
    } else if (outcome instanceof Duplicate dup) {
      deps.metrics().duplicate();
      log.info("later copy of a recorded request dropped subwallet={} request={} {}", key, task.requestId(), dup.why());
      wallets.dropHeadRequest(key, head);
    } else if (outcome instanceof Conflict c) {
      deps.metrics().conflict();
      wallets.reject(key, task.queued(), c.conflict().reason());
      wallets.dropHeadRequest(key, head);
    } else if (outcome instanceof IssueOutcome.Fenced f) {
      if (!fenced) {
        log.error("not the owner of partition {} any more, issuing nothing: {}", ownership.partition(), f.why());
      }
      fenced = true;
    }
  }
}
