package org.tonpayouts.streams.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.tonpayouts.embedded.EmbeddedPostgresServer;
import org.tonpayouts.embedded.SharedTestInfrastructure;

/**
 * Migration V13 on a ledger that credited one bounce to two payouts (what the poller once did):
 * the earliest credit stays, the later one is cleared with an ERROR audit event that keeps what it
 * said, and from then on the database refuses a second credit.
 */
class OnePayoutPerBounceMigrationTest {
  private static final String BOUNCE = "b".repeat(64);

  @Test
  void shouldKeepTheEarliestCreditOfABounceAndAuditTheClearedOne() throws Exception {
    EmbeddedPostgresServer postgres = SharedTestInfrastructure.postgres();
    SharedTestInfrastructure.createDatabase(OnePayoutPerBounceMigrationTest.class);
    String name = SharedTestInfrastructure.databaseName(OnePayoutPerBounceMigrationTest.class);
    try (HikariDataSource db = Ledger.pooledDataSource(postgres.jdbcUrl(name), postgres.user(), postgres.password(), 2)) {
      flyway(db).target("12").load().migrate();
      execute(db, "insert into payout_requests (request_id, subwallet_id, fingerprint, content, transfer_count,"
          + " created_at) values ('r1', 7, '" + "c".repeat(64) + "', '{}', 1, now()), ('r2', 7, '" + "d".repeat(64) + "', '{}', 1, now())");
      for (String r : List.of("r1", "r2")) {
        int n = r.equals("r1") ? 1 : 2;
        execute(db, "insert into payout_transfers (request_id, transfer_id, transfer_index, kind, subwallet_id,"
            + " wallet_address, destination, amount_nano, seqno, attempts, status, message_hash, tx_hash,"
            + " bounce_tx_hash, returned_nano, bounced_at, created_at, updated_at, settled_at) values ('" + r
            + "', 't', 0, 'REFUND', 7, '0:" + "a".repeat(64) + "', 'dest', 1000, " + n + ", 1, 'SETTLED', '"
            + String.valueOf(n).repeat(64) + "', '" + String.valueOf(n + 2).repeat(64) + "', '" + BOUNCE + "', 900,"
            + " now() + interval '" + n + " seconds', now(), now(), now())");
      }

      flyway(db).load().migrate();

      assertThat(rows(db, "select request_id, bounce_tx_hash from payout_transfers order by request_id"))
          .containsExactly(List.of("r1", BOUNCE), java.util.Arrays.asList("r2", null));
      assertThat(rows(db, "select request_id, level, event, tx_hash from audit_log where event = 'LEDGER_CONFLICT'"))
          .containsExactly(List.of("r2", "ERROR", "LEDGER_CONFLICT", BOUNCE));
      assertThat(rows(db, "select detail from audit_log where request_id = 'r2'").get(0).get(0))
          .contains("returned 900 nanotons").contains("check on chain");
      assertThat(rows(db, "select indexname from pg_indexes where indexname = 'payout_transfers_bounce_tx'"))
          .extracting(row -> row.get(0)).containsExactly("payout_transfers_bounce_tx");
    }
  }

  private static org.flywaydb.core.api.configuration.FluentConfiguration flyway(HikariDataSource db) {
    return Flyway.configure().dataSource(db).locations("classpath:db/migration");
  }

  private static void execute(HikariDataSource db, String sql) throws Exception {
    try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  private static List<List<String>> rows(HikariDataSource db, String sql) throws Exception {
    List<List<String>> rows = new ArrayList<>();
    try (Connection c = db.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<String> row = new ArrayList<>();
        for (int i = 1; i <= columns; i++) {
          row.add(rs.getString(i));
        }
        rows.add(row);
      }
    }
    return rows;
  }
}
