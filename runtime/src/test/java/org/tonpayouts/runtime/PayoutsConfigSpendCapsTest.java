package org.tonpayouts.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.tonpayouts.runtime.caps.SpendCap;
import org.tonpayouts.runtime.caps.SpendCaps;

/** spend.cap.wallet and spend.cap.deployment: lists of rolling windows, read once at start with errors that name the entry. */
class PayoutsConfigSpendCapsTest {

  private static PayoutsConfig config(Map<String, String> values) {
    return new PayoutsConfig(values);
  }

  @Test
  void shouldHaveNoCapByDefault() {
    SpendCaps caps = config(Map.of()).spendCaps();

    assertThat(caps.any()).isFalse();
    assertThat(caps).isEqualTo(SpendCaps.NONE);
  }

  @Test
  void shouldReadEveryWindowWithItsUnitAndCap() {
    SpendCaps caps = config(Map.of(PayoutsConfig.SPEND_CAP_WALLET_CONFIG, " 1h:500000000000, 24h:5000000000000",
        PayoutsConfig.SPEND_CAP_DEPLOYMENT_CONFIG, "90m:9223372036854775807,7d:1,2m:3")).spendCaps();

    assertThat(caps.perWallet()).containsExactly(new SpendCap(Duration.ofHours(1), 500_000_000_000L),
        new SpendCap(Duration.ofHours(24), 5_000_000_000_000L));
    assertThat(caps.perDeployment()).containsExactly(new SpendCap(Duration.ofMinutes(90), Long.MAX_VALUE),
        new SpendCap(Duration.ofDays(7), 1), new SpendCap(Duration.ofMinutes(2), 3));
    assertThat(caps.longest()).contains(new SpendCap(Duration.ofDays(7), 1));
    assertThat(caps.toString()).isEqualTo("wallet=[1h:500000000000,1d:5000000000000]"
        + " deployment=[90m:9223372036854775807,7d:1,2m:3]");
  }

  @Test
  void shouldKeepBucketsOfASixtiethOfTheWindow() {
    assertThat(new SpendCap(Duration.ofHours(24), 1).bucketSeconds()).isEqualTo(1_440);
    assertThat(new SpendCap(Duration.ofMinutes(1), 1).bucketSeconds()).isEqualTo(1);
    assertThatThrownBy(() -> new SpendCap(Duration.ofSeconds(90), 1)).hasMessageContaining("whole minutes");
  }

  @Test
  void shouldRefuseABadEntryNamingTheKeyAndTheEntry() {
    for (var bad : List.of(
        List.of("1h:5,24x:7", "entry '24x:7'", "expected <window>:<nanotons>"),
        List.of("1h:-5", "entry '1h:-5'", "expected <window>:<nanotons>"),
        List.of("1h:0", "entry '1h:0'", "cap must be positive"),
        List.of("1h:5,,2h:6", "entry ''", "expected"),
        List.of("30s:5", "entry '30s:5'", "expected <window>:<nanotons>"),
        List.of("0m:5", "entry '0m:5'", "window must be whole minutes from 1m to 31d"),
        List.of("32d:5", "entry '32d:5'", "from 1m to 31d"),
        List.of("1h:9223372036854775808", "entry '1h:9223372036854775808'", "does not fit in 64 bits"),
        List.of("60m:5,1h:6", "entry '1h:6'", "the window 1h is given twice"),
        List.of("1.5h:5", "entry '1.5h:5'", "expected"))) {
      assertThatThrownBy(() -> config(Map.of(PayoutsConfig.SPEND_CAP_WALLET_CONFIG, bad.get(0))))
          .as(bad.get(0)).isInstanceOf(ConfigException.class)
          .hasMessageContaining("spend.cap.wallet: " + bad.get(1) + " refused")
          .hasMessageContaining(bad.get(2));
    }
    assertThatThrownBy(() -> config(Map.of(PayoutsConfig.SPEND_CAP_DEPLOYMENT_CONFIG,
        "1m:1,2m:1,3m:1,4m:1,5m:1,6m:1,7m:1,8m:1,9m:1")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("spend.cap.deployment: at most 8 windows, got 9");
  }

  @Test
  void shouldReadTheRecheckInterval() {
    assertThat(config(Map.of()).spendCapRecheck()).isEqualTo(Duration.ofSeconds(5));
    assertThat(config(Map.of(PayoutsConfig.SPEND_CAP_RECHECK_MS_CONFIG, "200")).spendCapRecheck())
        .isEqualTo(Duration.ofMillis(200));
  }
}
