package org.tonpayouts.streams.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import java.net.SocketTimeoutException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.tonpayouts.embedded.EmbeddedPostgresServer;
import org.tonpayouts.streams.ledger.operator.PauseChange;
import org.tonpayouts.streams.ledger.sql.LedgerException;
import org.tonpayouts.streams.ledger.sql.LedgerPoolSettings;
import org.tonpayouts.streams.ledger.sql.PauseGate;

/**
 * The ledger pool's bounded waits (postgres.connection.timeout.ms, postgres.socket.timeout.ms) on a
 * PostgreSQL server of this class's own, since it freezes and stops it: a statement the frozen
 * server does not answer fails after about the socket timeout, a call waiting for a connection to a
 * stopped server after about the connection timeout, the same pool serves again once the server is
 * back, and migrations run without the socket timeout. Every test leaves the server running.
 */
class LedgerTimeoutsTest {
  private static final String DATABASE = "ledger_timeouts";
  private static final Duration CONNECTION_TIMEOUT = Duration.ofMillis(1_000);
  private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(2);
  /** Room for a slow, shared machine on top of a timeout; far below "until the server is back". */
  private static final Duration SLACK = Duration.ofSeconds(3);
  private static final long SUBWALLET = 698983191L;
  private static final int POOL_SIZE = 2;

  private static EmbeddedPostgresServer postgres;
  private static HikariDataSource pool;
  private static Ledger ledger;

  @BeforeAll
  static void startOwnServer() {
    postgres = EmbeddedPostgresServer.start();
    postgres.createDatabase(DATABASE);
    pool = Ledger.pooledDataSource(postgres.jdbcUrl(DATABASE), postgres.user(), postgres.password(),
        new LedgerPoolSettings(POOL_SIZE, CONNECTION_TIMEOUT, SOCKET_TIMEOUT));
    Ledger.migrate(pool);
    ledger = new Ledger(pool, Clock.systemUTC());
  }

  @AfterAll
  static void stopOwnServer() {
    if (pool != null) {
      pool.close();
    }
    if (postgres != null) {
      postgres.close(); // resumes or restarts a server a failed test left frozen or down
    }
  }

  @Test
  void shouldFailAStatementTheFrozenServerDoesNotAnswerAfterAboutTheSocketTimeout() throws Exception {
    try (Connection c = pool.getConnection()) {
      assertThat(c.getNetworkTimeout()).as("the pool's connections carry the socket timeout")
          .isEqualTo((int) SOCKET_TIMEOUT.toMillis());
      postgres.pause();
      try {
        Timed statement = timed(() -> PauseGate.covering(c, List.of(SUBWALLET)));

        assertThat(statement.failure()).as("a ledger statement on a frozen server").isInstanceOf(SQLException.class)
            .hasRootCauseInstanceOf(SocketTimeoutException.class);
        assertTookAbout(statement, SOCKET_TIMEOUT);
        assertThat(c.isClosed()).as("the connection is given up").isTrue();

        // a ledger call meanwhile: its idle connection fails Hikari's check, a new one cannot log in
        Timed call = timed(() -> ledger.pauses().pause(SUBWALLET, "alice", "while frozen"));
        assertThat(call.failure()).isInstanceOf(LedgerException.class)
            .hasMessageStartingWith("could not pause subwallet " + SUBWALLET + ": ")
            .hasCauseInstanceOf(SQLException.class);
        assertThat(call.ms()).as("ms a ledger call took on a frozen server")
            .isLessThan(CONNECTION_TIMEOUT.plus(SOCKET_TIMEOUT).plus(SLACK).toMillis());
      } finally {
        postgres.resume();
      }
    }
    assertServesAgain();
  }

  @Test
  void shouldFailACallWaitingForAConnectionToAStoppedServerAfterAboutTheConnectionTimeout() {
    ledger.pauses().active(); // connections in the pool, which the stop cuts
    postgres.stop();
    try {
      // a connection used less than half a second ago is handed out unchecked: on one the stop cut the
      // call fails at once and the pool drops it; then calls wait for a connection none can open
      List<Long> onCutConnectionsMs = new ArrayList<>();
      Timed call = timed(() -> ledger.pauses().active());
      while (!(call.failure().getCause() instanceof SQLTransientConnectionException)
          && onCutConnectionsMs.size() < POOL_SIZE) {
        assertThat(call.failure()).isInstanceOf(LedgerException.class)
            .hasMessageStartingWith("could not read the active pauses: ")
            .hasMessageNotContaining("Connection is closed");
        onCutConnectionsMs.add(call.ms());
        call = timed(() -> ledger.pauses().active());
      }

      assertThat(onCutConnectionsMs).as("ms of the calls on connections the stop cut")
          .allMatch(ms -> ms < CONNECTION_TIMEOUT.toMillis());
      assertThat(call.failure()).isInstanceOf(LedgerException.class)
          .hasMessageStartingWith("could not read the active pauses: ledger - Connection is not available, request"
              + " timed out after")
          .hasCauseInstanceOf(SQLTransientConnectionException.class);
      assertTookAbout(call, CONNECTION_TIMEOUT);
    } finally {
      postgres.restart();
    }
    assertServesAgain();
  }

