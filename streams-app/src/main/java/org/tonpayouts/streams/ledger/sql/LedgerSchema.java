package org.tonpayouts.streams.ledger.sql;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.output.MigrateResult;
import org.postgresql.Driver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The ledger's database: its schema (Flyway migrations) and its connection pool. */
public final class LedgerSchema {
  private static final Logger log = LoggerFactory.getLogger(LedgerSchema.class);
  private static final String POOL_NAME = "ledger";
  /** Hikari's default check of a connection before it hands it out; never longer than a caller waits. */
  private static final long VALIDATION_TIMEOUT_MS = 5_000;
  /** The driver's settings {@link #driverProperties} sets, which a URL parameter would override. */
  private static final List<String> DRIVER_TIMEOUTS =
      List.of("socketTimeout", "connectTimeout", "loginTimeout", "tcpKeepAlive");

  private LedgerSchema() {}

  /**
   * Brings the schema to the latest version ({@code classpath:db/migration}). Safe to call from
   * every instance at start-up: Flyway serialises concurrent migrations with a lock. Runs without
   * the pool's socket timeout ({@link MigrationConnections}).
   *
   * @return the number of migrations applied now (0 when already current)
   */
  public static int migrate(DataSource dataSource) {
    MigrateResult result = flyway(MigrationConnections.of(dataSource)).migrate();
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

  /** {@link #pooledDataSource(String, String, String, LedgerPoolSettings)} with the default timeouts. */
  public static HikariDataSource pooledDataSource(String jdbcUrl, String user, String password, int maxPoolSize) {
    return pooledDataSource(jdbcUrl, user, password, LedgerPoolSettings.defaults(maxPoolSize));
  }

  /**
   * A connection pool for the ledger, READ COMMITTED (what the ledger's guarded statements
   * assume), whose waits are bounded by {@code settings}: a call waits at most the connection
   * timeout for a connection, a statement at most the socket timeout for the server's answer (the
   * driver then closes the connection, the server rolls back what it began, the pool opens a new
   * one). Logs the effective settings in one line; the password goes to the pool only, never to a log.
   */
  public static HikariDataSource pooledDataSource(String jdbcUrl, String user, String password,
      LedgerPoolSettings settings) {
    HikariConfig config = new HikariConfig();
    config.setPoolName(POOL_NAME);
    config.setJdbcUrl(Objects.requireNonNull(jdbcUrl, "jdbcUrl"));
    config.setUsername(user);
    config.setPassword(password);
    config.setMaximumPoolSize(settings.maxPoolSize());
    config.setMinimumIdle(Math.min(2, settings.maxPoolSize()));
    config.setAutoCommit(true);
    config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
    config.setConnectionTimeout(settings.connectionTimeout().toMillis());
    // Hikari's 5 s check of a connection it hands out must fit in the caller's wait (it warns otherwise)
    config.setValidationTimeout(Math.min(VALIDATION_TIMEOUT_MS, settings.connectionTimeout().toMillis()));
    driverProperties(settings).forEach(config::addDataSourceProperty);
    logSettings(jdbcUrl, user, settings);
    return new HikariDataSource(config);
  }

  /**
   * The driver's settings of the pool's connections, all in seconds as pgJDBC counts them. TCP
   * keep-alive detects a server host that vanished while a connection waits with no timeout (a
   * migration's); a frozen server process is caught by the socket timeout, since its kernel still
   * answers keep-alives.
   */
  static Map<String, String> driverProperties(LedgerPoolSettings settings) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("socketTimeout", Integer.toString(settings.socketTimeoutSeconds()));
    properties.put("connectTimeout", Integer.toString(settings.connectTimeoutSeconds()));
    properties.put("loginTimeout", Integer.toString(settings.connectTimeoutSeconds()));
    properties.put("tcpKeepAlive", "true");
    return properties;
  }

  /**
   * One INFO line with the pool's effective settings (a value the URL sets wins over ours, as the
   * driver reads it; a WARN says so). Names the server, database and user, never the URL's other
   * parameters or the password.
   */
  private static void logSettings(String jdbcUrl, String user, LedgerPoolSettings settings) {
    Map<String, String> ours = driverProperties(settings);
    Properties defaults = new Properties();
    defaults.putAll(ours);
    Properties parsed = Driver.parseURL(jdbcUrl, defaults);
    Properties effective = parsed != null ? parsed : defaults;
    List<String> overridden = DRIVER_TIMEOUTS.stream()
        .filter(key -> !ours.get(key).equals(effective.getProperty(key))).toList();
    if (!overridden.isEmpty()) {
      log.warn("ledger pool: postgres.url sets {} itself, and the driver takes the URL's value (logged below) over the"
          + " one from postgres.connection.timeout.ms and postgres.socket.timeout.ms", overridden);
    }
    log.info("ledger pool pool={} host={} port={} database={} user={} max_size={} connection_timeout_ms={}"
            + " socket_timeout_s={} connect_timeout_s={} login_timeout_s={} tcp_keep_alive={}"
            + " migrations_socket_timeout=none",
        POOL_NAME, effective.getProperty("PGHOST", "?"), effective.getProperty("PGPORT", "?"),
        effective.getProperty("PGDBNAME", "?"), user, settings.maxPoolSize(), settings.connectionTimeout().toMillis(),
        effective.getProperty("socketTimeout"), effective.getProperty("connectTimeout"),
        effective.getProperty("loginTimeout"), effective.getProperty("tcpKeepAlive"));
  }
}
