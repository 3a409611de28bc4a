package org.tonpayouts.streams.ledger.operator;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.tonpayouts.streams.ledger.audit.Actor;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.audit.AuditEvent.Level;
import org.tonpayouts.streams.ledger.audit.AuditEvent.Type;
import org.tonpayouts.streams.ledger.audit.AuditLog;
import org.tonpayouts.streams.ledger.sql.LedgerSql;
import org.tonpayouts.streams.ledger.sql.Pause;
import org.tonpayouts.streams.ledger.sql.PauseGate;

/**
 * The pause switch (docs/operations.md: the incident runbook): operators stop signing for the whole
 * deployment or one subwallet, and lift the stop, each with who and why in {@code operator_pauses}
 * and a WARNING in the audit log, in one transaction. Once {@link #pause} returns, the ledger records
 * no new intent for a covered wallet ({@link PauseGate}); messages recorded before are still sent,
 * watched and settled.
 */
public final class Pauses {
  private final LedgerSql sql;

  public Pauses(LedgerSql sql) {
    this.sql = sql;
  }

  /**
   * Pauses {@code subwalletId}'s signing, or the whole deployment's when it is null.
   *
   * @return {@link PauseChange.Changed} with the new pause, or {@link PauseChange.AlreadyPaused}
   */
  public PauseChange pause(Long subwalletId, String operator, String reason) {
    return pause(subwalletId, Actor.named(operator), reason);
  }

  /** {@link #pause(Long, String, String)} by an operator of the admin API, recorded with their address. */
  public PauseChange pause(Long subwalletId, Actor operator, String reason) {
    Instant now = sql.now();
    return sql.transaction("pause " + Pause.scopeOf(subwalletId), c -> {
      PauseGate.closeForPause(c);
      Optional<Pause> existing = active(c, subwalletId);
      if (existing.isPresent()) {
        return new PauseChange.AlreadyPaused(existing.get());
      }
      Pause pause = LedgerSql.query(c, "insert into operator_pauses (subwallet_id, paused_at, paused_by, paused_from,"
          + " reason) values (?, ?, ?, ?, ?) returning " + Pause.COLUMNS, Pause::read, subwalletId, now, operator.name(),
          operator.address(), reason).get(0);
      AuditEvent audit = AuditLog.insert(c, event(subwalletId, Type.PAUSED, pause.scope() + " paused by "
          + operator.describe() + ": " + reason + "; nothing new is signed until it is resumed").by(operator, null),
          now);
      return new PauseChange.Changed(pause, audit);
    });
  }

  /**
   * Lifts the active pause of {@code subwalletId}, or of the deployment when it is null. A wallet's
   * own pause and the deployment's are separate: lifting one leaves the other.
   */
  public PauseChange resume(Long subwalletId, String operator, String reason) {
    return resume(subwalletId, Actor.named(operator), reason);
  }

  /** {@link #resume(Long, String, String)} by an operator of the admin API, recorded with their address. */
  public PauseChange resume(Long subwalletId, Actor operator, String reason) {
    Instant now = sql.now();
    return sql.transaction("resume " + Pause.scopeOf(subwalletId), c -> {
      List<Pause> lifted = LedgerSql.query(c, "update operator_pauses set lifted_at = ?, lifted_by = ?, lifted_from = ?,"
              + " lift_reason = ? where lifted_at is null and subwallet_id is not distinct from ? returning "
              + Pause.COLUMNS, Pause::read, now, operator.name(), operator.address(), reason, subwalletId);
      if (lifted.isEmpty()) {
        return new PauseChange.NotPaused(Pause.scopeOf(subwalletId));
      }
      Pause pause = lifted.get(0);
      AuditEvent audit = AuditLog.insert(c, event(subwalletId, Type.RESUMED, pause.scope() + " resumed by "
          + operator.describe() + ": " + reason + " (paused by " + pause.pausedBy() + " at " + pause.pausedAt() + ": "
          + pause.reason() + ")").by(operator, null), now);
      return new PauseChange.Changed(pause, audit);
    });
  }

  /** The pauses in force, the deployment's first. */
  public List<Pause> active() {
    return sql.run("read the active pauses", c -> LedgerSql.query(c, "select " + Pause.COLUMNS + " from operator_pauses"
        + " where lifted_at is null order by subwallet_id nulls first", Pause::read));
  }

  /** The latest {@code limit} pauses, active or lifted, newest first. */
  public List<Pause> history(int limit) {
    return sql.run("read the pauses", c -> LedgerSql.query(c, "select " + Pause.COLUMNS + " from operator_pauses"
        + " order by id desc limit ?", Pause::read, limit));
  }

  private static Optional<Pause> active(Connection c, Long subwalletId) throws SQLException {
    return LedgerSql.query(c, "select " + Pause.COLUMNS + " from operator_pauses where lifted_at is null"
        + " and subwallet_id is not distinct from ?", Pause::read, subwalletId).stream().findFirst();
  }

  private static AuditEvent event(Long subwalletId, Type type, String detail) {
    return new AuditEvent(0, null, Level.WARNING, type, subwalletId, null, null, null, null, null, null, detail);
  }
}
