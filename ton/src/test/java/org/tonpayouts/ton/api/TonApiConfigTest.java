package org.tonpayouts.ton.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class TonApiConfigTest {
  private static final URI TONCENTER = URI.create("https://toncenter.com");

  @Test
  void shouldHaveSaneDefaults() {
    TonApiConfig config = TonApiConfig.of(TONCENTER);

    assertThat(config.apiKey()).isEmpty();
    assertThat(config.requestsPerSecond()).isEqualTo(10.0);
    assertThat(config.callTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(config.maxReadAttempts()).isEqualTo(3);
    assertThat(config.retryBackoff()).isEqualTo(Duration.ofMillis(200));
  }

  @Test
  void shouldNeverShowTheKey() {
    TonApiConfig config = TonApiConfig.of(TONCENTER).withApiKey("super-secret-key-123");

    assertThat(config.apiKey()).contains("super-secret-key-123");
    assertThat(config.toString()).doesNotContain("super-secret-key-123").contains("apiKey=<set>");
    assertThat(TonApiConfig.of(TONCENTER).toString()).contains("apiKey=<none>");
  }

  @Test
  void shouldTreatABlankKeyAsNoKey() {
    assertThat(TonApiConfig.of(TONCENTER).withApiKey("  ").apiKey()).isEmpty();
  }

  @Test
  void shouldRejectCredentialsInTheUrlAndNonsenseLimits() {
    assertThatThrownBy(() -> TonApiConfig.of(URI.create("https://toncenter.com/?api_key=abc")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageNotContaining("abc");
    assertThatThrownBy(() -> TonApiConfig.of(URI.create("ftp://toncenter.com"))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> TonApiConfig.of(TONCENTER).withRequestsPerSecond(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> TonApiConfig.of(TONCENTER).withRequestsPerSecond(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> TonApiConfig.of(TONCENTER).withCallTimeout(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> TonApiConfig.of(TONCENTER).withMaxReadAttempts(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> TonApiConfig.of(TONCENTER).withRetryBackoff(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> TonApiConfig.of(TONCENTER).withMaxInFlight(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxInFlight");
  }
}
