package org.tonpayouts.streams.ledger;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.streams.ledger.RecordedIntent.Conflict;

/**
 * The ledger: {@code ton_transactions} in PostgreSQL, the write-ahead record of every message we
 * sign (DESIGN.md, "The safe-retry rule").
 *
 * <p>An intent row is committed before its BOC is sent; the table's unique indexes (one live
 * attempt per transfer, one message per wallet and seqno) make a second instance or a replay find
 * that row and resume it instead of signing another. Every status change is a guarded {@code
 * UPDATE ... WHERE status IN (...)} that reports whether it applied, so a repeated verdict is a
 * no-op and never a second transition.
 *
 * <p>Thread-safe; every method is one short transaction on a connection from the data source.
 * Timestamps come from the injected clock, not from the database.
 */
public final class Ledger {
  private static final Logger log = LoggerFactory.getLogger(Ledger.class);

  /** Rounds of insert-then-look-up before giving up on an intent whose conflicting row keeps moving. */
  private static final int MAX_RECORD_ROUNDS = 5;
  private static final int MAX_TEXT = 4000;

  private static final String COLUMNS =
      "id, request_id, transfer_id, transfer_index, attempt, subwallet_id, wallet_address,"
          + " destination, amount_nano, seqno, message_hash, normalized_hash, boc, valid_until,"
          + " status, tx_hash, lt, utime, fee_nano, last_error, error_count, send_count,"
          + " created_at, updated_at, sent_at, settled_at";
  private static final String T_COLUMNS =
      Arrays.stream(COLUMNS.split(",\\s*")).map(c -> "t." + c).collect(Collectors.joining(", "));

  private static final String INSERT_INTENTS =
      "insert into ton_transactions (request_id, transfer_id, transfer_index, attempt, subwallet_id,"
          + " wallet_address, destination, amount_nano, seqno, message_hash, normalized_hash, boc,"
          + " valid_until, status, created_at, updated_at)"
          + " select r, t, ti, a, sw, w, d, amt, s, mh, nh, b, to_timestamp(vu), 'SIGNED', ?, ?"
          + " from unnest(?::text[], ?::text[], ?::int4[], ?::int4[], ?::int8[], ?::text[], ?::text[],"
          + " ?::int8[], ?::int8[], ?::text[], ?::text[], ?::text[], ?::int8[])"
          + " as u(r, t, ti, a, sw, w, d, amt, s, mh, nh, b, vu)"
          + " on conflict do nothing"
          + " returning " + COLUMNS;

  /** Rows that can block an intent: same message, or a non-EXPIRED row of its transfer or seqno. */
  private static final String FIND_CONFLICTING =
      "select " + COLUMNS + " from ton_transactions where message_hash = any(?::text[])"
          + " union select " + COLUMNS + " from ton_transactions where status <> 'EXPIRED'"
          + " and (request_id, transfer_id) in (select * from unnest(?::text[], ?::text[]))"
          + " union select " + COLUMNS + " from ton_transactions where status <> 'EXPIRED'"
          + " and (wallet_address, seqno) in (select * from unnest(?::text[], ?::int8[]))";

  private final DataSource dataSource;
  private final Clock clock;

  public Ledger(DataSource dataSource, Clock clock) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Brings the schema to the latest version with Flyway ({@code classpath:db/migration}). Safe to
   * call from every instance at start-up: Flyway serialises concurrent migrations with a lock.
   *
   * @return the number of migrations applied now (0 when already current)
   */
  public static int migrate(DataSource dataSource) {
    MigrateResult result =
        Flyway.configure()
            .dataSource(dataSource)
            .locations("classpath:db/migration")
            .load()
            .migrate();
    log.info(
        "ledger schema migrated applied={} version={}",
        result.migrationsExecuted,
        result.targetSchemaVersion != null ? result.targetSchemaVersion : result.initialSchemaVersion);
    return result.migrationsExecuted;
  }

