package org.tonpayouts.streams.ledger.audit;

import java.time.Instant;
import java.util.Objects;
import org.tonpayouts.streams.ledger.sql.LedgerRow;
import org.tonpayouts.streams.ledger.sql.TransferRow;

/**
 * One record of the audit log: something unusual an operator or auditor should be able to find
 * later (another signer used a wallet, a transfer needs reconciliation, a payout bounced, the
 * chain overturned an expiry, a requestId was reused with other content, a transfer was given up).
 *
 * @param id assigned by the database; 0 before it is recorded
 * @param at when it was recorded
 * @param level how much it matters
 * @param event what happened, one of the {@code Type} names
 * @param subwalletId the wallet concerned, when one is
 * @param walletAddress its raw address, when known
 * @param requestId the request concerned, when one is
 * @param transferId the transfer concerned, when one is
 * @param seqno the seqno concerned, when one is
 * @param messageHash the message concerned, when one is
 * @param txHash the transaction concerned, when one is
 * @param detail what exactly, in words
 * @param actor the operator who did it, for operators' actions (admin API); null otherwise
 * @param approver the second operator who approved it, under the two-person rule; null otherwise
 */
public record AuditEvent(
    long id,
    Instant at,
    Level level,
    Type event,
    Long subwalletId,
    String walletAddress,
    String requestId,
    String transferId,
    Long seqno,
    String messageHash,
    String txHash,
    String detail,
    Actor actor,
    Actor approver) {

  /** How much an audit event matters; operators alert on ERROR. */
  public enum Level { INFO, WARNING, ERROR }

  /** The kinds of audit events. */
  public enum Type {
    /** A fresh read showed the wallet's seqno ahead of what our history explains: another signer. */
    SEQNO_MISMATCH,
    /** A transfer's outcome cannot be proven from the chain; an operator decides. */
    RECONCILIATION_REQUIRED,
    /** A payout came back from its destination. */
    BOUNCE,
    /** A message judged expired applied after all (harmless: one seqno per transfer). */
    EXPIRY_OVERTURNED,
    /** The chain contradicts what the ledger holds about a message. */
    LEDGER_CONFLICT,
    /** A requestId was reused with other content and refused. */
    REQUEST_CONFLICT,
    /** A transfer used all its attempts without any applying and was failed. */
    TRANSFER_GIVEN_UP,
    /** A transfer was failed before signing (e.g. the wallet cannot pay it). */
    TRANSFER_REFUSED,
    /** A task that lost its partition (a zombie) tried to record a message: refused, nothing sent. */
    FENCED_WRITE_REFUSED,
    /** An operator resolved a RECONCILIATION_REQUIRED transfer (who and why in the detail). */
    OPERATOR_RESOLUTION,
    /** Two-person rule: an operator asked for a resolution that a second operator must approve. */
    APPROVAL_REQUESTED,
    /** Two-person rule: a resolution waiting for approval was rejected, or withdrawn by whoever asked for it. */
    APPROVAL_REJECTED,
    /**
     * The ledger has no row of a transfer a wallet is waiting on (a failover to an asynchronous
     * replica, a point-in-time restore): its seqno and hashes are known only to the wallet's state,
     * so nothing more is signed for the wallet until an operator restores the rows.
     */
    LEDGER_ROWS_LOST,
    /**
     * A record of payout.confirmations that no verdict key verifies (no MAC, a wrong one), or a
     * verdict under another wallet's key: not applied. Someone other than chain-poller wrote it.
     */
    VERDICT_REFUSED,
    /** An operator paused signing for the deployment (no subwallet) or one subwallet (who and why in the detail). */
    PAUSED,
    /** An operator lifted a pause (who and why in the detail). */
    RESUMED,
    /**
     * A rolling spend cap held a transfer back before its first message was signed: the cap, window,
     * spend, amount and when the window frees up in the detail. Written once per transfer.
     */
    SPEND_CAP_HELD,
    /** A held transfer went: the window had room again (INFO) or an operator released it (WARNING, who and why). */
    SPEND_CAP_RELEASED
  }

  public AuditEvent {
    Objects.requireNonNull(level, "level");
    Objects.requireNonNull(event, "event");
    Objects.requireNonNull(detail, "detail");
  }

  /** An event of the service's own, done by no operator. */
  public AuditEvent(long id, Instant at, Level level, Type event, Long subwalletId, String walletAddress,
      String requestId, String transferId, Long seqno, String messageHash, String txHash, String detail) {
    this(id, at, level, event, subwalletId, walletAddress, requestId, transferId, seqno, messageHash, txHash, detail,
        null, null);
  }

  /** This event, done by {@code actor} (and approved by {@code approver}, when not null). */
  public AuditEvent by(Actor actor, Actor approver) {
    return new AuditEvent(id, at, level, event, subwalletId, walletAddress, requestId, transferId, seqno, messageHash,
        txHash, detail, actor, approver);
  }

  /** An event about a message of a transfer (ids from the ledger row). */
  public static AuditEvent about(LedgerRow row, Level level, Type event, String txHash, String detail) {
    return new AuditEvent(0, null, level, event, row.subwalletId(), row.walletAddress(), row.requestId(),
        row.transferId(), row.seqno(), row.messageHash(), txHash, detail);
  }

  /** An event about a transfer (ids from the transfer row). */
  public static AuditEvent about(TransferRow row, Level level, Type event, String detail) {
    return new AuditEvent(0, null, level, event, row.subwalletId(), row.walletAddress(), row.requestId(),
        row.transferId(), row.seqno(), row.messageHash(), row.txHash(), detail);
  }

  /** An event about a wallet alone. */
  public static AuditEvent aboutWallet(long subwalletId, String walletAddress, Long seqno, Level level, Type event,
      String detail) {
    return new AuditEvent(0, null, level, event, subwalletId, walletAddress, null, null, seqno, null, null, detail);
  }
}
