package org.tonpayouts.streams.ledger.operator;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.streams.ledger.audit.Actor;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.audit.AuditEvent.Level;
import org.tonpayouts.streams.ledger.audit.AuditEvent.Type;
import org.tonpayouts.streams.ledger.audit.AuditLog;
import org.tonpayouts.streams.ledger.sql.LedgerRows;
import org.tonpayouts.streams.ledger.sql.LedgerSql;
import org.tonpayouts.streams.ledger.sql.TransferRow;
import org.tonpayouts.streams.ledger.sql.TransferStatus;

/**
 * The two-person rule's waiting room ({@code operator_approvals}; docs/operations.md: approvals): a
 * resolution of a large transfer is recorded here when one operator asks for it, and takes effect only
 * when a second, different operator approves it ({@link Resolutions} does that, marking the row in the
 * resolution's own transaction). Either can turn it down first; an unanswered request expires.
 */
public final class Approvals {
  private static final Logger log = LoggerFactory.getLogger(Approvals.class);

  private final LedgerSql sql;

  public Approvals(LedgerSql sql) {
    this.sql = sql;
  }

  /**
   * Records {@code by}'s request to resolve the transfer as {@code ask} says, open for {@code ttl}.
   * An open request of the transfer that has expired is marked EXPIRED first.
   */
  public ApprovalChange request(String requestId, String transferId, ApprovalAsk ask, Actor by, Duration ttl) {
    Instant now = sql.now();
    ApprovalChange change = sql.transaction("ask approval of " + requestId + "/" + transferId, c -> {
      List<TransferRow> found = LedgerSql.query(c, "select " + LedgerRows.TRANSFER_COLUMNS + " from payout_transfers"
          + " where request_id = ? and transfer_id = ? for update", LedgerRows::transfer, requestId, transferId);
      if (found.isEmpty()) {
        return new ApprovalChange.NotFound("transfer " + requestId + "/" + transferId);
      }
      TransferRow transfer = found.get(0);
      if (transfer.status() != TransferStatus.RECONCILIATION_REQUIRED) {
        return new ApprovalChange.NotReconcilable(transfer);
      }
      LedgerSql.update(c, "update operator_approvals set decision = 'EXPIRED', decided_at = ? where request_id = ?"
          + " and transfer_id = ? and decision is null and expires_at <= ?", now, requestId, transferId, now);
      Optional<Approval> open = LedgerSql.query(c, "select " + Approval.COLUMNS + " from operator_approvals"
          + " where request_id = ? and transfer_id = ? and decision is null", Approval::read, requestId, transferId)
          .stream().findFirst();
      if (open.isPresent()) {
        return new ApprovalChange.AlreadyOpen(open.get());
      }
      Approval approval = LedgerSql.query(c, "insert into operator_approvals (request_id, transfer_id, subwallet_id,"
              + " amount_nano, outcome, tx_hash, lt, acknowledged, reason, requested_by, requested_from, requested_at,"
              + " expires_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning " + Approval.COLUMNS,
          Approval::read, requestId, transferId, transfer.subwalletId(), transfer.amountNano(), ask.outcome(),
          ask.txHash(), ask.lt(), ask.acknowledged(), LedgerSql.truncate(ask.reason()), by.name(), by.address(), now,
          now.plus(ttl)).get(0);
      AuditEvent audit = AuditLog.insert(c, AuditEvent.about(transfer, Level.WARNING, Type.APPROVAL_REQUESTED,
          "resolution " + ask.outcome() + (ask.txHash() != null ? " with transaction " + ask.txHash() : "")
              + " asked by " + by.describe() + ": " + ask.reason() + "; approval " + approval.id() + " waits for a"
              + " second operator until " + approval.expiresAt()).by(by, null), now);
      return new ApprovalChange.Requested(approval, audit);
    });
    log.info("resolution approval asked request={} transfer={} outcome={} operator={} result={}", requestId,
        transferId, ask.outcome(), by.describe(), describe(change));
    return change;
  }

