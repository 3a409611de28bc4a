package org.tonpayouts.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tonpayouts.embedded.EmbeddedPostgresServer;
import org.tonpayouts.embedded.SharedTestInfrastructure;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.streams.ledger.sql.LedgerPoolSettings;

/**
 * The pool streams-app opens takes its waits from postgres.connection.timeout.ms and
 * postgres.socket.timeout.ms (the driver counting seconds), on the shared PostgreSQL (nothing here
 * stops or freezes it). LedgerTimeoutsTest shows what the waits do when the server goes away.
 */
class LedgerPoolSettingsTest {
  private static final EmbeddedPostgresServer postgres = SharedTestInfrastructure.postgres();
  private static final String DATABASE = SharedTestInfrastructure.databaseName(LedgerPoolSettingsTest.class);

  static {
    SharedTestInfrastructure.createDatabase(LedgerPoolSettingsTest.class);
  }

  private static PayoutsConfig config(String urlParameters, Map<String, String> more) {
    Map<String, String> values = new HashMap<>(more);
    values.put(PayoutsConfig.POSTGRES_URL_CONFIG, postgres.jdbcUrl(DATABASE) + urlParameters);
    values.put(PayoutsConfig.POSTGRES_USER_CONFIG, postgres.user());
    return new PayoutsConfig(values);
  }

  @Test
  void shouldWaitFiveSecondsForAConnectionAndThirtyForAnAnswerByDefault() throws Exception {
    try (HikariDataSource pool = StreamsAppMain.ledgerPool(config("", Map.of()), postgres.password());
        Connection c = pool.getConnection()) {
      assertThat(pool.getConnectionTimeout()).isEqualTo(5_000);
      assertThat(pool.getValidationTimeout()).isEqualTo(5_000);
      assertThat(c.getNetworkTimeout()).isEqualTo(30_000);
    }
  }

  @Test
  void shouldTakeTheConfiguredWaitsRoundingTheSocketTimeoutUpToWholeSeconds() throws Exception {
    PayoutsConfig config = config("", Map.of(PayoutsConfig.POSTGRES_CONNECTION_TIMEOUT_MS_CONFIG, "1500",
        PayoutsConfig.POSTGRES_SOCKET_TIMEOUT_MS_CONFIG, "7200"));

    try (HikariDataSource pool = StreamsAppMain.ledgerPool(config, postgres.password());
        Connection c = pool.getConnection()) {
      assertThat(pool.getConnectionTimeout()).isEqualTo(1_500);
      assertThat(pool.getValidationTimeout()).as("Hikari's check fits in the wait").isEqualTo(1_500);
      assertThat(c.getNetworkTimeout()).isEqualTo(8_000);
    }
  }

  @Test
  void shouldWaitForeverForAnAnswerWithZero() throws Exception {
    PayoutsConfig config = config("", Map.of(PayoutsConfig.POSTGRES_SOCKET_TIMEOUT_MS_CONFIG, "0"));

    try (HikariDataSource pool = StreamsAppMain.ledgerPool(config, postgres.password());
        Connection c = pool.getConnection()) {
      assertThat(c.getNetworkTimeout()).isZero();
    }
  }

  @Test
  void shouldLetTheUrlsOwnSocketTimeoutWinAsTheDriverDoes() throws Exception {
    try (HikariDataSource pool = StreamsAppMain.ledgerPool(config("?socketTimeout=11", Map.of()), postgres.password());
        Connection c = pool.getConnection()) {
      assertThat(c.getNetworkTimeout()).isEqualTo(11_000);
    }
  }

  @Test
  void shouldConvertToTheDriversSecondsAndRefuseWhatHikariWouldRefuse() {
    LedgerPoolSettings settings = new LedgerPoolSettings(6, Duration.ofMillis(250), Duration.ofMillis(1_001));

    assertThat(settings.connectTimeoutSeconds()).isEqualTo(1);
    assertThat(settings.socketTimeoutSeconds()).isEqualTo(2);
    assertThat(LedgerPoolSettings.defaults(4)).isEqualTo(new LedgerPoolSettings(4, Duration.ofSeconds(5),
        Duration.ofSeconds(30)));
    assertThatThrownBy(() -> new LedgerPoolSettings(6, Duration.ofMillis(249), Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the ledger pool's connection timeout must be at least 250 ms, got 249 ms");
    assertThatThrownBy(() -> new LedgerPoolSettings(6, Duration.ofSeconds(5), Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("socket timeout");
  }
}
