package org.tonpayouts.streams.ledger.operator;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import org.tonpayouts.streams.ledger.audit.Actor;
import org.tonpayouts.streams.ledger.sql.LedgerSql;

/**
 * One row of {@code operator_approvals}: a resolution an operator asked for under the two-person rule,
 * and what became of it.
 *
 * @param outcome SETTLED or FAILED, as asked
 * @param txHash SETTLED: the paying transaction named; null for FAILED
 * @param lt SETTLED: its logical time when given; else null
 * @param acknowledged FAILED: the transaction acknowledged to pay something else; else null
 * @param reason why, in the words of the operator who asked
 * @param decision null while open; APPROVED, REJECTED, CANCELLED or EXPIRED once decided
 * @param auditId APPROVED: the OPERATOR_RESOLUTION audit row of the resolution; else null
 */
public record Approval(long id, String requestId, String transferId, long subwalletId, long amountNano, String outcome,
                       String txHash, Long lt, String acknowledged, String reason, Actor requestedBy,
                       Instant requestedAt, Instant expiresAt, String decision, Actor decidedBy, Instant decidedAt,
                       String decisionNote, Long auditId) {

  /** What it is waiting for, or how it ended. */
  public enum State { PENDING, EXPIRED, APPROVED, REJECTED, CANCELLED }

  /** The columns {@link #read} expects. */
  static final String COLUMNS = "id, request_id, transfer_id, subwallet_id, amount_nano, outcome, tx_hash, lt,"
      + " acknowledged, reason, requested_by, requested_from, requested_at, expires_at, decision, decided_by,"
      + " decided_from, decided_at, decision_note, audit_id";

  static Approval read(ResultSet rs) throws SQLException {
    String decidedBy = rs.getString("decided_by");
    return new Approval(rs.getLong("id"), rs.getString("request_id"), rs.getString("transfer_id"),
        rs.getLong("subwallet_id"), rs.getLong("amount_nano"), rs.getString("outcome"), rs.getString("tx_hash"),
        LedgerSql.nullableLong(rs, "lt"), rs.getString("acknowledged"), rs.getString("reason"),
        new Actor(rs.getString("requested_by"), rs.getString("requested_from")), LedgerSql.instant(rs, "requested_at"),
        LedgerSql.instant(rs, "expires_at"), rs.getString("decision"),
        decidedBy == null ? null : new Actor(decidedBy, rs.getString("decided_from")),
        LedgerSql.instant(rs, "decided_at"), rs.getString("decision_note"), LedgerSql.nullableLong(rs, "audit_id"));
  }

  /** Its state at {@code now}: an open request past its expiry is EXPIRED even before a row says so. */
  public State state(Instant now) {
    if (decision != null) {
      return State.valueOf(decision);
    }
    return now.isBefore(expiresAt) ? State.PENDING : State.EXPIRED;
  }

  /** "approval 7 (SETTLED of r-1/t by alice)", for messages. */
  public String describe() {
    return "approval " + id + " (" + outcome + " of " + requestId + "/" + transferId + " asked by "
        + requestedBy.name() + " at " + requestedAt + ")";
  }
}
