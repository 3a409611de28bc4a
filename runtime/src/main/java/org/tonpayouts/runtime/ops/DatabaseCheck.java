package org.tonpayouts.runtime.ops;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import javax.sql.DataSource;

/** The ledger database answers: a pooled connection passes {@link Connection#isValid}. */
public final class DatabaseCheck implements HealthCheck {
  private static final int VALID_TIMEOUT_SECONDS = 2;

  private final DataSource dataSource;
  private final String url;

  /** @param url the JDBC URL, shown in the detail (it carries no password: that is a separate key) */
  public DatabaseCheck(DataSource dataSource, String url) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    this.url = Objects.requireNonNull(url, "url");
  }

  @Override
  public CheckResult check() {
    try (Connection c = dataSource.getConnection()) {
      return c.isValid(VALID_TIMEOUT_SECONDS) ? CheckResult.up(url)
          : CheckResult.down(url + ": connection not valid within " + VALID_TIMEOUT_SECONDS + " s");
    } catch (SQLException | RuntimeException e) {
      return CheckResult.down(url + ": " + CheckResult.describe(e));
    }
  }
}
