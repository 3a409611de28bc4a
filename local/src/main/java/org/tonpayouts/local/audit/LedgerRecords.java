package org.tonpayouts.local.audit;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What the auditor reads from streams-app's ledger (PostgreSQL) with plain SQL, as an auditor with
 * read access would: every signed message, every transfer's outcome, and fencing refusals from the
 * audit log.
 */
public final class LedgerRecords {
  private final String jdbcUrl;
  private final String user;
  private final String password;

  /** A row of {@code ton_transactions}: one message streams-app signed and recorded before sending it. */
  public record Message(String requestId, String transferId, String walletAddress, long seqno, String status,
                        String messageHash, String txHash, Long lt, Instant createdAt) {}

  /** A row of {@code payout_transfers}: a transfer's seqno binding and its one outcome. */
  public record Transfer(String requestId, String transferId, int transferIndex, String walletAddress, Long seqno,
                         String status, String reason, String txHash) {}

  /** An intent the ledger refused because its task no longer held the partition (audit event FENCED_WRITE_REFUSED). */
  public record Fenced(Instant at, String requestId, String transferId, String messageHash, String detail) {}

  public LedgerRecords(String jdbcUrl, String user, String password) {
    this.jdbcUrl = jdbcUrl;
    this.user = user;
    this.password = password;
  }

  public List<Message> messages() {
    return query("select request_id, transfer_id, wallet_address, seqno, status, message_hash, tx_hash, lt, created_at"
        + " from ton_transactions order by id", rs -> {
          long lt = rs.getLong(8);
          Long ltOrNull = rs.wasNull() ? null : lt;
          return new Message(rs.getString(1), rs.getString(2), rs.getString(3), rs.getLong(4), rs.getString(5),
              rs.getString(6), rs.getString(7), ltOrNull, rs.getTimestamp(9).toInstant());
        });
  }

  public List<Transfer> transfers() {
    return query("select request_id, transfer_id, transfer_index, wallet_address, seqno, status, reason, tx_hash"
        + " from payout_transfers", rs -> {
          long seqno = rs.getLong(5);
          Long seqnoOrNull = rs.wasNull() ? null : seqno;
          return new Transfer(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getString(4), seqnoOrNull,
              rs.getString(6), rs.getString(7), rs.getString(8));
        });
  }

  public List<Fenced> fencedRefusals() {
    return query("select at, request_id, transfer_id, message_hash, detail from audit_log"
        + " where event = 'FENCED_WRITE_REFUSED' order by id",
        rs -> new Fenced(rs.getTimestamp(1).toInstant(), rs.getString(2), rs.getString(3), rs.getString(4),
            rs.getString(5)));
  }

  private interface RowReader<T> {
    T read(ResultSet rs) throws SQLException;
  }

  private <T> List<T> query(String sql, RowReader<T> reader) {
    try (Connection c = DriverManager.getConnection(jdbcUrl, user, password);
        PreparedStatement ps = c.prepareStatement(sql);
        ResultSet rs = ps.executeQuery()) {
      List<T> rows = new ArrayList<>();
      while (rs.next()) {
        rows.add(reader.read(rs));
      }
      return rows;
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the ledger at " + jdbcUrl + ": " + e.getMessage(), e);
    }
  }
}
