package org.tonpayouts.streams.wallet;

import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.streams.io.Inbox;
import org.tonpayouts.streams.ledger.LedgerQueries.TransferRef;
import org.tonpayouts.streams.ledger.LedgerRow;
import org.tonpayouts.streams.ledger.TransferHistory;

/**
 * The watchdog: no wallet waits forever for a verdict. A transfer whose verdict is overdue (or
 * every waiting one, when the task starts) is looked up in the ledger first, since another run
 * may have decided it; then, past start, its newest message goes back to the poller as a
 * re-check, which derives the outcome from the chain again even if it remembers a verdict the
 * processor never got.
 */
final class Rechecks {
  private static final Logger log = LoggerFactory.getLogger(WalletTxProcessor.class);

  private final TaskWallets wallets;
  private final WalletTxDependencies deps;
  private final Inbox inbox;

  Rechecks(TaskWallets wallets, WalletTxDependencies deps, Inbox inbox) {
    this.wallets = wallets;
    this.deps = deps;
    this.inbox = inbox;
  }

  /** Re-checks every waiting wallet whose re-check time has come ({@code now}: our clock, see {@link CurrentTransfer}). */
  void recheckOverdue(Instant now) {
    for (String key : wallets.index().overdue(now)) {
      WalletHead head = wallets.get(key);
      if (head != null && head.awaitingVerdict()) {
        deps.metrics().verdictOverdue();
        recheck(key, head, false);
      }
    }
  }

  /**
   * Re-checks a transfer waiting for a verdict. At start ({@code initial}) only what the ledger
   * decided is taken; nothing is handed to the poller.
   */
  void recheck(String key, WalletHead head, boolean initial) {
    QueuedRequest queued = wallets.headRequest(head);
    if (queued == null || !wallets.index().startRecheck(key)) {
      return;
    }
    TransferRef ref = new TransferRef(queued.request(), head.transferIndex());
    deps.io().recheck(ref, inbox, history -> onRechecked(key, ref, history, initial));
  }

  private void onRechecked(String key, TransferRef ref, TransferHistory history, boolean initial) {
    wallets.index().endRecheck(key);
    WalletHead head = wallets.get(key);
    QueuedRequest queued = head == null || !head.awaitingVerdict() ? null : wallets.headRequest(head);
    if (queued == null || !queued.request().requestId().equals(ref.requestId())
        || head.transferIndex() != ref.transferIndex()) {
      return; // the wallet moved on meanwhile
    }
    if (history == null) {
      if (!initial) {
        wallets.save(key, head.submitted(head.current().recheckAgainAt(deps.clock().instant().plusSeconds(5))));
      }
      return;
    }
    if (history.transfer() != null && !history.transfer().status().isOpen()) {
      log.warn("verdict found in the ledger subwallet={} request={} transfer={} status={}", key, ref.requestId(),
          ref.transferId(), history.transfer().status());
      LedgerRow decider = history.messages().stream()
          .filter(m -> m.messageHash().equals(history.transfer().messageHash())).findFirst().orElse(null);
      wallets.publishDecided(key, head, queued, history.transfer(), decider, null);
      return;
    }
    if (history.messages().isEmpty()) {
      wallets.save(key, new WalletHead(head.subwalletId(), head.headSeq(), head.tailSeq(), head.transferIndex(), null,
          head.lastAppliedSeqno(), head.partlySettledSince()));
      return;
    }
    LedgerRow newest = history.newest().orElseThrow();
    if (history.liveMessage().isEmpty()) {
      log.warn("transfer waiting for a verdict has no live message, next attempt subwallet={} request={} transfer={}"
          + " hash={}", key, newest.requestId(), newest.transferId(), newest.messageHash());
      wallets.expired(key, head);
      return;
    }
    if (initial) {
      return; // still in flight: the poller's verdict comes, or the watchdog asks later
    }
    log.warn("verdict overdue, asking the poller to re-check subwallet={} request={} transfer={} seqno={} hash={}"
        + " validUntil={}", key, newest.requestId(), newest.transferId(), newest.seqno(), newest.messageHash(),
        newest.validUntil());
    wallets.submitted(key, head, queued, newest, history.hashes(), history.messages().get(0).createdAt(), true, true);
  }
}
