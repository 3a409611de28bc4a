package org.tonpayouts.local.soak;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.tonpayouts.local.stack.StackRun;

/**
 * What the soak's chaos reads from streams-app's ledger (PostgreSQL) with plain SQL, to aim its
 * acts and collect their evidence: partition owners (fencing epochs), messages in flight, payees
 * paid, and fencing refusals from the audit log. (The auditor reads the ledger for itself.)
 */
final class SoakLedger {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(SoakLedger.class);
  /** How long a read waits for a ledger that is away: longer than any stop or pause the chaos makes. */
  private static final java.time.Duration AWAY_TIMEOUT = java.time.Duration.ofMinutes(2);
  private static final java.time.Duration RETRY_EVERY = java.time.Duration.ofMillis(500);
  private final String jdbcUrl;
  private final String user;
  private final String password;

  /** A partition claim: who took it last, with which epoch. */
  record Owner(String applicationId, int partition, long epoch, String owner) {}

  /** An intent the ledger refused because its task no longer held the partition (audit event FENCED_WRITE_REFUSED). */
  record Fenced(Instant at, String requestId, String transferId, String messageHash, String detail) {}

  /** A message of ours waiting for the chain (SIGNED or SENT): to {@code destination}, at {@code seqno}. */
  record InFlight(String requestId, String transferId, long subwalletId, String walletAddress, long seqno,
                  String destination, long amountNano) {}

  /** A payee of ours: {@code subwalletId} paid {@code destination} {@code amountNano} (CONFIRMED messages). */
  record Paid(long subwalletId, String destination, long amountNano) {}

  SoakLedger(String jdbcUrl, String user, String password) {
    this.jdbcUrl = jdbcUrl;
    this.user = user;
    this.password = password;
  }

  static SoakLedger of(StackRun run) {
    return new SoakLedger(run.stack().ledgerJdbcUrl(), run.stack().postgres().user(),
        run.stack().postgres().password());
  }

  List<Owner> owners() {
    return query("select application_id, partition, epoch, owner from partition_owners order by partition",
        rs -> new Owner(rs.getString(1), rs.getInt(2), rs.getLong(3), rs.getString(4)));
  }

  /**
   * The front-runs stay TON-only: a message {@code m} of a TON transfer. (Every jetton transfer of
   * a wallet sends the same TON to the same account, its jetton wallet: none of them is a payee.)
   */
  private static final String TON_ONLY = "not exists (select 1 from payout_transfers t where t.request_id ="
      + " m.request_id and t.transfer_id = m.transfer_id and t.jetton_master is not null)";

  /**
   * Messages waiting for the chain whose wallet already paid their destination the same amount
   * (a CONFIRMED message of another request): transfers to a repeated payee, in flight.
   */
  List<InFlight> inFlightToPaidPayees() {
    return query("select m.request_id, m.transfer_id, m.subwallet_id, m.wallet_address, m.seqno, m.destination,"
        + " m.amount_nano from ton_transactions m where m.status in ('SIGNED', 'SENT') and exists (select 1"
        + " from ton_transactions e where e.wallet_address = m.wallet_address and e.destination = m.destination"
        + " and e.amount_nano = m.amount_nano and e.status = 'CONFIRMED' and e.request_id <> m.request_id)"
        + " and " + TON_ONLY + " order by m.id", rs -> new InFlight(rs.getString(1), rs.getString(2), rs.getLong(3),
            rs.getString(4), rs.getLong(5), rs.getString(6), rs.getLong(7)));
  }

  /** Messages signed after {@code signedAfter} that still wait for the chain or for their verdict. */
  List<InFlight> unconcluded(Instant signedAfter) {
    return query("select request_id, transfer_id, subwallet_id, wallet_address, seqno, destination, amount_nano"
        + " from ton_transactions where status in ('SIGNED', 'SENT') and created_at > ? order by id",
        rs -> new InFlight(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getString(4), rs.getLong(5),
            rs.getString(6), rs.getLong(7)), java.sql.Timestamp.from(signedAfter));
  }

  /** The payees wallets paid the same amount for two or more requests. */
  List<Paid> repeatedlyPaid() {
    return query("select subwallet_id, destination, amount_nano from ton_transactions m where status = 'CONFIRMED'"
        + " and " + TON_ONLY + " group by subwallet_id, destination, amount_nano"
        + " having count(distinct request_id) > 1"
        + " order by subwallet_id, destination, amount_nano",
        rs -> new Paid(rs.getLong(1), rs.getString(2), rs.getLong(3)));
  }

  /** When the ledger recorded each of these messages (their intent's time), by message hash. */
  Map<String, Instant> createdAt(List<String> messageHashes) {
    Map<String, Instant> at = new java.util.HashMap<>();
    // hex hashes: a comma-separated list needs no quoting
    query("select message_hash, created_at from ton_transactions where message_hash = any(string_to_array(?, ','))",
        rs -> at.put(rs.getString(1), rs.getTimestamp(2).toInstant()), String.join(",", messageHashes));
    return at;
  }

  List<Fenced> fencedRefusals() {
    return query("select at, request_id, transfer_id, message_hash, detail from audit_log"
        + " where event = 'FENCED_WRITE_REFUSED' order by id",
        rs -> new Fenced(rs.getTimestamp(1).toInstant(), rs.getString(2), rs.getString(3), rs.getString(4),
            rs.getString(5)));
  }

  /** Audit-log rows by event. */
  Map<String, Integer> auditEvents() {
    Map<String, Integer> counts = new TreeMap<>();
    query("select event, count(*) from audit_log group by event", rs -> counts.put(rs.getString(1), rs.getInt(2)));
    return counts;
  }

  private interface RowReader<T> {
    T read(ResultSet rs) throws SQLException;
  }

  /**
   * Runs a query, waiting up to {@link #AWAY_TIMEOUT} while the ledger is away (the chaos stops
   * and freezes PostgreSQL on purpose: the soak's own reads wait for it as the apps do).
   */
  private <T> List<T> query(String sql, RowReader<T> reader, Object... params) {
    long deadline = System.nanoTime() + AWAY_TIMEOUT.toNanos();
    while (true) {
      try {
        return queryOnce(sql, reader, params);
      } catch (SQLException e) {
        boolean away = e.getSQLState() != null && (e.getSQLState().startsWith("08") || e.getSQLState().startsWith("57P"));
        if (!away || System.nanoTime() > deadline) {
          throw new IllegalStateException("cannot read the ledger at " + jdbcUrl + ": " + e.getMessage(), e);
        }
        log.info("ledger away, reading again in {} ms sql_state={} error={}", RETRY_EVERY.toMillis(), e.getSQLState(),
            e.getMessage());
        try {
          Thread.sleep(RETRY_EVERY.toMillis()); // polling with a deadline: the ledger comes back when the chaos says
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while the ledger was away", interrupted);
        }
      }
    }
  }

  private <T> List<T> queryOnce(String sql, RowReader<T> reader, Object... params) throws SQLException {
    java.util.Properties connection = new java.util.Properties();
    connection.setProperty("user", user);
    connection.setProperty("password", password);
    // a frozen server answers nothing: a read gives up after 20 s and is tried again
    connection.setProperty("connectTimeout", "5");
    connection.setProperty("socketTimeout", "20");
    try (Connection c = DriverManager.getConnection(jdbcUrl, connection);
        PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        List<T> rows = new ArrayList<>();
        while (rs.next()) {
          rows.add(reader.read(rs));
        }
        return rows;
      }
    }
  }
}
