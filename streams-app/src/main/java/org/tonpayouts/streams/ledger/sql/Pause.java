package org.tonpayouts.streams.ledger.sql;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/**
 * One row of {@code operator_pauses}: an operator stopped signing for the whole deployment
 * ({@code subwalletId} null) or one subwallet, and maybe lifted it since.
 *
 * @param subwalletId the paused subwallet; null: the whole deployment
 * @param pausedFrom the address the pause was set from (admin API caller); null when unknown
 * @param liftedAt when the pause was lifted; null while it is active
 * @param liftedFrom the address the pause was lifted from; null while active or when unknown
 */
public record Pause(long id, Long subwalletId, Instant pausedAt, String pausedBy, String pausedFrom, String reason,
                    Instant liftedAt, String liftedBy, String liftedFrom, String liftReason) {

  /** The columns {@link #read} expects. */
  public static final String COLUMNS = "id, subwallet_id, paused_at, paused_by, paused_from, reason, lifted_at,"
      + " lifted_by, lifted_from, lift_reason";

  public static Pause read(ResultSet rs) throws SQLException {
    return new Pause(rs.getLong("id"), LedgerSql.nullableLong(rs, "subwallet_id"), LedgerSql.instant(rs, "paused_at"),
        rs.getString("paused_by"), rs.getString("paused_from"), rs.getString("reason"),
        LedgerSql.instant(rs, "lifted_at"), rs.getString("lifted_by"), rs.getString("lifted_from"),
        rs.getString("lift_reason"));
  }

  public boolean active() {
    return liftedAt == null;
  }

  public boolean deploymentWide() {
    return subwalletId == null;
  }

  /** Whether this pause, while active, stops signing for {@code subwallet}. */
  public boolean covers(long subwallet) {
    return active() && (subwalletId == null || subwalletId == subwallet);
  }

  /** "the deployment" or "subwallet N", for messages. */
  public String scope() {
    return scopeOf(subwalletId);
  }

  public static String scopeOf(Long subwalletId) {
    return subwalletId == null ? "the deployment" : "subwallet " + subwalletId;
  }

  /** Who paused what, when and why, for refusals and logs. */
  public String describe() {
    return scope() + " paused by " + pausedBy + " at " + pausedAt + ": " + reason;
  }
}
