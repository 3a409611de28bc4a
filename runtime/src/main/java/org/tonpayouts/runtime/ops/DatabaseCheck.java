package org.tonpayouts.runtime.ops;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * The ledger database answers: a pooled connection passes {@link Connection#isValid}. What it shows
 * names no server: the URL and the driver's message go to the log only ({@link CheckResult#cause()}).
 */
public final class DatabaseCheck implements HealthCheck {
  private static final int VALID_TIMEOUT_SECONDS = 2;

  private final DataSource dataSource;

  public DatabaseCheck(DataSource dataSource) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
  }

  @Override
  public CheckResult check() {
    try (Connection c = dataSource.getConnection()) {
      return c.isValid(VALID_TIMEOUT_SECONDS) ? CheckResult.up("connection valid")
          : CheckResult.down("connection not valid within " + VALID_TIMEOUT_SECONDS + " s");
    } catch (SQLException | RuntimeException e) {
      return CheckResult.down(e);
    }
  }
}
