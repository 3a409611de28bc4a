package org.tonpayouts.streams.wallet;

import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.async.Inbox;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.record.LedgerQueries.TransferRef;
import org.tonpayouts.streams.ledger.record.TransferHistory;
import org.tonpayouts.streams.ledger.sql.LedgerRow;

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
  /** Wallets held on a transfer whose ledger rows are lost, audited once each (by this incarnation). */
  private final Set<String> lostRowsReported = new HashSet<>();

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
      holdOnLostRows(key, head, ref, history);
      return;
    }
    lostRowsReported.remove(key);
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

  /**
   * The wallet waits on a transfer it signed (it knows the seqno and hashes), yet the ledger has
   * no message of it: committed rows were lost (a failover to an asynchronous replica, a
   * point-in-time restore). The message may well have applied, so signing the transfer again, or
   * the next one on a fresh read, could pay twice. The wallet holds: it signs nothing, re-reads the
   * ledger at every watchdog pass (restored rows are taken up at once), and an operator is told once.
   */
  private void holdOnLostRows(String key, WalletHead head, TransferRef ref, TransferHistory history) {
    CurrentTransfer current = head.current();
    wallets.save(key, head.submitted(current.recheckAgainAt(deps.clock().instant().plus(deps.settings().verdictTimeout()))));
    if (!lostRowsReported.add(key)) {
      return;
    }
    deps.metrics().ledgerRowsLost();
    String detail = "the wallet waits on transfer " + ref.requestId() + "/" + ref.transferId() + " signed with seqno "
        + current.seqno() + " (attempt " + current.attempt() + ", hashes " + current.hashes() + "), but the ledger"
        + " has no message of it" + (history.transfer() == null ? " nor its transfer row" : "") + ": its rows were"
        + " lost (a failover to an asynchronous replica or a restore?). The message may have applied: nothing more is"
        + " signed for this wallet until the rows are restored (the watchdog re-reads them) or an operator decides";
    log.error("ledger rows lost, wallet held subwallet={} request={} transfer={} seqno={} hashes={}", key,
        ref.requestId(), ref.transferId(), current.seqno(), current.hashes());
    deps.io().audit(new AuditEvent(0, null, AuditEvent.Level.ERROR, AuditEvent.Type.LEDGER_ROWS_LOST,
        head.subwalletId(), deps.subwallets().address(head.subwalletId()).toRaw(), ref.requestId(), ref.transferId(),
        current.seqno(), current.newestHash(), null, detail));
  }
}
