package org.tonpayouts.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.tonpayouts.embedded.EmbeddedPostgresServer;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StartupException;

/**
 * Issue 27: streams-app started while its ledger does not take connections (PostgreSQL restarting,
 * failing over) waits for it, instead of exiting into its supervisor's growing back-off; a missing
 * database (or a refused password or TLS set-up) does not wait. Its own server: this one is stopped.
 */
class LedgerStartupPatienceTest {
  private static final String DATABASE = "patience";

  @Test
  void shouldWaitForALedgerThatIsRestartingAndOpenThePoolOnceItIsBack() throws Exception {
    try (EmbeddedPostgresServer postgres = EmbeddedPostgresServer.start()) {
      postgres.createDatabase(DATABASE);
      PayoutsConfig config = config(postgres, postgres.password());
      postgres.stop();
      CompletableFuture<Void> back = CompletableFuture.runAsync(postgres::restart,
          CompletableFuture.delayedExecutor(3, TimeUnit.SECONDS));

      long started = System.nanoTime();
      try (HikariDataSource pool = StreamsAppMain.ledgerPool(config, postgres.password());
          Connection c = pool.getConnection()) {
        assertThat(c.isValid(2)).isTrue();
      }
      Duration waited = Duration.ofNanos(System.nanoTime() - started);

      back.get(30, TimeUnit.SECONDS);
      assertThat(waited).as("it waited for the restart").isGreaterThan(Duration.ofSeconds(2))
          .isLessThan(StreamsAppMain.LEDGER_STARTUP_PATIENCE);
    }
  }

  @Test
  void shouldNotWaitForADatabaseThatDoesNotExist() throws Exception {
    try (EmbeddedPostgresServer postgres = EmbeddedPostgresServer.start()) {
      long started = System.nanoTime();

      assertThatThrownBy(() -> StreamsAppMain.ledgerPool(config(postgres, postgres.password()),
          postgres.password()))
          .isInstanceOf(StartupException.class)
          .hasMessageContaining("cannot use the ledger database")
          .hasMessageContaining("does not exist");

      assertThat(Duration.ofNanos(System.nanoTime() - started)).as("no patience for it")
          .isLessThan(Duration.ofSeconds(10));
    }
  }

  @Test
  void shouldTellAConnectionFailureFromOtherRefusals() {
    assertThat(StreamsAppMain.isConnectionFailure(new RuntimeException(new SQLException("refused", "08001"))))
        .isTrue();
    assertThat(StreamsAppMain.isConnectionFailure(new SQLException("terminating connection due to administrator"
        + " command", "57P01"))).as("PostgreSQL stopping").isTrue();
    assertThat(StreamsAppMain.isConnectionFailure(new SQLException("the database system is starting up", "57P03")))
        .isTrue();
    assertThat(StreamsAppMain.isConnectionFailure(new SQLException("password authentication failed", "28P01")))
        .isFalse();
    assertThat(StreamsAppMain.isConnectionFailure(new SQLException("database does not exist", "3D000"))).isFalse();
    assertThat(StreamsAppMain.isConnectionFailure(new SQLException("ssl", "08006",
        new javax.net.ssl.SSLHandshakeException("unknown CA")))).as("TLS refused: no reason to wait").isFalse();
  }

  private static PayoutsConfig config(EmbeddedPostgresServer postgres, String password) {
    return new PayoutsConfig(Map.of(
        PayoutsConfig.POSTGRES_URL_CONFIG, postgres.jdbcUrl(DATABASE),
        PayoutsConfig.POSTGRES_USER_CONFIG, postgres.user(),
        PayoutsConfig.POSTGRES_PASSWORD_CONFIG, password));
  }
}