  /**
   * A connection pool for the ledger. The password goes to the pool only; it is never logged.
   *
   * @param maxPoolSize connections at most; every ledger call holds one for one or two statements
   */
  public static HikariDataSource pooledDataSource(
      String jdbcUrl, String user, String password, int maxPoolSize) {
    HikariConfig config = new HikariConfig();
    config.setPoolName("ledger");
    config.setJdbcUrl(Objects.requireNonNull(jdbcUrl, "jdbcUrl"));
    config.setUsername(user);
    config.setPassword(password);
    config.setMaximumPoolSize(maxPoolSize);
    config.setMinimumIdle(Math.min(2, maxPoolSize));
    config.setAutoCommit(true);
    config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
    return new HikariDataSource(config);
  }

  // ---------------------------------------------------------------------------------------------
  // Intents

  /** {@link #recordIntents} for one intent. */
  public RecordedIntent recordIntent(Intent intent) {
    return recordIntents(List.of(intent)).get(0);
  }

  /**
   * Records signed messages as {@code SIGNED} rows, all in one transaction, and says per intent
   * (in the given order) whether it was inserted or which existing row holds its place (same
   * message, a non-EXPIRED message of the same transfer, or of the same wallet and seqno).
   *
   * <p>One {@code INSERT ... SELECT FROM unnest(...) ON CONFLICT DO NOTHING} for the whole batch,
   * then one look-up of the blockers if there were any. A concurrent instance racing for the same
   * transfer waits for the winner's commit and gets the winner's row: exactly one message per
   * transfer is ever live. Needs READ COMMITTED (PostgreSQL's default, and what {@link
   * #pooledDataSource} sets): under REPEATABLE READ such a race fails with a serialization error.
   *
   * @throws LedgerException if the database fails: send nothing of this batch. Rows that did get
   *     recorded are found, and resumed, by the next call for the same transfers.
   */
  public List<RecordedIntent> recordIntents(List<Intent> intents) {
    if (intents.isEmpty()) {
      return List.of();
    }
    Instant now = now();
    RecordedIntent[] results = new RecordedIntent[intents.size()];
    // Each round is one INSERT statement, atomic on its own: the common case (no conflicts) costs a
    // single round trip. An intent's row is complete by itself, so a crash between rounds leaves
    // nothing half-done: the intents not yet recorded were not sent either.
    run(
        "record " + intents.size() + " intents",
        c -> {
          List<Integer> pending = new ArrayList<>();
          for (int i = 0; i < intents.size(); i++) {
            pending.add(i);
          }
          for (int round = 1; !pending.isEmpty(); round++) {
            if (round > MAX_RECORD_ROUNDS) {
              throw new LedgerException(
                  "could not record " + pending.size() + " intents: their conflicting rows kept changing");
            }
            pending = recordRound(c, intents, pending, results, now);
          }
          return null;
        });
    for (RecordedIntent r : results) {
      logRecorded(r);
    }
    return List.of(results);
  }

  /** One insert and one look-up; returns the intents whose blocker vanished meanwhile (retry them). */
  private List<Integer> recordRound(
      Connection c, List<Intent> intents, List<Integer> pending, RecordedIntent[] results, Instant now)
      throws SQLException {
    List<Intent> batch = pending.stream().map(intents::get).toList();
    Map<String, LedgerRow> insertedByHash = new HashMap<>();
    for (LedgerRow row : insert(c, batch, now)) {
      insertedByHash.put(row.messageHash(), row);
    }
    List<Integer> unresolved = new ArrayList<>();
    for (int index : pending) {
      // remove(): of two equal intents in one batch only the first counts as inserted.
      LedgerRow row = insertedByHash.remove(intents.get(index).messageHash());
      if (row != null) {
        results[index] = new RecordedIntent(intents.get(index), row, Conflict.NONE);
      } else {
        unresolved.add(index);
      }
    }
    if (unresolved.isEmpty()) {
      return List.of();
    }
    List<LedgerRow> blockers = findConflicting(c, unresolved.stream().map(intents::get).toList());
    List<Integer> retry = new ArrayList<>();
    for (int index : unresolved) {
      Intent intent = intents.get(index);
      RecordedIntent found = matchBlocker(intent, blockers);
      if (found != null) {
        results[index] = found;
      } else {
        // The blocking row turned EXPIRED between our insert and our look-up: the place is free now.
        retry.add(index);
      }
    }
    return retry;
  }

