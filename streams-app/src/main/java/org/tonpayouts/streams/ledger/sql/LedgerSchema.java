package org.tonpayouts.streams.ledger.sql;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
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
    MigrateResult result = flyway(dataSource).migrate();
    log.info("ledger schema migrated applied={} version={}", result.migrationsExecuted,
        result.targetSchemaVersion != null ? result.targetSchemaVersion : result.initialSchemaVersion);
    return result.migrationsExecuted;
  }

  /**
   * What {@link #migrate} would apply, as "version description" lines, oldest first; empty when the
   * schema is current. Reads Flyway's history table only (the service's user needs no right to
   * change the schema to ask).
   */
  public static List<String> pendingMigrations(DataSource dataSource) {
    MigrationInfo[] pending = flyway(dataSource).info().pending();
    return Arrays.stream(pending).map(m -> m.getVersion() + " " + m.getDescription()).toList();
  }

  /** The file {@link #grantServiceRights} runs. */
  public static final String SERVICE_GRANTS = "/db/roles/service-grants.sql";
  private static final java.util.regex.Pattern ROLE = java.util.regex.Pattern.compile("[a-z_][a-z0-9_$]{0,62}");

  /**
   * Grants {@code role} the rights streams-app needs on the ledger and nothing more ({@value #SERVICE_GRANTS}):
   * run as the schema's owner after {@link #migrate}, so that the service can run as {@code role}
   * with {@code postgres.migrate=false}. Safe to run again.
   *
   * @param role an existing database user, lower case ({@code [a-z_][a-z0-9_$]*})
   */
  public static void grantServiceRights(DataSource dataSource, String role) {
    if (role == null || !ROLE.matcher(role).matches()) {
      throw new IllegalArgumentException("the service's database user must be a plain lower-case name"
          + " ([a-z_][a-z0-9_$]*, at most 63 characters), got '" + role + "'");
    }
    String script;
    try (java.io.InputStream in = LedgerSchema.class.getResourceAsStream(SERVICE_GRANTS)) {
      if (in == null) {
        throw new IllegalStateException(SERVICE_GRANTS + " is missing from the jar");
      }
      script = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      throw new IllegalStateException("cannot read " + SERVICE_GRANTS + ": " + e.getMessage(), e);
    }
    String sql = script.lines().filter(l -> !l.startsWith("--")).collect(java.util.stream.Collectors.joining("\n"))
        .replace("${service}", "\"" + role + "\"");
    try (java.sql.Connection c = dataSource.getConnection(); java.sql.Statement st = c.createStatement()) {
      for (String statement : sql.split(";")) {
        if (!statement.isBlank()) {
          st.execute(statement);
        }
      }
    } catch (java.sql.SQLException e) {
      throw new LedgerException("could not grant the service's rights to " + role + ": " + e.getMessage(), e);
    }
    log.info("ledger rights granted role={}", role);
  }

  private static Flyway flyway(DataSource dataSource) {
    return Flyway.configure().dataSource(dataSource).locations("classpath:db/migration").load();
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
