package org.tonpayouts.streams.ledger;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * Empties the ledger's tables between tests. The audit log refuses TRUNCATE (it is append-only,
 * V14), so this runs as the embedded server's superuser with {@code session_replication_role =
 * replica} for the one transaction, which is what the service's own user cannot do.
 */
public final class EmptyLedger {
  private EmptyLedger() {}

  public static void empty(DataSource dataSource) throws SQLException {
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
      c.setAutoCommit(false);
      try {
        s.execute("set local session_replication_role = replica");
        // operator_approvals (V17) too: its rows name transfers by id, and an open one would outlive its transfer
        s.execute("truncate ton_transactions, spend_holds, spend_buckets, payout_transfers, payout_requests,"
            + " audit_log, operator_pauses, operator_approvals");
        c.commit();
      } catch (SQLException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
    }
  }
}