  /**
   * Turns down the open approval {@code id}: REJECTED by another operator, CANCELLED when {@code by}
   * is whoever asked for it. The transfer stays RECONCILIATION_REQUIRED.
   */
  public ApprovalChange reject(long id, Actor by, String note) {
    Instant now = sql.now();
    ApprovalChange change = sql.transaction("reject approval " + id, c -> {
      Optional<Approval> found = lock(c, id);
      if (found.isEmpty()) {
        return new ApprovalChange.NotFound("approval " + id);
      }
      Approval approval = found.get();
      Approval.State state = approval.state(now);
      if (state != Approval.State.PENDING) {
        return new ApprovalChange.NotOpen(approval, state);
      }
      boolean own = approval.requestedBy().name().equals(by.name());
      String decision = own ? "CANCELLED" : "REJECTED";
      Approval decided = LedgerSql.query(c, "update operator_approvals set decision = ?, decided_by = ?,"
              + " decided_from = ?, decided_at = ?, decision_note = ? where id = ? returning " + Approval.COLUMNS,
          Approval::read, decision, by.name(), by.address(), now, LedgerSql.truncate(note), id).get(0);
      AuditEvent audit = AuditLog.insert(c, new AuditEvent(0, null, Level.INFO, Type.APPROVAL_REJECTED,
          approval.subwalletId(), null, approval.requestId(), approval.transferId(), null, null, approval.txHash(),
          approval.describe() + " " + decision.toLowerCase(java.util.Locale.ROOT) + " by " + by.describe() + ": "
              + note + "; the transfer stays RECONCILIATION_REQUIRED").by(by, null), now);
      return new ApprovalChange.Rejected(decided, audit);
    });
    log.info("resolution approval turned down approval={} operator={} result={}", id, by.describe(), describe(change));
    return change;
  }

  /** The approval {@code id}. */
  public Optional<Approval> find(long id) {
    return sql.run("read approval " + id, c -> LedgerSql.query(c, "select " + Approval.COLUMNS
        + " from operator_approvals where id = ?", Approval::read, id).stream().findFirst());
  }

  /** The approvals still waiting for a second operator, oldest first. */
  public List<Approval> pending() {
    Instant now = sql.now();
    return sql.run("read the pending approvals", c -> LedgerSql.query(c, "select " + Approval.COLUMNS
        + " from operator_approvals where decision is null and expires_at > ? order by id", Approval::read, now));
  }

  /** The latest {@code limit} approvals in any state, newest first. */
  public List<Approval> recent(int limit) {
    return sql.run("read the approvals", c -> LedgerSql.query(c, "select " + Approval.COLUMNS
        + " from operator_approvals order by id desc limit ?", Approval::read, limit));
  }

  /**
   * Why {@code approver} may not approve {@code id} now, or null when they may; the row stays locked
   * until the caller's transaction ends, so two approvals of one request cannot both go through.
   */
  static String refusal(Connection c, long id, Actor approver, Instant now) throws SQLException {
    Optional<Approval> found = lock(c, id);
    if (found.isEmpty()) {
      return "the ledger has no approval " + id;
    }
    return refusal(found.get(), approver, now);
  }

  /** Why {@code approver} may not approve {@code approval} at {@code now}, or null when they may. */
  public static String refusal(Approval approval, Actor approver, Instant now) {
    Approval.State state = approval.state(now);
    if (state != Approval.State.PENDING) {
      return approval.describe() + " is " + state + (approval.decidedBy() != null ? " by "
          + approval.decidedBy().name() : state == Approval.State.EXPIRED ? " since " + approval.expiresAt() : "")
          + ": nothing to approve";
    }
    if (approval.requestedBy().name().equals(approver.name())) {
      return "the two-person rule: " + approver.name() + " asked for " + approval.describe() + " and cannot approve"
          + " it too; another operator must";
    }
    return null;
  }

  /** Marks {@code id} APPROVED by {@code approver}, with the audit row of the resolution it let through. */
  static void markApproved(Connection c, long id, Actor approver, long auditId, Instant now) throws SQLException {
    int marked = LedgerSql.update(c, "update operator_approvals set decision = 'APPROVED', decided_by = ?,"
        + " decided_from = ?, decided_at = ?, audit_id = ? where id = ? and decision is null", approver.name(),
        approver.address(), now, auditId, id);
    if (marked != 1) {
      // the row was locked and found open in this transaction: anything else is a bug, and rolls the resolution back
      throw new IllegalStateException("approval " + id + " was not open when its resolution was recorded");
    }
  }

  private static Optional<Approval> lock(Connection c, long id) throws SQLException {
    return LedgerSql.query(c, "select " + Approval.COLUMNS + " from operator_approvals where id = ? for update",
        Approval::read, id).stream().findFirst();
  }

  private static String describe(ApprovalChange change) {
    if (change instanceof ApprovalChange.Requested r) {
      return "requested approval=" + r.approval().id();
    } else if (change instanceof ApprovalChange.AlreadyOpen a) {
      return "already-open approval=" + a.approval().id();
    } else if (change instanceof ApprovalChange.NotReconcilable n) {
      return "not-reconcilable status=" + n.transfer().status();
    } else if (change instanceof ApprovalChange.NotFound n) {
      return "not-found " + n.what();
    } else if (change instanceof ApprovalChange.Rejected r) {
      return r.approval().decision().toLowerCase(java.util.Locale.ROOT);
    }
    return "not-open state=" + ((ApprovalChange.NotOpen) change).state();
  }
}
