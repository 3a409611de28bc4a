package org.tonpayouts.streams.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The lookups every transfer makes can be served by an index, whatever the ledger's size: with
 * sequential scans made prohibitively expensive, the planner must still find an index for them
 * (on a small table it would rightly prefer a scan, so that is switched off here). A lookup
 * without one costs O(ledger) per issuing round.
 */
class LedgerIndexesTest {
  @RegisterExtension
  static final LedgerFixture db = new LedgerFixture(LedgerIndexesTest.class);

  private static List<String> plan(String sql) throws SQLException {
    List<String> lines = new ArrayList<>();
    try (Connection c = db.dataSource.getConnection(); Statement s = c.createStatement()) {
      s.execute("set enable_seqscan = off");
      try (ResultSet rs = s.executeQuery("explain " + sql)) {
        while (rs.next()) {
          lines.add(rs.getString(1));
        }
      } finally {
        s.execute("reset enable_seqscan");
      }
    }
    return lines;
  }

  @Test
  void shouldReadATransfersMessagesThroughAnIndex() throws SQLException {
    List<String> history = plan("select * from ton_transactions join unnest(array['r1','r2']::text[],"
        + " array['t-0','t-0']::text[]) as k(request_id, transfer_id) using (request_id, transfer_id)"
        + " order by attempt, id");
    List<String> attempts = plan("select * from ton_transactions where request_id = 'r1' and transfer_id = 't-0'"
        + " order by attempt, id");

    assertThat(history).as(String.join("\n", history)).noneMatch(l -> l.contains("Seq Scan on ton_transactions"));
    assertThat(attempts).as(String.join("\n", attempts)).noneMatch(l -> l.contains("Seq Scan on ton_transactions"));
    assertThat(String.join("\n", attempts)).contains("ton_transactions_transfer");
  }

  @Test
  void shouldListTheTransfersWaitingForAnOperatorThroughTheirOwnIndex() throws SQLException {
    List<String> waiting = plan("select * from payout_transfers where status = 'RECONCILIATION_REQUIRED'"
        + " order by updated_at, request_id, transfer_index limit 50");

    assertThat(String.join("\n", waiting)).as(String.join("\n", waiting)).contains("payout_transfers_reconciliation")
        .doesNotContain("Sort");
  }

  @Test
  void shouldKeepNoIndexThatOnlyAStatusChangeWrites() throws SQLException {
    List<String> indexes = new ArrayList<>();
    try (Connection c = db.dataSource.getConnection(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("select indexname from pg_indexes where tablename in"
            + " ('ton_transactions', 'payout_transfers')")) {
      while (rs.next()) {
        indexes.add(rs.getString(1));
      }
    }
    // Read by nothing, written on every status change, and picked for keyed statements on stale statistics.
    assertThat(indexes).contains("ton_transactions_transfer", "payout_transfers_reconciliation")
        .doesNotContain("ton_transactions_status", "payout_transfers_status");
  }
}
