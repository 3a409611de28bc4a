package org.tonpayouts.streams.ledger.sql;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Types;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ledger's plumbing, shared by every part of it: connections, one-statement units and
 * explicit transactions, parameter binding, array columns for {@code unnest} batches, and the
 * clock (timestamps come from the injected clock, at the database's precision, never from the
 * database, so tests are exact).
 */
public final class LedgerSql {
  private static final Logger log = LoggerFactory.getLogger(LedgerSql.class);
  static final int MAX_TEXT = 4000;

  private final DataSource dataSource;
  private final Clock clock;

  public LedgerSql(DataSource dataSource, Clock clock) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Work on one connection. */
  @FunctionalInterface
  public interface SqlWork<T> {
    T apply(Connection c) throws SQLException;
  }

  /**
   * Runs {@code work} as one unit on an auto-commit connection: right for a single statement
   * (each is atomic on its own). A pool that hands out non-auto-commit connections gets a commit.
   */
  public <T> T run(String what, SqlWork<T> work) {
    try (Connection c = dataSource.getConnection()) {
      try {
        T result = work.apply(c);
        if (!c.getAutoCommit()) {
          c.commit();
        }
        return result;
      } catch (SQLException | RuntimeException e) {
        undo(c);
        throw e;
      }
    } catch (SQLException e) {
      throw new LedgerException("could not " + what + ": " + e.getMessage(), e);
    }
  }

  /**
   * Runs {@code work} in one database transaction: everything it writes commits together or not
   * at all. READ COMMITTED (the pool's setting): a statement that waits for a row another
   * transaction locked re-checks its conditions on the committed row.
   */
  public <T> T transaction(String what, SqlWork<T> work) {
    try (Connection c = dataSource.getConnection()) {
      boolean autoCommit = c.getAutoCommit();
      c.setAutoCommit(false);
      T result;
      try {
        result = work.apply(c);
        c.commit();
      } catch (SQLException | RuntimeException e) {
        undo(c);
        restoreAutoCommit(c, autoCommit, e);
        throw e;
      }
      c.setAutoCommit(autoCommit);
      return result;
    } catch (SQLException e) {
      throw new LedgerException("could not " + what + ": " + e.getMessage(), e);
    }
  }

  /**
   * Runs {@code work} behind a savepoint of the caller's transaction: when it fails, only what it
   * wrote is undone, and {@code onFailure} says what to return instead (the transaction goes on).
   */
  public static <T> T orUndone(Connection c, SqlWork<T> work, Function<Exception, T> onFailure)
      throws SQLException {
    Savepoint savepoint = c.setSavepoint();
    try {
      T result = work.apply(c);
      c.releaseSavepoint(savepoint);
      return result;
    } catch (SQLException | RuntimeException e) {
      c.rollback(savepoint);
      return onFailure.apply(e);
    }
  }

  /** The clock's time at the database's precision, so what we write is what we read back. */
  public Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MICROS);
  }

  /** Binds {@code params} from index 1 and returns every row {@code reader} makes of the answer. */
  public static <T> List<T> query(Connection c, String sql, RowReader<T> reader, Object... params) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        bind(ps, i + 1, params[i]);
      }
      return read(ps, reader);
    }
  }

  /** Binds {@code params} from index 1 and returns the update count. */
  public static int update(Connection c, String sql, Object... params) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        bind(ps, i + 1, params[i]);
      }
      return ps.executeUpdate();
    }
  }

  /** Reads one row of a result set into a value. */
  @FunctionalInterface
  public interface RowReader<T> {
    public T read(ResultSet rs) throws SQLException;
  }

  public static <T> List<T> read(PreparedStatement ps, RowReader<T> reader) throws SQLException {
    List<T> rows = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        rows.add(reader.read(rs));
      }
    }
    return rows;
  }

  static void bind(PreparedStatement ps, int index, Object value) throws SQLException {
    if (value == null) {
      // Untyped null: the column's type decides (PgJDBC sends it as unspecified).
      ps.setNull(index, Types.NULL);
    } else if (value instanceof Long l) {
      ps.setLong(index, l);
    } else if (value instanceof Integer i) {
      ps.setInt(index, i);
    } else if (value instanceof String s) {
      ps.setString(index, s);
    } else if (value instanceof Instant instant) {
      ps.setObject(index, timestamp(instant));
    } else {
      ps.setObject(index, value);
    }
  }

  /** One field of every item as an SQL array, for {@code unnest} statements (one round trip per batch). */
  public static <T> Array column(Connection c, String sqlType, Collection<T> items, Function<T, Object> field)
      throws SQLException {
    return c.createArrayOf(sqlType, items.stream().map(field).toArray());
  }

  public static Long nullableLong(ResultSet rs, String column) throws SQLException {
    long value = rs.getLong(column);
    return rs.wasNull() ? null : value;
  }

  public static Instant instant(ResultSet rs, String column) throws SQLException {
    OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }

  public static OffsetDateTime timestamp(Instant instant) {
    return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
  }

  public static String truncate(String text) {
    return text == null || text.length() <= MAX_TEXT ? text : text.substring(0, MAX_TEXT);
  }

  /**
   * Rolls back what a failed unit began. Not on a connection the driver gave up (an I/O error, a
   * socket timeout): the server rolls that transaction back itself, and a rollback there would only
   * fail with "Connection is closed", hiding the error that matters.
   */
  private static void undo(Connection c) {
    try {
      if (!c.isClosed() && !c.getAutoCommit()) {
        c.rollback();
      }
    } catch (SQLException e) {
      log.warn("ledger rollback failed error={}", e.toString());
    }
  }

  /** After a failed transaction: the connection's auto-commit as it was, without hiding {@code failure}. */
  private static void restoreAutoCommit(Connection c, boolean autoCommit, Exception failure) {
    try {
      if (!c.isClosed()) {
        c.setAutoCommit(autoCommit);
      }
    } catch (SQLException e) {
      failure.addSuppressed(e);
    }
  }
}
