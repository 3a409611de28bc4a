package org.tonpayouts.streams.ledger.sql;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.util.Objects;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The ledger's database: its schema (Flyway migrations) and its connection pool. */
public final class LedgerSchema {
  private static final Logger log = LoggerFactory.getLogger(LedgerSchema.class);

  private LedgerSchema() {}

  /**
   * Brings the schema to the latest version ({@code classpath:db/migration}). Safe to call from
   * every instance at start-up: Flyway serialises concurrent migrations with a lock.
   *
   * @return the number of migrations applied now (0 when already current)
   */
  public static int migrate(DataSource dataSource) {
    MigrateResult result = Flyway.configure().dataSource(dataSource).locations("classpath:db/migration").load().migrate();
    log.info("ledger schema migrated applied={} version={}", result.migrationsExecuted,
        result.targetSchemaVersion != null ? result.targetSchemaVersion : result.initialSchemaVersion);
    return result.migrationsExecuted;
  }

  /**
   * A connection pool for the ledger, READ COMMITTED (what the ledger's guarded statements
   * assume). The password goes to the pool only; it is never logged.
   *
   * @param maxPoolSize connections at most; every ledger call holds one for a few statements
   */
  public static HikariDataSource pooledDataSource(String jdbcUrl, String user, String password, int maxPoolSize) {
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
}
