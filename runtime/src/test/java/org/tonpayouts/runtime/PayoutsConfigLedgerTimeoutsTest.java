package org.tonpayouts.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** postgres.connection.timeout.ms and postgres.socket.timeout.ms: the ledger pool's bounded waits. */
class PayoutsConfigLedgerTimeoutsTest {

  private static PayoutsConfig config(Map<String, String> values) {
    return new PayoutsConfig(values);
  }

  @Test
  void shouldWaitFiveSecondsForAConnectionAndThirtyForAnAnswerByDefault() {
    PayoutsConfig defaults = config(Map.of());

    assertThat(defaults.postgresConnectionTimeout()).isEqualTo(Duration.ofSeconds(5))
        .isEqualTo(PayoutsConfig.DEFAULT_POSTGRES_CONNECTION_TIMEOUT);
    assertThat(defaults.postgresSocketTimeout()).isEqualTo(Duration.ofSeconds(30))
        .isEqualTo(PayoutsConfig.DEFAULT_POSTGRES_SOCKET_TIMEOUT);
  }

  @Test
  void shouldReadBothFromTheFileOrTheEnvironment() {
    PayoutsConfig fromEnv = PayoutsConfig.load(Optional.empty(), Map.of("PAYOUTS_POSTGRES_CONNECTION_TIMEOUT_MS", "250",
        "PAYOUTS_POSTGRES_SOCKET_TIMEOUT_MS", "2500"));
    PayoutsConfig fromFile = config(Map.of(PayoutsConfig.POSTGRES_CONNECTION_TIMEOUT_MS_CONFIG, "300000",
        PayoutsConfig.POSTGRES_SOCKET_TIMEOUT_MS_CONFIG, "3600000"));

    assertThat(fromEnv.postgresConnectionTimeout()).isEqualTo(Duration.ofMillis(250));
    assertThat(fromEnv.postgresSocketTimeout()).isEqualTo(Duration.ofMillis(2_500));
    assertThat(fromFile.postgresConnectionTimeout()).isEqualTo(Duration.ofMinutes(5));
    assertThat(fromFile.postgresSocketTimeout()).isEqualTo(Duration.ofHours(1));
  }

  @Test
  void shouldTakeZeroForNoSocketTimeout() {
    assertThat(config(Map.of(PayoutsConfig.POSTGRES_SOCKET_TIMEOUT_MS_CONFIG, "0")).postgresSocketTimeout())
        .isZero();
  }

  @Test
  void shouldRefuseAConnectionTimeoutBelowHikarisMinimumOrAboveFiveMinutes() {
    for (String bad : List.of("249", "0", "-1", "300001")) {
      assertThatThrownBy(() -> config(Map.of(PayoutsConfig.POSTGRES_CONNECTION_TIMEOUT_MS_CONFIG, bad)))
          .as(bad).isInstanceOf(ConfigException.class)
          .hasMessage("Invalid value " + bad + " for configuration postgres.connection.timeout.ms: Value must be"
              + (bad.equals("300001") ? " no more than 300000" : " at least 250"));
    }
  }

  @Test
  void shouldRefuseASocketTimeoutUnderASecondNegativeOrAboveAnHour() {
    for (String bad : List.of("1", "999", "-1", "3600001")) {
      assertThatThrownBy(() -> config(Map.of(PayoutsConfig.POSTGRES_SOCKET_TIMEOUT_MS_CONFIG, bad)))
          .as(bad).isInstanceOf(ConfigException.class)
          .hasMessage("Invalid value " + bad + " for configuration postgres.socket.timeout.ms: must be 0 (no timeout)"
              + " or from 1000 (the driver counts whole seconds) to 3600000");
    }
  }

  @Test
  void shouldRefuseAValueThatIsNoNumberNamingTheKey() {
    assertThatThrownBy(() -> config(Map.of(PayoutsConfig.POSTGRES_SOCKET_TIMEOUT_MS_CONFIG, "30s")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("postgres.socket.timeout.ms").hasMessageContaining("30s");
  }
}
