package org.tonpayouts.streams;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import javax.net.ssl.SSLException;
import org.apache.kafka.common.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StartupException;
import org.tonpayouts.runtime.ops.DatabaseCheck;
import org.tonpayouts.runtime.ops.PayoutProcess;
import org.tonpayouts.runtime.ops.TonApiPools;
import org.tonpayouts.runtime.ops.ProcessMetrics;
import org.tonpayouts.runtime.ops.StartupPatience;
import org.tonpayouts.runtime.topics.TopicsCommand;
import org.tonpayouts.schemas.Topics;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.ledger.sql.LedgerPoolSettings;
import org.tonpayouts.streams.ledger.sql.LedgerTransport;
import org.tonpayouts.streams.metrics.PayoutMetrics;
import org.tonpayouts.ton.api.CommonPool;
import org.tonpayouts.ton.api.ProviderPool;
import org.tonpayouts.ton.keys.WalletKey;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * Entry point of the streams-app process. At start it refuses to run (exit 2, one line saying why)
 * when a setting or a secret is wrong (a secret file others may read, the wallet secret inline in the
 * environment, no {@code ton.network}), the TON API node serves another network or its clock is off, the ledger database cannot be reached or migrated, or a
 * topic is missing; then it serves metrics and health on {@code metrics.port} and runs until
 * SIGTERM (clean close, leaving the group) or a fatal Kafka Streams error (exit 1).
 * {@code streams-app topics} creates the topics, {@code streams-app migrate} migrates the ledger's
 * schema and exits (for the schema's owner, with {@code postgres.migrate=false} for the service). With {@code admin.port} set it also serves the admin
 * API there, and refuses to start without an admin token.
 */
@Command(name = "streams-app", mixinStandardHelpOptions = true, subcommands = {TopicsCommand.class, MigrateCommand.class},
    description = "Issues TON payouts: one transaction at a time per WalletV4R2 subwallet.")
public final class StreamsAppMain implements Callable<Integer> {
  static {
    CommonPool.ensureShared(); // before anything uses ForkJoinPool: see CommonPool
  }

  private static final Logger log = LoggerFactory.getLogger(StreamsAppMain.class);
  static final String PROCESS = "streams-app";
  /**
   * Ledger connections: issuing rounds, confirmations and the health check share them, and the
   * outbox publisher and the admin API take one each while they work.
   */
  private static final int LEDGER_POOL_SIZE = 6;
  /**
   * How long a start waits for a ledger that does not take connections: a PostgreSQL restart or a
   * managed failover is usually over within it, and exiting would put the instance into its
   * supervisor's growing restart back-off.
   */
  static final java.time.Duration LEDGER_STARTUP_PATIENCE = java.time.Duration.ofSeconds(60);

  @Option(names = "--config", description = "Properties file; PAYOUTS_* environment variables override it.")
  private Path configFile;

  public static void main(String[] args) {
    System.exit(new CommandLine(new StreamsAppMain()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    PayoutsConfig config;
    WalletKey key;
    List<PayoutsConfig.TonApiProvider> providers;
    String ledgerPassword;
    try {
      // every secret is read now, so a loose secret file or an inline key stops the start with one line
      config = PayoutsConfig.load(Optional.ofNullable(configFile), System.getenv());
      key = config.walletKey(System.getenv());
      providers = config.tonApiProviders();
      ledgerPassword = config.postgresPassword();
    } catch (ConfigException e) {
      return PayoutProcess.refuse(PROCESS, new StartupException(e.getMessage(), e));
    }
    Clock clock = Clock.systemUTC();
    try (ProcessMetrics metrics = new ProcessMetrics(PROCESS);
        ProviderPool api = TonApiPools.open(providers, config.providerPoolSettings(), metrics.registry(), clock)) {
      PayoutProcess process = new PayoutProcess(PROCESS, config, Optional.ofNullable(configFile), metrics, clock);
      try {
        process.verifyNetwork(api);
        process.verifyNodeClock(api);
        try (HikariDataSource dataSource = ledgerPool(config, ledgerPassword);
            StreamsApp app = ledgerReady(config, () -> {
              schemaReady(config, dataSource);
              return new StreamsApp(config, key, api, dataSource, clock, new PayoutMetrics(metrics.registry()));
            })) {
          dataSource.setMetricRegistry(metrics.registry());
          process.verifyTopics(app.topology(), List.of(Topics.PAYOUT_AUDIT.name()));
          process.readyWhen("postgres", new DatabaseCheck(dataSource));
          return process.runUntilStopped(app.streams(), app::start, app::close);
        }
      } catch (StartupException e) {
        return PayoutProcess.refuse(PROCESS, e);
      }
    }
  }

  /**
   * The ledger's connection pool as streams-app opens it (connected and checked: the pool fails
   * fast; its waits bounded by {@code postgres.connection.timeout.ms} and {@code postgres.socket.timeout.ms}),
   * after a warning when {@code postgres.url} reaches a remote server without verifying it.
   *
   * @param password the ledger password, read with the other secrets before anything starts
   * @throws StartupException naming the URL, the user and the cause when it cannot connect
   */
  static HikariDataSource ledgerPool(PayoutsConfig config, String password) {
    LedgerTransport transport;
    try {
      transport = LedgerTransport.of(config.postgresUrl());
    } catch (IllegalArgumentException e) {
      throw new StartupException(e.getMessage() + ", got " + config.postgresUrl(), e);
    }
    if (transport instanceof LedgerTransport.Unverified unverified) {
      // a warning, not a refusal: a ledger on a private network or behind a TLS sidecar is a setup
      // that works today, and stopping it at an upgrade would stop payouts for a hint
      log.warn("ledger connection not verified: {}", unverified.advice());
    }
    // a ledger that does not take connections yet (restarting, failing over, frozen) is waited for
    return ledgerReady(config, () -> StartupPatience.retry(() -> Ledger.pooledDataSource(config.postgresUrl(),
            config.postgresUser(), password, LedgerPoolSettings.of(config, LEDGER_POOL_SIZE)),
        StreamsAppMain::isConnectionFailure, LEDGER_STARTUP_PATIENCE, "ledger database", ledgerServer(config)));
  }

  /**
   * The ledger's schema migrated or checked, waiting as {@link #ledgerPool} does while the ledger
   * takes no connections (it may go away between the pool's first connection and this step); the
   * app's constructor then finds it current.
   */
  private static void schemaReady(PayoutsConfig config, HikariDataSource dataSource) {
    StartupPatience.retry(() -> {
      StreamsApp.prepareSchema(config, dataSource);
      return null;
    }, StreamsAppMain::isConnectionFailure, LEDGER_STARTUP_PATIENCE, "ledger schema", ledgerServer(config));
  }

  /** The ledger's URL without its parameters, for the patience's log lines (a parameter may hold a password). */
  private static String ledgerServer(PayoutsConfig config) {
    String url = config.postgresUrl();
    int query = url.indexOf('?');
    return query < 0 ? url : url.substring(0, query);
  }

  /**
   * A failure to connect at all (SQLState class 08: refused, timed out, cut) or a server going down
   * or coming up (57P01 admin shutdown, 57P02 crash shutdown, 57P03 starting up): the database may be
   * on its way back. A refused password, a missing database or a failed TLS handshake is no reason
   * to wait.
   */
  static boolean isConnectionFailure(Throwable e) {
    if (hasCause(e, SSLException.class)) {
      return false; // a TLS set-up the server refuses: waiting changes nothing
    }
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SQLException sql && sql.getSQLState() != null
          && (sql.getSQLState().startsWith("08") || sql.getSQLState().startsWith("57P"))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Runs a step that connects to the ledger database (the pool fails fast; the app migrates the
   * schema with Flyway) and turns a database failure into a start-up refusal naming the URL, the
   * user and the cause.
   */
  static <T> T ledgerReady(PayoutsConfig config, java.util.function.Supplier<T> step) {
    try {
      return step.get();
    } catch (RuntimeException e) {
      if (!isDatabaseFailure(e)) {
        throw e;
      }
      String hint = hasCause(e, SSLException.class)
          ? " The TLS handshake failed: sslrootcert must name the CA that issued the server's certificate, and with"
              + " sslmode=verify-full the host in postgres.url must be one the certificate names. See docs/production.md,"
              + " PostgreSQL over TLS."
          : " The database and the user must exist; the user needs CREATE on the database (streams-app migrates its"
              + " schema with Flyway at start). See docs/production.md, production quick start.";
      throw new StartupException("cannot use the ledger database " + config.postgresUrl() + " as user "
          + config.postgresUser() + ": " + rootDescription(e) + "." + hint, e);
    }
  }

  private static boolean isDatabaseFailure(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SQLException || t.getClass().getName().startsWith("org.flywaydb")
          || t.getClass().getName().startsWith("com.zaxxer.hikari")) {
        return true;
      }
    }
    return false;
  }

  private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }

  private static String rootDescription(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage().strip());
  }
}
