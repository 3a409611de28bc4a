package org.tonpayouts.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;

class EmbeddedPostgresServerTest {
  private static EmbeddedPostgresServer postgres;

  @BeforeAll
  static void startServer() {
    postgres = SharedTestInfrastructure.postgres();
    System.out.printf("embedded postgres start-up: %d ms%n", postgres.startupTime().toMillis());
  }

  @Test
  void shouldAnswerQueries() throws SQLException {
    assertThat(queryString(postgres.dataSource(), "select version()")).startsWith("PostgreSQL 14.");
    assertThat(queryString(postgres.dataSource(), "select 40 + 2")).isEqualTo("42");
    assertThat(SharedTestInfrastructure.postgres()).isSameAs(postgres);
  }

  @Test
  void shouldConnectWithItsJdbcUrlUserAndPassword() throws SQLException {
    try (Connection c =
            DriverManager.getConnection(postgres.jdbcUrl(), postgres.user(), postgres.password());
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("select current_user")) {
      rs.next();
      assertThat(rs.getString(1)).isEqualTo(postgres.user());
    }
  }

  @Test
  void shouldCommitSynchronouslyByDefault() throws SQLException {
    assertThat(queryString(postgres.dataSource(), "show synchronous_commit")).isEqualTo("on");
    // zonky runs postgres with -F: worth knowing when quoting any durability or speed figure.
    assertThat(queryString(postgres.dataSource(), "show fsync")).isEqualTo("off");
  }

  @Test
  void shouldIsolateFreshDatabases() throws SQLException {
    DataSource first = SharedTestInfrastructure.createDatabase("isolation_first");
    DataSource second = SharedTestInfrastructure.createDatabase("isolation_second");
    execute(first, "create table payouts (id int primary key)");
    execute(first, "insert into payouts values (1)");

    assertThat(queryString(first, "select count(*) from payouts")).isEqualTo("1");
    assertThat(queryString(second, "select to_regclass('payouts') is null")).isEqualTo("t");
  }

  @Test
  void shouldRecreateADatabaseEmptyEvenWithOpenSessions() throws SQLException {
    DataSource before = SharedTestInfrastructure.createDatabase(getClass());
    execute(before, "create table leftovers (id int)");
    try (Connection open = before.getConnection()) {
      DataSource after = SharedTestInfrastructure.createDatabase(getClass());

      assertThat(queryString(after, "select to_regclass('leftovers') is null")).isEqualTo("t");
      assertThat(open.isValid(1)).isFalse();
    }
  }

  @Test
  void shouldNameDatabasesAfterTestClasses() {
    assertThat(SharedTestInfrastructure.databaseName(EmbeddedPostgresServerTest.class))
        .isEqualTo("embedded_postgres_server_test");
  }

  @Test
  void shouldRefuseDatabaseNamesThatAreNotPlainIdentifiers() {
    assertThatThrownBy(() -> postgres.createDatabase("x; drop database postgres"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> postgres.createDatabase("Upper"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void shouldKeepAGivenDataDirectoryAcrossRestarts(@TempDir Path dir) throws SQLException {
    try (EmbeddedPostgresServer server =
        EmbeddedPostgresServer.builder().dataDir(dir).synchronousCommit(false).start()) {
      assertThat(queryString(server.dataSource(), "show synchronous_commit")).isEqualTo("off");
      execute(server.createDatabase("ledger"), "create table kept (v text)");
      execute(server.dataSource("ledger"), "insert into kept values ('survives')");
    }

    try (EmbeddedPostgresServer server = EmbeddedPostgresServer.builder().dataDir(dir).start()) {
      assertThat(queryString(server.dataSource("ledger"), "select v from kept")).isEqualTo("survives");
    }
  }

  @Test
  void shouldKeepPortAndDataWhenStoppedAndRestartedAndRefuseConnectionsMeanwhile() throws SQLException {
    try (EmbeddedPostgresServer server = EmbeddedPostgresServer.start()) {
      int port = server.port();
      execute(server.createDatabase("ledger"), "create table kept (v text)");
      execute(server.dataSource("ledger"), "insert into kept values ('survives')");

      server.stop();
      assertThatThrownBy(() -> queryString(server.dataSource("ledger"), "select 1"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("Connection")
          .hasMessageContaining("refused");
      assertThatThrownBy(server::stop).isInstanceOf(IllegalStateException.class);

      server.restart();
      assertThat(server.port()).isEqualTo(port);
      assertThat(queryString(server.dataSource("ledger"), "select v from kept")).isEqualTo("survives");
      assertThat(queryString(server.dataSource(), "show synchronous_commit")).as("its settings, too").isEqualTo("on");
      assertThat(queryString(server.dataSource(), "show port")).isEqualTo(Integer.toString(port));
    }
  }

  @Test
  void shouldAnswerNothingWhilePausedAndCarryOnAfterResume() throws SQLException {
    try (EmbeddedPostgresServer server = EmbeddedPostgresServer.start()) {
      DataSource ledger = server.createDatabase("ledger");
      execute(ledger, "create table kept (v text)");
      try (Connection open = ledger.getConnection()) {
        server.pause();
        PGSimpleDataSource impatient = (PGSimpleDataSource) server.dataSource("ledger");
        impatient.setConnectTimeout(1);
        impatient.setSocketTimeout(1);
        long started = System.nanoTime();
        assertThatThrownBy(() -> queryString(impatient, "select 1")).isInstanceOf(SQLException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("it hung until the client gave up")
            .isGreaterThanOrEqualTo(Duration.ofMillis(900));
        assertThat(open.isValid(1)).as("an open session gets no answer either").isFalse();

        server.resume();
        execute(ledger, "insert into kept values ('after')");
        assertThat(queryString(ledger, "select v from kept")).isEqualTo("after");
      }
    }
  }

  @Test
  void shouldCloseAStoppedOrPausedServer() {
    EmbeddedPostgresServer stopped = EmbeddedPostgresServer.start();
    stopped.stop();
    stopped.close();
    EmbeddedPostgresServer paused = EmbeddedPostgresServer.start();
    paused.pause();
    paused.close();
    assertThatThrownBy(() -> queryString(paused.dataSource(), "select 1")).isInstanceOf(SQLException.class);
  }

  private static String queryString(DataSource ds, String sql) throws SQLException {
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      return rs.getString(1);
    }
  }

  private static void execute(DataSource ds, String sql) throws SQLException {
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
