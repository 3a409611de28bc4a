package org.tonpayouts.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tonpayouts.embedded.EmbeddedPostgresServer;
import org.tonpayouts.embedded.SharedTestInfrastructure;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StartupException;
import org.tonpayouts.streams.ledger.Ledger;
import org.tonpayouts.streams.metrics.PayoutMetrics;
import picocli.CommandLine;

/**
 * Migrations run by the schema's owner: with {@code postgres.migrate=false} streams-app refuses a
 * schema that is not current, naming what is pending and the command; {@code streams-app migrate
 * --grant-to} applies the migrations and grants the service's user its rights, and says so again
 * harmlessly.
 */
class MigrateCommandTest {
  @TempDir
  Path tmp;

  @Test
  void shouldRefuseAStaleSchemaWithoutMigrateThenMigrateAndGrantFromTheCommand() throws Exception {
    EmbeddedPostgresServer postgres = SharedTestInfrastructure.postgres();
    String name = SharedTestInfrastructure.databaseName(MigrateCommandTest.class);
    DataSource db = SharedTestInfrastructure.createDatabase(name);
    try (Connection c = postgres.dataSource().getConnection(); Statement s = c.createStatement()) {
      s.execute("drop role if exists migrate_command_service");
      s.execute("create role migrate_command_service login");
    }
    PayoutsConfig noMigrate = PayoutTestKit.config(Map.of(PayoutsConfig.POSTGRES_MIGRATE_CONFIG, "false"));

    assertThatThrownBy(() -> new StreamsApp(noMigrate, PayoutTestKit.KEY, null, db, Clock.systemUTC(),
        PayoutMetrics.inMemory()))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("the ledger schema is not current and postgres.migrate is false")
        .hasMessageContaining("1 ton transactions")
        .hasMessageContaining("streams-app migrate");

    Path config = Files.writeString(tmp.resolve("payouts.properties"), String.join("\n",
        PayoutsConfig.POSTGRES_URL_CONFIG + "=" + postgres.jdbcUrl(name),
        PayoutsConfig.POSTGRES_USER_CONFIG + "=" + postgres.user(),
        PayoutsConfig.POSTGRES_PASSWORD_CONFIG + "=" + postgres.password()) + "\n");
    StringWriter out = new StringWriter();
    CommandLine cli = new CommandLine(new StreamsAppMain()).setOut(new PrintWriter(out, true));

    int first = cli.execute("migrate", "--config", config.toString(), "--grant-to", "migrate_command_service");
    int again = cli.execute("migrate", "--config", config.toString());

    assertThat(first).as(out.toString()).isZero();
    assertThat(again).isZero();
    assertThat(out.toString()).contains("applied 1 ton transactions").contains("15 operator pauses")
        .contains("granted migrate_command_service the service's rights").contains("already current");
    assertThat(Ledger.pendingMigrations(db)).isEmpty();
    try (Connection c = db.getConnection(); Statement s = c.createStatement();
        var rs = s.executeQuery("select has_table_privilege('migrate_command_service', 'audit_log', 'INSERT'),"
            + " has_table_privilege('migrate_command_service', 'audit_log', 'DELETE')")) {
      rs.next();
      assertThat(rs.getBoolean(1)).isTrue();
      assertThat(rs.getBoolean(2)).isFalse();
    }
  }
}