  private static RecordedIntent matchBlocker(Intent intent, List<LedgerRow> blockers) {
    for (LedgerRow row : blockers) {
      if (row.messageHash().equals(intent.messageHash())) {
        return new RecordedIntent(intent, row, Conflict.SAME_MESSAGE);
      }
    }
    for (LedgerRow row : blockers) {
      if (row.status() != LedgerStatus.EXPIRED
          && row.requestId().equals(intent.requestId())
          && row.transferId().equals(intent.transferId())) {
        return new RecordedIntent(intent, row, Conflict.SAME_TRANSFER);
      }
    }
    for (LedgerRow row : blockers) {
      if (row.status() != LedgerStatus.EXPIRED
          && row.walletAddress().equals(intent.walletAddress())
          && row.seqno() == intent.seqno()) {
        return new RecordedIntent(intent, row, Conflict.SAME_WALLET_SEQNO);
      }
    }
    return null;
  }

  private List<LedgerRow> insert(Connection c, List<Intent> batch, Instant now) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(INSERT_INTENTS)) {
      int p = 1;
      ps.setObject(p++, timestamp(now));
      ps.setObject(p++, timestamp(now));
      ps.setArray(p++, column(c, "text", batch, Intent::requestId));
      ps.setArray(p++, column(c, "text", batch, Intent::transferId));
      ps.setArray(p++, column(c, "int4", batch, Intent::transferIndex));
      ps.setArray(p++, column(c, "int4", batch, Intent::attempt));
      ps.setArray(p++, column(c, "int8", batch, Intent::subwalletId));
      ps.setArray(p++, column(c, "text", batch, Intent::walletAddress));
      ps.setArray(p++, column(c, "text", batch, Intent::destination));
      ps.setArray(p++, column(c, "int8", batch, Intent::amountNano));
      ps.setArray(p++, column(c, "int8", batch, Intent::seqno));
      ps.setArray(p++, column(c, "text", batch, Intent::messageHash));
      ps.setArray(p++, column(c, "text", batch, Intent::normalizedHash));
      ps.setArray(p++, column(c, "text", batch, Intent::boc));
      ps.setArray(p, column(c, "int8", batch, i -> i.validUntil().getEpochSecond()));
      return readRows(ps);
    }
  }

  private List<LedgerRow> findConflicting(Connection c, List<Intent> intents) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(FIND_CONFLICTING)) {
      ps.setArray(1, column(c, "text", intents, Intent::messageHash));
      ps.setArray(2, column(c, "text", intents, Intent::requestId));
      ps.setArray(3, column(c, "text", intents, Intent::transferId));
      ps.setArray(4, column(c, "text", intents, Intent::walletAddress));
      ps.setArray(5, column(c, "int8", intents, Intent::seqno));
      return readRows(ps);
    }
  }

  /** One field of every intent as an SQL array, for the {@code unnest} statements (one round trip per batch). */
  private static Array column(Connection c, String sqlType, List<Intent> intents, Function<Intent, Object> field)
      throws SQLException {
    return c.createArrayOf(sqlType, intents.stream().map(field).toArray());
  }

  // ---------------------------------------------------------------------------------------------
  // Status transitions

  /**
   * Records that the message was handed to the API: {@code SIGNED -> SENT}, or one more send of a
   * {@code SENT} message (re-sending the same BOC is safe). The first send time is kept.
   *
   * @return false when the row is unknown or already settled (then it must not be sent again)
   */
  public boolean markSent(String messageHash) {
    return markSent(List.of(messageHash)) == 1;
  }

  /** {@link #markSent(String)} for many messages in one statement; returns how many applied. */
  public int markSent(Collection<String> messageHashes) {
    if (messageHashes.isEmpty()) {
      return 0;
    }
    String[] hashes = messageHashes.stream().map(h -> Checks.hash(h, "messageHash")).toArray(String[]::new);
    Instant now = now();
    List<Transition> done =
        transition(
            hashes,
            EnumSet.of(LedgerStatus.SIGNED, LedgerStatus.SENT),
            LedgerStatus.SENT,
            now,
            "sent_at = coalesce(t.sent_at, ?), send_count = t.send_count + 1",
            List.of(timestamp(now)));
    for (Transition t : done) {
      if (t.from() == LedgerStatus.SIGNED) {
        logTransition(t, null);
      } else {
        log.debug(
            "ledger resend recorded subwallet={} request={} transfer={} seqno={} hash={} sends={}",
            t.row().subwalletId(), t.row().requestId(), t.row().transferId(), t.row().seqno(),
            t.row().messageHash(), t.row().sendCount());
      }
    }
    if (done.size() < hashes.length) {
      log.warn(
          "ledger send not recorded for settled or unknown messages count={}",
          hashes.length - done.size());
    }
    return done.size();
  }

  /**
   * {@code SIGNED|SENT -> CONFIRMED} with the transaction that applied the message.
   *
   * @return true when confirmed now; false for a repeat of the same confirmation, or an unknown hash
   * @throws LedgerConflictException when the row is EXPIRED, FAILED, RECONCILIATION_REQUIRED or
   *     confirmed by another transaction: the ledger and the chain disagree, an operator must look
   */
  public boolean markConfirmed(String messageHash, String txHash, long lt, Long utime, Long feeNano) {
    String hash = Checks.hash(messageHash, "messageHash");
    String tx = Checks.hash(txHash, "txHash");
    if (lt < 0 || (utime != null && utime < 0) || (feeNano != null && feeNano < 0)) {
      throw new IllegalArgumentException(
          "lt, utime and feeNano must not be negative: lt=" + lt + " utime=" + utime + " fee=" + feeNano);
    }
    Instant now = now();
    List<Object> params = new ArrayList<>();
    params.add(tx);
    params.add(lt);
    params.add(utime);
    params.add(feeNano);
    params.add(timestamp(now));
    List<Transition> done =
        transition(
            new String[] {hash},
            EnumSet.of(LedgerStatus.SIGNED, LedgerStatus.SENT),
            LedgerStatus.CONFIRMED,
            now,
            "tx_hash = ?, lt = ?, utime = ?, fee_nano = ?, settled_at = ?",
            params);
    if (!done.isEmpty()) {
      logTransition(done.get(0), "tx=" + tx + " lt=" + lt);
      return true;
    }
    Optional<LedgerRow> current = findByMessageHash(hash);
    if (current.isEmpty()) {
      log.warn("ledger confirmation for an unknown message hash={} tx={}", hash, tx);
      return false;
    }
    LedgerRow row = current.get();
    if (row.status() == LedgerStatus.CONFIRMED && tx.equals(row.txHash())) {
      log.debug("ledger confirmation repeated hash={} tx={}", hash, tx);
      return false;
    }
    log.error(
        "ledger conflict: confirmation contradicts the ledger subwallet={} request={} transfer={}"
            + " seqno={} hash={} status={} ledger_tx={} reported_tx={}",
        row.subwalletId(), row.requestId(), row.transferId(), row.seqno(), hash, row.status(),
        row.txHash(), tx);
    throw new LedgerConflictException(
        "message " + hash + " is " + row.status()
            + (row.txHash() != null ? " with tx " + row.txHash() : "")
            + "; cannot confirm it with tx " + tx,
        row);
  }

  /**
   * {@code SIGNED|SENT -> FAILED}: a transaction applied the message (its seqno is used) but the
   * transfer did not go out.
   *
   * @return true when failed now; false when the row is unknown or already settled
   */
  public boolean markFailed(String messageHash, String reason) {
    return markFailed(messageHash, reason, null, null, null, null);
  }

  /** {@link #markFailed(String, String)} with the transaction that applied the message, if known. */
  public boolean markFailed(
      String messageHash, String reason, String txHash, Long lt, Long utime, Long feeNano) {
    String hash = Checks.hash(messageHash, "messageHash");
    String tx = Checks.hashOrNull(txHash, "txHash");
    List<Object> params = new ArrayList<>();
    params.add(truncate(Checks.nonBlank(reason, "reason")));
    params.add(tx);
    params.add(lt);
    params.add(utime);
    params.add(feeNano);
    Instant now = now();
    params.add(timestamp(now));
    return settle(
        hash,
        LedgerStatus.FAILED,
        now,
        "last_error = ?, tx_hash = ?, lt = ?, utime = ?, fee_nano = ?, settled_at = ?",
        params,
        "reason=" + reason);
  }

  /**
   * {@code SIGNED|SENT -> EXPIRED}, allowed only once {@code valid_until} is past by this ledger's
   * clock. The caller must also have seen that the chain did not apply the message (DESIGN.md): from
   * this row on, the transfer's place is free for a new attempt.
   *
   * @return true when expired now; false when the row is unknown, already settled, or its
   *     {@code valid_until} is not yet past here (clock skew with the poller: ask again later)
   */
  public boolean markExpired(String messageHash) {
    String hash = Checks.hash(messageHash, "messageHash");
    Instant now = now();
    List<Transition> done =
        transition(
            new String[] {hash},
            EnumSet.of(LedgerStatus.SIGNED, LedgerStatus.SENT),
            LedgerStatus.EXPIRED,
            now,
            "settled_at = ?",
            List.of(timestamp(now)),
            " and t.valid_until < ?",
            List.of(timestamp(now)));
    if (!done.isEmpty()) {
      logTransition(done.get(0), "valid_until=" + done.get(0).row().validUntil());
      return true;
    }
    findByMessageHash(hash)
        .ifPresentOrElse(
            row -> {
              if (row.status().isLive()) {
                log.warn(
                    "ledger refuses to expire a message before its valid_until subwallet={} request={}"
                        + " transfer={} seqno={} hash={} valid_until={} now={}",
                    row.subwalletId(), row.requestId(), row.transferId(), row.seqno(), hash,
                    row.validUntil(), now);
              } else if (row.status() != LedgerStatus.EXPIRED) {
                log.warn("ledger not expiring a settled message hash={} status={}", hash, row.status());
              }
            },
            () -> log.warn("ledger expiry for an unknown message hash={}", hash));
    return false;
  }

  /**
   * {@code SIGNED|SENT -> RECONCILIATION_REQUIRED}: the chain is ambiguous about this message; no
   * completion is claimed and an operator decides.
   *
   * @return true when marked now; false when the row is unknown or already settled
   */
  public boolean markReconciliationRequired(String messageHash, String reason) {
    String hash = Checks.hash(messageHash, "messageHash");
    List<Object> params = new ArrayList<>();
    params.add(truncate(Checks.nonBlank(reason, "reason")));
    Instant now = now();
    params.add(timestamp(now));
    return settle(
        hash,
        LedgerStatus.RECONCILIATION_REQUIRED,
        now,
        "last_error = ?, settled_at = ?",
        params,
        "reason=" + reason);
  }

  private boolean settle(
      String hash, LedgerStatus to, Instant now, String set, List<Object> params, String detail) {
    List<Transition> done =
        transition(
            new String[] {hash}, EnumSet.of(LedgerStatus.SIGNED, LedgerStatus.SENT), to, now, set, params);
    if (!done.isEmpty()) {
      logTransition(done.get(0), detail);
      return true;
    }
    Optional<LedgerRow> current = findByMessageHash(hash);
    if (current.isEmpty()) {
      log.warn("ledger {} for an unknown message hash={}", to, hash);
    } else if (current.get().status() == to) {
      log.debug("ledger {} repeated hash={}", to, hash);
    } else {
      log.warn("ledger not moving a settled message to {} hash={} status={}", to, hash, current.get().status());
    }
    return false;
  }

  /**
   * Notes a send error on the row (last error, error count) without changing its status: a send
   * that failed may still have been delivered, so the message stays watched.
   *
   * @return false when no row has this hash
   */
  public boolean recordError(String messageHash, String error) {
    String hash = Checks.hash(messageHash, "messageHash");
    String sql =
        "update ton_transactions set last_error = ?, error_count = error_count + 1, updated_at = ?"
            + " where message_hash = ?";
    return run(
        "record an error for message " + hash,
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, truncate(Objects.requireNonNullElse(error, "unknown error")));
            ps.setObject(2, timestamp(now()));
            ps.setString(3, hash);
            return ps.executeUpdate() == 1;
          }
        });
  }

  /** A status change that applied: the status before it and the row after it. */
  private record Transition(LedgerStatus from, LedgerRow row) {}

  private List<Transition> transition(
      String[] hashes,
      Set<LedgerStatus> from,
      LedgerStatus to,
      Instant now,
      String set,
      List<Object> setParams) {
    return transition(hashes, from, to, now, set, setParams, "", List.of());
  }

  /**
   * One guarded update: locks the rows (in id order, so concurrent batches cannot deadlock), and
   * changes only those whose current status is in {@code from}.
   */
  private List<Transition> transition(
      String[] hashes,
      Set<LedgerStatus> from,
      LedgerStatus to,
      Instant now,
      String set,
      List<Object> setParams,
      String extraCondition,
      List<Object> extraParams) {
    String fromList = from.stream().map(s -> "'" + s.name() + "'").collect(Collectors.joining(", "));
    String sql =
        "with old as (select id, status from ton_transactions where message_hash = any(?::text[])"
            + " order by id for update)"
            + " update ton_transactions t set status = ?, updated_at = ?, " + set
            + " from old where t.id = old.id and old.status in (" + fromList + ")" + extraCondition
            + " returning old.status as old_status, " + T_COLUMNS;
    return run(
        "move " + hashes.length + " message(s) to " + to,
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            int p = 1;
            ps.setArray(p++, c.createArrayOf("text", hashes));
            ps.setString(p++, to.name());
            ps.setObject(p++, timestamp(now));
            for (Object param : setParams) {
              bind(ps, p++, param);
            }
            for (Object param : extraParams) {
              bind(ps, p++, param);
            }
            List<Transition> done = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                done.add(new Transition(LedgerStatus.valueOf(rs.getString("old_status")), readRow(rs)));
              }
            }
            return done;
          }
        });
  }

  // ---------------------------------------------------------------------------------------------
  // Queries

  /** The transfer's attempt that is not EXPIRED (live, or settled for good), if any. */
  public Optional<LedgerRow> findCurrentAttempt(String requestId, String transferId) {
    List<LedgerRow> rows =
        query(
            "select " + COLUMNS + " from ton_transactions"
                + " where request_id = ? and transfer_id = ? and status <> 'EXPIRED'",
            requestId,
            transferId);
    return rows.stream().findFirst();
  }

  /**
   * The non-expired attempts of many transfers in one round trip: {@code requestIds[i]} and
   * {@code transferIds[i]} name one transfer; transfers without an attempt are simply absent.
   */
  public List<LedgerRow> findCurrentAttempts(List<String> requestIds, List<String> transferIds) {
    if (requestIds.isEmpty()) {
      return List.of();
    }
    return run(
        "query the ledger",
        c -> {
          try (PreparedStatement ps = c.prepareStatement(
              "select " + COLUMNS + " from ton_transactions"
                  + " join unnest(?::text[], ?::text[]) as k(request_id, transfer_id) using (request_id, transfer_id)"
                  + " where status <> 'EXPIRED'")) {
            ps.setArray(1, c.createArrayOf("text", requestIds.toArray()));
            ps.setArray(2, c.createArrayOf("text", transferIds.toArray()));
            return readRows(ps);
          }
        });
  }

  /** Every message ever signed for the transfer, oldest attempt first. */
  public List<LedgerRow> attempts(String requestId, String transferId) {
    return query(
        "select " + COLUMNS + " from ton_transactions where request_id = ? and transfer_id = ?"
            + " order by attempt, id",
        requestId,
        transferId);
  }

  public Optional<LedgerRow> findByMessageHash(String messageHash) {
    return query(
            "select " + COLUMNS + " from ton_transactions where message_hash = ?",
            Checks.hash(messageHash, "messageHash"))
        .stream()
        .findFirst();
  }

  /**
   * The highest seqno of the wallet's CONFIRMED messages. Any fresh seqno read at or below it is
   * stale.
   */
  public Optional<Long> highestConfirmedSeqno(String walletAddress) {
    return maxSeqno(walletAddress, "'CONFIRMED'");
  }

  /**
   * The highest seqno the wallet is known to have used for one of our messages: CONFIRMED or FAILED
   * (both applied on chain). The stale-read guard's floor: a fresh read must be above it.
   */
  public Optional<Long> highestAppliedSeqno(String walletAddress) {
    return maxSeqno(walletAddress, "'CONFIRMED', 'FAILED'");
  }

  private Optional<Long> maxSeqno(String walletAddress, String statuses) {
    String wallet = Checks.rawAddress(walletAddress, "walletAddress");
    String sql =
        "select max(seqno) from ton_transactions where wallet_address = ? and status in ("
            + statuses + ")";
    return run(
        "read the highest seqno of " + wallet,
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, wallet);
            try (ResultSet rs = ps.executeQuery()) {
              rs.next();
              return Optional.ofNullable(nullableLong(rs, 1));
            }
          }
        });
  }

  /** Messages still waiting for the chain (SIGNED or SENT), by wallet and seqno: for recovery. */
  public List<LedgerRow> unsettled() {
    return query(
        "select " + COLUMNS + " from ton_transactions where status in ('SIGNED', 'SENT')"
            + " order by wallet_address, seqno, id");
  }

  // ---------------------------------------------------------------------------------------------
  // Wallet audit

  /** Writes a {@code wallet_audit} row: the wallet's seqno was not what our history explains. */
  public void recordSeqnoMismatch(
      long subwalletId, String walletAddress, long expectedSeqno, long observedSeqno, String detail) {
    String wallet = Checks.rawAddress(walletAddress, "walletAddress");
    String sql =
        "insert into wallet_audit (subwallet_id, wallet_address, expected_seqno, observed_seqno,"
            + " detail, at) values (?, ?, ?, ?, ?, ?)";
    run(
        "record a seqno mismatch for " + wallet,
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, subwalletId);
            ps.setString(2, wallet);
            ps.setLong(3, expectedSeqno);
            ps.setLong(4, observedSeqno);
            ps.setString(5, detail == null ? null : truncate(detail));
            ps.setObject(6, timestamp(now()));
            return ps.executeUpdate();
          }
        });
    log.warn(
        "ledger seqno mismatch recorded subwallet={} wallet={} expected={} observed={} detail={}",
        subwalletId, wallet, expectedSeqno, observedSeqno, detail);
  }

  /** The wallet's audit rows, oldest first. */
  public List<SeqnoMismatch> seqnoMismatches(String walletAddress) {
    String wallet = Checks.rawAddress(walletAddress, "walletAddress");
    String sql =
        "select id, subwallet_id, wallet_address, expected_seqno, observed_seqno, detail, at"
            + " from wallet_audit where wallet_address = ? order by at, id";
    return run(
        "read the audit of " + wallet,
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, wallet);
            List<SeqnoMismatch> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                rows.add(
                    new SeqnoMismatch(
                        rs.getLong("id"),
                        rs.getLong("subwallet_id"),
                        rs.getString("wallet_address"),
                        nullableLong(rs, "expected_seqno"),
                        nullableLong(rs, "observed_seqno"),
                        rs.getString("detail"),
                        instant(rs, "at")));
              }
            }
            return rows;
          }
        });
  }

  // ---------------------------------------------------------------------------------------------
  // Plumbing

  /** Work on one connection from the pool. */
  @FunctionalInterface
  private interface SqlWork<T> {
    T apply(Connection c) throws SQLException;
  }

  /**
   * Runs {@code work} as one unit: every statement of this class is atomic on its own, so with an
   * auto-commit connection (the pool's setting) nothing else is needed; a pool that hands out
   * connections with auto-commit off gets an explicit commit, so nothing is left pending.
   */
  private <T> T run(String what, SqlWork<T> work) {
    try (Connection c = dataSource.getConnection()) {
      try {
        T result = work.apply(c);
        if (!c.getAutoCommit()) {
          c.commit();
        }
        return result;
      } catch (SQLException | RuntimeException e) {
        if (!c.getAutoCommit()) {
          rollbackQuietly(c);
        }
        throw e;
      }
    } catch (SQLException e) {
      throw new LedgerException("could not " + what, e);
    }
  }

  private List<LedgerRow> query(String sql, Object... params) {
    return run(
        "query the ledger",
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
              bind(ps, i + 1, params[i]);
            }
            return readRows(ps);
          }
        });
  }

  private static List<LedgerRow> readRows(PreparedStatement ps) throws SQLException {
    List<LedgerRow> rows = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        rows.add(readRow(rs));
      }
    }
    return rows;
  }

  private static LedgerRow readRow(ResultSet rs) throws SQLException {
    return new LedgerRow(
        rs.getLong("id"),
        rs.getString("request_id"),
        rs.getString("transfer_id"),
        rs.getInt("transfer_index"),
        rs.getInt("attempt"),
        rs.getLong("subwallet_id"),
        rs.getString("wallet_address"),
        rs.getString("destination"),
        rs.getLong("amount_nano"),
        rs.getLong("seqno"),
        rs.getString("message_hash"),
        rs.getString("normalized_hash"),
        rs.getString("boc"),
        instant(rs, "valid_until"),
        LedgerStatus.valueOf(rs.getString("status")),
        rs.getString("tx_hash"),
        nullableLong(rs, "lt"),
        nullableLong(rs, "utime"),
        nullableLong(rs, "fee_nano"),
        rs.getString("last_error"),
        rs.getInt("error_count"),
        rs.getInt("send_count"),
        instant(rs, "created_at"),
        instant(rs, "updated_at"),
        instant(rs, "sent_at"),
        instant(rs, "settled_at"));
  }

  private static void bind(PreparedStatement ps, int index, Object value) throws SQLException {
    if (value == null) {
      // Untyped null: the column's type decides (PgJDBC sends it as unspecified).
      ps.setNull(index, Types.NULL);
    } else if (value instanceof Long l) {
      ps.setLong(index, l);
    } else if (value instanceof String s) {
      ps.setString(index, s);
    } else {
      ps.setObject(index, value);
    }
  }

  private static Long nullableLong(ResultSet rs, String column) throws SQLException {
    long value = rs.getLong(column);
    return rs.wasNull() ? null : value;
  }

  private static Long nullableLong(ResultSet rs, int column) throws SQLException {
    long value = rs.getLong(column);
    return rs.wasNull() ? null : value;
  }

  private static Instant instant(ResultSet rs, String column) throws SQLException {
    OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }

  private static OffsetDateTime timestamp(Instant instant) {
    return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
  }

  /** The clock's time at the database's precision, so what we write is what we read back. */
  private Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MICROS);
  }

  private static String truncate(String text) {
    return text.length() <= MAX_TEXT ? text : text.substring(0, MAX_TEXT);
  }

  private static void rollbackQuietly(Connection c) {
    try {
      c.rollback();
    } catch (SQLException e) {
      log.warn("ledger rollback failed error={}", e.toString());
    }
  }

  private static void logRecorded(RecordedIntent r) {
    LedgerRow row = r.row();
    Intent intent = r.intent();
    if (r.inserted()) {
      log.info(
          "ledger intent recorded status=SIGNED subwallet={} request={} transfer={} attempt={}"
              + " seqno={} hash={} valid_until={}",
          row.subwalletId(), row.requestId(), row.transferId(), row.attempt(), row.seqno(),
          row.messageHash(), row.validUntil());
    } else {
      log.info(
          "ledger intent not recorded conflict={} subwallet={} request={} transfer={} seqno={} hash={}"
              + " existing_request={} existing_transfer={} existing_seqno={} existing_hash={}"
              + " existing_status={}",
          r.conflict(), intent.subwalletId(), intent.requestId(), intent.transferId(),
          intent.seqno(), intent.messageHash(), row.requestId(), row.transferId(), row.seqno(),
          row.messageHash(), row.status());
    }
  }

  private static void logTransition(Transition t, String detail) {
    LedgerRow row = t.row();
    log.info(
        "ledger transition from={} to={} subwallet={} request={} transfer={} attempt={} seqno={}"
            + " hash={}{}",
        t.from(), row.status(), row.subwalletId(), row.requestId(), row.transferId(), row.attempt(),
        row.seqno(), row.messageHash(), detail == null ? "" : " " + detail);
  }
}
