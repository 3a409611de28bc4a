package org.tonpayouts.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class PayoutsConfigIntakeTest {

  @Test
  void shouldDefaultToStrictIntake() {
    PayoutsConfig config = new PayoutsConfig(Map.of());

    assertThat(config.transferMaxAmountNano()).isEqualTo(1_000_000_000_000L);
    assertThat(config.requestMaxTotalNano()).isEqualTo(1_000_000_000_000L);
    assertThat(config.commentControlCharactersAllowed()).isFalse();
  }

  @Test
  void shouldTakeIntakeSettingsFromTheEnvironment() {
    PayoutsConfig config = PayoutsConfig.load(Optional.empty(), Map.of(
        "PAYOUTS_TRANSFER_MAX_AMOUNT_NANO", "5000000000",
        "PAYOUTS_REQUEST_MAX_TOTAL_NANO", "7000000000",
        "PAYOUTS_COMMENT_CONTROL_CHARACTERS", "allow"));

    assertThat(config.transferMaxAmountNano()).isEqualTo(5_000_000_000L);
    assertThat(config.requestMaxTotalNano()).isEqualTo(7_000_000_000L);
    assertThat(config.commentControlCharactersAllowed()).isTrue();
  }

  @Test
  void shouldRefuseNonsense() {
    assertThatThrownBy(() -> new PayoutsConfig(Map.of(PayoutsConfig.TRANSFER_MAX_AMOUNT_NANO_CONFIG, "0")))
        .isInstanceOf(ConfigException.class);
    assertThatThrownBy(() -> new PayoutsConfig(Map.of(PayoutsConfig.COMMENT_CONTROL_CHARACTERS_CONFIG, "strip")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("comment.control.characters");
  }
}
