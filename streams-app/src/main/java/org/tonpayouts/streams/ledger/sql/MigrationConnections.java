package org.tonpayouts.streams.ledger.sql;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Objects;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The ledger's connections as Flyway gets them: without the pool's socket timeout. A migration may
 * legitimately run for minutes (an index built on a large table, an {@code alter table} waiting for
 * its table lock behind the running instances' transactions); cut off by the timeout, the server
 * would carry on with it while the next start queued behind it. A connection returned to the pool
 * gets the pool's timeout back (Hikari restores a changed network timeout).
 */
final class MigrationConnections implements DataSource {
  private final DataSource pool;

  private MigrationConnections(DataSource pool) {
    this.pool = Objects.requireNonNull(pool, "pool");
  }

  static DataSource of(DataSource pool) {
    return new MigrationConnections(pool);
  }

  @Override
  public Connection getConnection() throws SQLException {
    return unbounded(pool.getConnection());
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    return unbounded(pool.getConnection(username, password));
  }

  private static Connection unbounded(Connection c) throws SQLException {
    try {
      c.setNetworkTimeout(Runnable::run, 0); // pgJDBC sets the socket's read timeout at once, on this thread
      return c;
    } catch (SQLException | RuntimeException e) {
      try {
        c.close();
      } catch (SQLException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  @Override
  public PrintWriter getLogWriter() throws SQLException {
    return pool.getLogWriter();
  }

  @Override
  public void setLogWriter(PrintWriter out) throws SQLException {
    pool.setLogWriter(out);
  }

  @Override
  public void setLoginTimeout(int seconds) throws SQLException {
    pool.setLoginTimeout(seconds);
  }

  @Override
  public int getLoginTimeout() throws SQLException {
    return pool.getLoginTimeout();
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    return pool.getParentLogger();
  }

  @Override
  public <T> T unwrap(Class<T> type) throws SQLException {
    return type.isInstance(this) ? type.cast(this) : pool.unwrap(type);
  }

  @Override
  public boolean isWrapperFor(Class<?> type) throws SQLException {
    return type.isInstance(this) || pool.isWrapperFor(type);
  }
}
