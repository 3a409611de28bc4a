package org.tonpayouts.streams;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.kafka.common.config.ConfigException;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StartupException;
import org.tonpayouts.runtime.ops.PayoutProcess;
import org.tonpayouts.streams.ledger.Ledger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code streams-app migrate}: brings the ledger's schema up to date and exits, run with the schema
 * owner's credentials ({@code PAYOUTS_POSTGRES_USER}, {@code PAYOUTS_POSTGRES_PASSWORD_FILE}) so that
 * the service itself can run with {@code postgres.migrate=false} as a user without DDL rights.
 */
@Command(name = "migrate", mixinStandardHelpOptions = true,
    description = {"Applies the ledger's pending schema migrations (Flyway) as postgres.user and exits. Run it"
        + " as the schema's owner before starting streams-app with postgres.migrate=false. Safe to run again.",
        "Exit code 0: the schema is current; 2: the database could not be reached or migrated."})
final class MigrateCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = "--config", paramLabel = "<file>",
      description = "Properties file (PayoutsConfig keys); PAYOUTS_* environment variables override it.")
  Path configFile;

  @Option(names = "--grant-to", paramLabel = "<user>",
      description = "After migrating, grant this database user the rights streams-app needs and no more (rows of"
          + " the ledger's tables; the audit log append-only; no DDL, no DELETE): the user the service runs as.")
  String grantTo;

  @Override
  public Integer call() {
    try {
      PayoutsConfig config = PayoutsConfig.load(Optional.ofNullable(configFile), System.getenv());
      String password = config.postgresPassword();
      try (HikariDataSource dataSource = StreamsAppMain.ledgerPool(config, password)) {
        List<String> pending = Ledger.pendingMigrations(dataSource);
        StreamsAppMain.ledgerReady(config, () -> Ledger.migrate(dataSource));
        spec.commandLine().getOut().println("ledger " + config.postgresUrl() + " as " + config.postgresUser() + ": "
            + (pending.isEmpty() ? "already current" : "applied " + String.join(", ", pending)));
        if (grantTo != null) {
          try {
            StreamsAppMain.ledgerReady(config, () -> {
              Ledger.grantServiceRights(dataSource, grantTo);
              return null;
            });
          } catch (IllegalArgumentException e) {
            throw new StartupException(e.getMessage(), e);
          }
          spec.commandLine().getOut().println("granted " + grantTo + " the service's rights");
        }
        spec.commandLine().getOut().flush();
        return 0;
      }
    } catch (ConfigException e) {
      return PayoutProcess.refuse(StreamsAppMain.PROCESS, new StartupException(e.getMessage(), e));
    } catch (StartupException e) {
      return PayoutProcess.refuse(StreamsAppMain.PROCESS, e);
    }
  }
}
