package org.tonpayouts.streams.ledger.audit;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.ToLongFunction;
import org.tonpayouts.schemas.AuditRecord;
import org.tonpayouts.streams.ledger.sql.LedgerSql;

/**
 * Rows of one ledger table that must reach Kafka: every {@code audit_log} row ({@link #audit}) and
 * the settlements of operators' resolutions ({@link #settlements}). A row is marked published only
 * after the sink took it (the publisher waits for Kafka's acknowledgement), in the transaction that
 * locked it: a crash in between leaves it unpublished, so it is sent again (at least once), and two
 * instances never lock the same rows ({@code skip locked}), so they rarely send one twice.
 *
 * @param <T> what one row is published as
 */
public final class Outbox<T> {

  /** Publishes a batch; an exception leaves every row of it unpublished, for the next call. */
  @FunctionalInterface
  public interface Sink<T> {
    void publish(List<T> items) throws Exception;
  }

  /** A sink failed: nothing of its batch was marked. */
  public static final class SinkException extends RuntimeException {
    SinkException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private final LedgerSql sql;
  private final String table;
  private final String columns;
  private final LedgerSql.RowReader<T> reader;
  private final ToLongFunction<T> id;
  private final String what;

  private Outbox(LedgerSql sql, String table, String columns, LedgerSql.RowReader<T> reader, ToLongFunction<T> id,
      String what) {
    this.sql = sql;
    this.table = table;
    this.columns = columns;
    this.reader = reader;
    this.id = id;
    this.what = what;
  }

  /** A row as published; the event name stays text, so a kind this version does not know still flows. */
  private static AuditRecord auditRecord(ResultSet rs) throws SQLException {
    return AuditRecord.of(rs.getLong("id"), LedgerSql.instant(rs, "at"), AuditRecord.Level.valueOf(rs.getString("level")),
        rs.getString("event"), LedgerSql.nullableLong(rs, "subwallet_id"), rs.getString("wallet_address"),
        rs.getString("request_id"), rs.getString("transfer_id"), LedgerSql.nullableLong(rs, "seqno"),
        rs.getString("message_hash"), rs.getString("tx_hash"), rs.getString("detail"));
  }

  /** The audit log: every row, for {@code payout.audit}. */
  public static Outbox<AuditRecord> audit(LedgerSql sql) {
    return new Outbox<>(sql, "audit_log", AuditLog.COLUMNS, Outbox::auditRecord, AuditRecord::auditId, "audit events");
  }

  /** The settlements of operators' resolutions, for {@code payout.settlements}. */
  public static Outbox<PendingSettlement> settlements(LedgerSql sql) {
    return new Outbox<>(sql, "settlement_outbox", PendingSettlement.COLUMNS, PendingSettlement::read,
        PendingSettlement::id, "resolution settlements");
  }

  /**
   * Hands up to {@code max} unpublished rows, oldest first, to {@code sink} and marks them published
   * when it returns.
   *
   * @return how many rows were published (0 when there was nothing to do)
   * @throws SinkException when the sink failed; nothing was marked
   */
  public int publishNext(int max, Sink<T> sink) {
    Objects.requireNonNull(sink, "sink");
    if (max < 1) {
      throw new IllegalArgumentException("max must be at least 1, got " + max);
    }
    Instant now = sql.now();
    return sql.transaction("publish " + what, c -> {
      List<T> rows = LedgerSql.query(c, "select " + columns + " from " + table + " where published_at is null"
          + " order by id limit ? for update skip locked", reader, max);
      if (rows.isEmpty()) {
        return 0;
      }
      try {
        sink.publish(rows);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SinkException("interrupted while publishing " + rows.size() + " " + what, e);
      } catch (Exception e) {
        throw new SinkException("could not publish " + rows.size() + " " + what + ": " + e.getMessage(), e);
      }
      markPublished(c, rows, now);
      return rows.size();
    });
  }

  /** Rows recorded and not published yet. */
  public long unpublished() {
    return sql.run("count unpublished " + what, c -> LedgerSql.query(c,
        "select count(*) from " + table + " where published_at is null", rs -> rs.getLong(1)).get(0));
  }

  /** Marks exactly the rows read (by id: a row committed meanwhile with a lower id is not one of them). */
  private void markPublished(Connection c, List<T> rows, Instant now) throws SQLException {
    LedgerSql.update(c, "update " + table + " set published_at = ? where id = any(?)", now,
        c.createArrayOf("bigint", rows.stream().map(r -> id.applyAsLong(r)).toArray()));
  }
}