  @Test
  void shouldFailALockWaitLongerThanTheSocketTimeoutNamingTheTimeout() throws Exception {
    // another session holds the pause gate (PauseGate's key, "pause") exclusively, as a pause being set does, and
    // does not let go
    try (Connection holder = postgres.dataSource(DATABASE).getConnection(); Statement s = holder.createStatement()) {
      holder.setAutoCommit(false);
      s.execute("select pg_advisory_xact_lock(" + 0x7061757365L + ")");

      Timed call = timed(() -> ledger.pauses().pause(SUBWALLET, "alice", "behind a held gate"));

      assertThat(call.failure()).isInstanceOf(LedgerException.class)
          .hasMessage("could not pause subwallet " + SUBWALLET
              + ": An I/O error occurred while sending to the backend.")
          .hasRootCauseInstanceOf(SocketTimeoutException.class);
      assertTookAbout(call, SOCKET_TIMEOUT);
      holder.rollback();
    }
    assertThat(ledger.pauses().pause(SUBWALLET, "alice", "gate free")).isInstanceOf(PauseChange.Changed.class);
    assertThat(ledger.pauses().resume(SUBWALLET, "alice", "done")).isInstanceOf(PauseChange.Changed.class);
  }

  @Test
  void shouldMigrateWithoutTheSocketTimeoutAndGiveThePoolItsTimeoutBack() throws Exception {
    String database = DATABASE + "_migration";
    DataSource direct = postgres.createDatabase(database);
    Duration socketTimeout = Duration.ofSeconds(1);
    try (HikariDataSource fresh = Ledger.pooledDataSource(postgres.jdbcUrl(database), postgres.user(),
            postgres.password(), new LedgerPoolSettings(POOL_SIZE, CONNECTION_TIMEOUT, socketTimeout));
        Connection holder = direct.getConnection(); Statement s = holder.createStatement()) {
      // an uncommitted table of the first migration's name: its create table waits for this transaction
      holder.setAutoCommit(false);
      s.execute("create table ton_transactions (id int)");

      CompletableFuture<Integer> migration = CompletableFuture.supplyAsync(() -> Ledger.migrate(fresh));
      await("the migration waits for the table's name").atMost(Duration.ofSeconds(15))
          .until(() -> migration.isDone() || waitingOnALock(direct, database));
      Duration pastTheTimeout = socketTimeout.plusMillis(500);
      await("still waiting past the socket timeout, not failed").during(pastTheTimeout)
          .atMost(pastTheTimeout.plus(SLACK)).until(() -> !migration.isDone());
      holder.rollback();

      assertThat(migration.get(30, TimeUnit.SECONDS)).as("migrations applied").isPositive();
      try (Connection a = fresh.getConnection(); Connection b = fresh.getConnection()) {
        assertThat(List.of(a.getNetworkTimeout(), b.getNetworkTimeout()))
            .as("every connection back in the pool has the socket timeout again")
            .containsOnly((int) socketTimeout.toMillis());
      }
    }
  }

  /**
   * Whether a session of {@code database} waits for a lock, asked on a connection of its own (a
   * transaction sees pg_stat_activity as it was at its first look).
   */
  private static boolean waitingOnALock(DataSource direct, String database) throws SQLException {
    try (Connection c = direct.getConnection(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("select count(*) from pg_stat_activity where datname = '" + database
            + "' and wait_event_type = 'Lock'")) {
      rs.next();
      return rs.getLong(1) > 0;
    }
  }

  /** The same pool, not rebuilt, answers again once the server is back. */
  private static void assertServesAgain() {
    await("the same pool serves again").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100))
        .ignoreException(LedgerException.class).until(() -> ledger.pauses().active() != null);
    assertThat(pool.isClosed()).isFalse();
  }

  /** How a call failed, and after how many ms. */
  private record Timed(Throwable failure, long ms) {}

  private static Timed timed(ThrowingCallable call) {
    long started = System.nanoTime();
    Throwable failure = catchThrowable(call);
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    assertThat(failure).as("the call failed (after %s ms)", ms).isNotNull();
    return new Timed(failure, ms);
  }

  /** Not before the timeout (a little less for the clock's grain), not long after it. */
  private static void assertTookAbout(Timed call, Duration timeout) {
    assertThat(call.ms()).as("ms until the call failed, with a timeout of %s ms", timeout.toMillis())
        .isBetween(timeout.toMillis() - 50, timeout.plus(SLACK).toMillis());
  }
}
