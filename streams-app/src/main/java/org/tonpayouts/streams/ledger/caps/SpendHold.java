package org.tonpayouts.streams.ledger.caps;

import java.math.BigInteger;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import org.tonpayouts.streams.ledger.sql.LedgerSql;

/**
 * One row of {@code spend_holds}: a transfer a rolling spend cap held back before its first message,
 * with the latest check's numbers, and whether an operator released it or it went since.
 *
 * @param capScope WALLET or DEPLOYMENT: whose cap held it
 * @param spentNano what the window held at the latest check
 * @param freesAt when the window will have room for it; null when its amount alone is over the cap
 * @param releasedAt when an operator released it; it then passes the caps once
 * @param passedAt when its first message was recorded; null while it waits
 */
public record SpendHold(String requestId, String transferId, long subwalletId, String walletAddress, long amountNano,
                        String capScope, long windowSeconds, long capNano, BigInteger spentNano, Instant freesAt,
                        Instant heldAt, Instant checkedAt, Instant releasedAt, String releasedBy,
                        String releaseReason, Instant passedAt) {

  /** The columns {@link #read} expects. */
  public static final String COLUMNS = "request_id, transfer_id, subwallet_id, wallet_address, amount_nano, cap_scope,"
      + " window_seconds, cap_nano, spent_nano::text as spent, frees_at, held_at, checked_at, released_at, released_by,"
      + " release_reason, passed_at";

  public static SpendHold read(ResultSet rs) throws SQLException {
    return new SpendHold(rs.getString("request_id"), rs.getString("transfer_id"), rs.getLong("subwallet_id"),
        rs.getString("wallet_address"), rs.getLong("amount_nano"), rs.getString("cap_scope"),
        rs.getLong("window_seconds"), rs.getLong("cap_nano"), new BigInteger(rs.getString("spent")),
        LedgerSql.instant(rs, "frees_at"), LedgerSql.instant(rs, "held_at"), LedgerSql.instant(rs, "checked_at"),
        LedgerSql.instant(rs, "released_at"), rs.getString("released_by"), rs.getString("release_reason"),
        LedgerSql.instant(rs, "passed_at"));
  }

  /** Still keeping its transfer from being signed (an operator's release waits for the next try). */
  public boolean waiting() {
    return passedAt == null;
  }

  public boolean released() {
    return releasedAt != null;
  }

  /** "request/transfer", for messages. */
  public String transfer() {
    return requestId + "/" + transferId;
  }
}
