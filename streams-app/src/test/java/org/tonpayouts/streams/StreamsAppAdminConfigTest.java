package org.tonpayouts.streams;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tonpayouts.runtime.PayoutsConfig;
import org.tonpayouts.runtime.StartupException;
import org.tonpayouts.streams.metrics.PayoutMetrics;

/** streams-app refuses to start an admin API that anyone could call, before touching anything else. */
class StreamsAppAdminConfigTest {

  @Test
  void shouldRefuseAnAdminPortWithoutAToken() {
    PayoutsConfig config = new PayoutsConfig(Map.of(PayoutsConfig.ADMIN_PORT_CONFIG, "8090"));

    assertThatThrownBy(() -> new StreamsApp(config, PayoutTestKit.KEY, null, null, Clock.systemUTC(),
        PayoutMetrics.inMemory()))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("admin.port is 8090 but no admin token is set")
        .hasMessageContaining("PAYOUTS_ADMIN_TOKEN");
  }

  @Test
  void shouldRefuseAWeakTokenWithoutShowingIt() {
    PayoutsConfig config = new PayoutsConfig(Map.of(PayoutsConfig.ADMIN_PORT_CONFIG, "8090",
        PayoutsConfig.ADMIN_TOKEN_CONFIG, "hunter2"));

    assertThatThrownBy(() -> new StreamsApp(config, PayoutTestKit.KEY, null, null, Clock.systemUTC(),
        PayoutMetrics.inMemory()))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("use at least 16")
        .hasMessageNotContaining("hunter2");
  }
}
