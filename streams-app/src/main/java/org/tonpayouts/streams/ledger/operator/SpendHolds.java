package org.tonpayouts.streams.ledger.operator;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.tonpayouts.streams.ledger.audit.Actor;
import org.tonpayouts.streams.ledger.audit.AuditEvent;
import org.tonpayouts.streams.ledger.audit.AuditLog;
import org.tonpayouts.streams.ledger.caps.HoldRelease;
import org.tonpayouts.streams.ledger.caps.SpendHold;
import org.tonpayouts.streams.ledger.sql.LedgerSql;

/**
 * The transfers the rolling spend caps hold back (docs/operations.md: spend caps), for the admin API
 * and the wallet view, and an operator's release of one: the transfer then passes the caps once, at
 * its wallet's next try (it still counts toward the spend), with who and why in the hold and a
 * WARNING {@code SPEND_CAP_RELEASED} in the audit log, in one transaction.
 */
public final class SpendHolds {
  /**
   * A hold still waiting: its transfer not signed yet and still open (a held transfer can also end
   * without a message, e.g. failed before signing when its wallet cannot pay it: its hold is moot).
   */
  private static final String WAITING = "passed_at is null and exists (select 1 from payout_transfers t"
      + " where t.request_id = spend_holds.request_id and t.transfer_id = spend_holds.transfer_id"
      + " and t.status = 'OPEN')";

  private final LedgerSql sql;

  public SpendHolds(LedgerSql sql) {
    this.sql = sql;
  }

  /** The holds still waiting, oldest first. */
  public List<SpendHold> waiting(int limit) {
    return sql.run("read the spend holds", c -> LedgerSql.query(c, "select " + SpendHold.COLUMNS + " from spend_holds"
        + " where " + WAITING + " order by held_at, request_id, transfer_id limit ?", SpendHold::read, limit));
  }

  /** How many holds wait, for the gauge. */
  public long waitingCount() {
    return sql.run("count the spend holds", c -> LedgerSql.query(c,
        "select count(*) from spend_holds where " + WAITING, rs -> rs.getLong(1)).get(0));
  }

  /** The subwallet's waiting hold: its next transfer (the ones after it wait in its queue); empty when none. */
  public Optional<SpendHold> waitingFor(long subwalletId) {
    return sql.run("read the subwallet's spend hold", c -> LedgerSql.query(c, "select " + SpendHold.COLUMNS
        + " from spend_holds where subwallet_id = ? and " + WAITING + " order by held_at limit 1", SpendHold::read,
        subwalletId).stream().findFirst());
  }

  public Optional<SpendHold> find(String requestId, String transferId) {
    return sql.run("read a spend hold", c -> LedgerSql.query(c, "select " + SpendHold.COLUMNS + " from spend_holds"
        + " where request_id = ? and transfer_id = ?", SpendHold::read, requestId, transferId).stream().findFirst());
  }

  /** Releases the waiting hold of the transfer, naming the operator and why. */
  public HoldRelease release(String requestId, String transferId, Actor operator, String reason) {
    Instant now = sql.now();
    return sql.transaction("release the spend hold of " + requestId + "/" + transferId, c -> {
      List<SpendHold> released = LedgerSql.query(c, "update spend_holds set released_at = ?, released_by = ?,"
              + " release_reason = ? where request_id = ? and transfer_id = ? and " + WAITING
              + " and released_at is null returning " + SpendHold.COLUMNS, SpendHold::read, now, operator.name(), reason,
          requestId, transferId);
      if (released.isEmpty()) {
        Optional<SpendHold> existing = LedgerSql.query(c, "select " + SpendHold.COLUMNS + " from spend_holds"
            + " where request_id = ? and transfer_id = ? and " + WAITING, SpendHold::read, requestId, transferId)
            .stream().findFirst();
        return existing.<HoldRelease>map(HoldRelease.AlreadyReleased::new)
            .orElseGet(() -> new HoldRelease.NotHeld(requestId, transferId));
      }
      SpendHold hold = released.get(0);
      AuditEvent audit = AuditLog.insert(c, new AuditEvent(0, null, AuditEvent.Level.WARNING,
          AuditEvent.Type.SPEND_CAP_RELEASED, hold.subwalletId(), hold.walletAddress(), requestId, transferId, null,
          null, null, "held transfer of " + hold.amountNano() + " nanotons released by " + operator.describe() + ": "
          + reason + "; it passes the spend caps once (held at " + hold.heldAt() + " by the " + hold.capScope()
          + " cap of " + hold.capNano() + " per " + hold.windowSeconds() + " s)").by(operator, null), now);
      return new HoldRelease.Released(hold, audit);
    });
  }
}
